"""Domain errors. Library code raises these; only the CLI turns them into exit code 2."""

from __future__ import annotations

import difflib


class SimsymError(Exception):
    """Bad input from the user: a clear message, no traceback, exit code 2."""


class InputError(SimsymError):
    """A problem located in a file (or stdin): where, which key, what was wrong, what is allowed."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 key: str | None = None):
        self.file, self.line, self.key, self.message = file, line, key, message
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.file:
            where = str(self.file)
            if self.line is not None:
                where += f":{self.line}"
        if self.key:
            where = f"{where}: {self.key}" if where else self.key
        return f"{where}: {self.message}" if where else self.message


def closest(word: str, choices, n: int = 3) -> list[str]:
    """The closest valid names to ``word`` (case-insensitive), best first."""
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    hits = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[h] for h in hits]


def did_you_mean(word: str, choices) -> str:
    hits = closest(word, choices)
    if not hits:
        return ""
    return " (did you mean " + " or ".join(repr(h) for h in hits) + "?)"
