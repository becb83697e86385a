"""Plain-Python statement of the rules: readable, slow, and the check on the fast path.

Nothing here imports simsym.core: the reference must stay an independent check.
"""
