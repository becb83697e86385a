"""The engines' Python side: the compiled engine's wrapper (compiled) and the
best-Symposion search (search). Imports simsym.model, simsym.core and
simsym.reference, nothing above them."""
