"""simsym: a game-balance toolkit for the card game Symposion."""

__version__ = "0.1.0"
