"""What a game is: scenario files, cards, rule options, strategies, and the
errors they report. Imports nothing above simsym.core."""
