"""What a game is: scenario files, cards, rule options and strategies (with the base class of
those written in Python). Imports only simsym.core, simsym.learned and simsym.errors."""
