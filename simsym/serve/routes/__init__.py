"""The workbench's routes, a FastAPI router by concern: the variant editor, the jobs (with
their server-sent events), the history and saves, the reports. Each route receives the
session as a dependency (simsym.serve.session.get_session)."""
