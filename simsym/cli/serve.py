"""`simsym serve [SCENARIO]`: the balance workbench in the browser (docs/workbench.md)."""

from __future__ import annotations

import click


@click.command("serve")
@click.argument("scenario", required=False, metavar="[SCENARIO]")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; anything but 127.0.0.1 opens the workbench to the "
                   "network.")
@click.option("--scenarios", "scenarios_dir", type=click.Path(file_okay=False),
              help="Folder where variants are saved [default: the scenario's folder].")
@click.option("--reports", "reports_dir", type=click.Path(file_okay=False),
              help="Folder of run directories whose reports the page opens [default: "
                   "reports/].")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST:PORT",
              help="Another Host header to accept (e.g. the machine's name with --host "
                   "0.0.0.0); repeatable.")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="Processes a comparison plays on. 1 is the quickest to a first verdict: "
                   "a pool costs its start-up at every look (`simsym docs workbench`).")
@click.option("--judge", type=click.Choice(["strong", "fast"]), default="strong",
              show_default=True,
              help="A scenario judged by two tables (`judges:`): the judge the page starts "
                   "with, the strong table (the verdict to trust) or the fast scripted one; "
                   "the page switches between them. Both are warmed up at start, this one "
                   "first. A scenario that names its own `strategies:` plays them whatever "
                   "this says.")
def serve(scenario, port, host, scenarios_dir, reports_dir, allow_hosts, jobs, judge):
    """Edit cards and rules in the browser and see the verdict.

    Opens SCENARIO (default: the base game) in the browser: edit its cards and rules, and
    see each variant against it (`simsym docs workbench`).

    A variant runs against the base on the same deals in a worker process, block by block,
    until the sequential test decides (or the cap); progress streams to the page. A judged
    scenario is compared under the judge picked on the page (--judge at start). Stop the
    server with Ctrl-C: the worker stops with it.
    """
    import os
    import tempfile

    from simsym.model.scenario import BASE_SCENARIO
    from simsym.run.cache import ENV

    # Every variant is compared with the same base on the same deals: with a chunk cache
    # (simsym/run/cache.py) the base's blocks are played once, not once per variant. The
    # user's SIMSYM_CACHE if set, else a folder that lives as long as the server.
    own_cache = None if os.environ.get(ENV, "").strip() else tempfile.TemporaryDirectory(
        prefix="simsym-serve-cache-")
    if own_cache is not None:
        os.environ[ENV] = own_cache.name
    try:
        _serve(scenario or BASE_SCENARIO, port, host, scenarios_dir, reports_dir, allow_hosts,
               jobs, judge)
    finally:
        if own_cache is not None:
            os.environ.pop(ENV, None)
            own_cache.cleanup()


def _serve(scenario, port, host, scenarios_dir, reports_dir, allow_hosts, jobs, judge="strong"):
    import uvicorn

    from simsym.model.scenario import table_words
    from simsym.serve.app import create_app

    app = create_app(scenario, scenarios_dir=scenarios_dir,
                     reports_dir=reports_dir, host=host, port=port, allowed_hosts=allow_hosts,
                     jobs=jobs, judge=judge)
    sock = listen(host, port)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    shown = f"[{host}]" if ":" in host else host
    base = app.state.session.base
    table = (f"judge: {judge} ({table_words(base.judge(judge))}), picked on the page"
             if base.judges else f"table: {table_words(base)}, its own strategies")
    click.echo(f"simsym workbench on http://{shown}:{port}/ (base {base.path}; {table}; "
               f"saves to {app.state.session.scenarios_dir}); Ctrl-C stops it", err=True)
    uvicorn.Server(config).run(sockets=[sock])


def listen(host: str, port: int):
    """The server's socket, bound here so a taken port is one clear line (exit 2)."""
    import socket

    from simsym.errors import SimsymError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise SimsymError(f"cannot listen on {host}:{port}: {e.strerror or e}; choose another "
                          "--port (or --host)") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock
