"""Domain errors. Library code raises these; only the CLI turns them into exit code 2."""

from __future__ import annotations

import difflib
import errno
import os
import re
from contextlib import contextmanager


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

    def __reduce__(self):  # picklable across processes, with its fields
        return (type(self), (self.message, self.file, self.line, self.key))

    @property
    def errors(self) -> list[InputError]:
        """Every problem this exception stands for (one here; several in InputErrors)."""
        return [self]

    def sort_key(self):
        return (str(self.file or ""), self.line if isinstance(self.line, int) else 0,
                str(self.key or ""), self.message)


class InputErrors(InputError):
    """Several problems found in one pass, sorted by file and line; ``str()`` is one line each.

    An InputError itself (its file, line, key and message are the first problem's), so code
    written for a single problem keeps working.
    """

    def __init__(self, errors):
        flat: list[InputError] = []
        for e in errors:
            for one in e.errors:
                if all(one.format() != f.format() for f in flat):
                    flat.append(one)
        if not flat:
            raise ValueError("InputErrors needs at least one problem")
        self._errors = sorted(flat, key=InputError.sort_key)
        first = self._errors[0]
        super().__init__(first.message, first.file, first.line, first.key)

    def __reduce__(self):
        return (type(self), (self._errors,))

    @property
    def errors(self) -> list[InputError]:
        return list(self._errors)

    def format(self) -> str:
        return "\n".join(e.format() for e in self._errors)


class Problems:
    """Collects InputErrors so that a whole file is checked before anything is refused.

    ``with problems.collect(): ...`` records an InputError raised inside (and carries on after
    the block); ``problems.raise_if_any()`` raises them together.
    """

    def __init__(self):
        self.items: list[InputError] = []

    def add(self, error: InputError) -> None:
        self.items.extend(error.errors)

    def __bool__(self):
        return bool(self.items)

    def __len__(self):
        return len(self.items)

    @contextmanager
    def collect(self):
        try:
            yield
        except InputError as e:
            self.add(e)

    def exception(self) -> InputError:
        if len(self.items) == 1:
            return self.items[0]
        return InputErrors(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise self.exception()

    def fatal(self, error: InputError):
        """Record ``error`` and raise everything found so far (for problems after which later
        checks are meaningless)."""
        self.add(error)
        raise self.exception()


def show(value, limit: int = 60) -> str:
    """A short repr of a value found in a file, for messages (huge numbers and long text cut)."""
    if isinstance(value, bool):
        return "true" if value else "false"  # as YAML writes them
    if value is None:
        return "null"
    if isinstance(value, int) and value.bit_length() > 10_000:
        return f"a whole number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # pragma: no cover - defensive
        return f"a {type(value).__name__}"
    if len(text) > limit:
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{text[:20]}... ({len(text)} digits)"
        return f"{text[:limit - 15]}... ({len(text)} characters)"
    return text


def closest(word: str, choices, n: int = 3) -> list[str]:
    """The closest valid names to ``word`` (case-insensitive), best first."""
    choices = [str(c) for c in choices]
    lowered = {c.lower(): c for c in choices}
    word = str(word)[:200]
    hits = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[h] for h in hits]


def did_you_mean(word: str, choices) -> str:
    hits = closest(word, choices)
    if not hits:
        return ""
    return " (did you mean " + " or ".join(repr(h) for h in hits) + "?)"


# --- the machine, not the input: full disks, permissions, signals ---------------------------

_ADVICE = {
    errno.ENOSPC: "free some space or choose another --out",
    errno.EDQUOT: "the disk quota is used up: free some space or choose another --out",
    errno.EROFS: "the file system is read-only: choose another --out",
    errno.EACCES: "check the directory's permissions or choose another --out",
    errno.EPERM: "check the directory's permissions or choose another --out",
    errno.EMFILE: "raise the limit of open files (ulimit -n) or use fewer --jobs",
    errno.ENFILE: "the system is out of file handles: retry later or use fewer --jobs",
    errno.EIO: "the disk reported an input/output error: check it, or choose another --out",
}


class OutputError(SimsymError):
    """The machine refused a write (no space, quota, read-only, permissions, open files):
    neither a bug nor bad input. One line naming the path and the cause; exit code 4."""

    def __init__(self, path, cause: str, advice: str = "", hint: str = ""):
        self.path, self.cause, self.advice, self.hint = str(path), cause, advice, hint
        super().__init__(self._text())

    def _text(self) -> str:
        return ("; ".join(x for x in (f"cannot write {self.path}: {self.cause}", self.advice,
                                      self.hint) if x))

    def with_hint(self, hint: str) -> "OutputError":
        return OutputError(self.path, self.cause, self.advice, hint)

    def __reduce__(self):  # raised in worker processes, shown by the main one
        return (type(self), (self.path, self.cause, self.advice, self.hint))


def environment_error(e: OSError, path=None) -> OutputError | None:
    """``e`` as an OutputError when it is the environment's doing (see _ADVICE), else None."""
    code = e.errno
    if code is None:  # pyarrow and others put the errno in the text only
        m = re.search(r"\[errno (\d+)\]", str(e), re.IGNORECASE)
        code = int(m[1]) if m else None
    if code not in _ADVICE:
        return None
    where = path or e.filename or "a file"
    return OutputError(where, e.strerror or os.strerror(code), _ADVICE[code])


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP (or SIGINT) received: stop like Ctrl-C, exit 128 + the signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
