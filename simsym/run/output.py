"""The run directory: every file written atomically (temp file, then rename).

A write the machine refuses (no space, quota, read-only, permissions) becomes an OutputError
naming the path: the temp file is removed and the older file, if any, is left as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from simsym.errors import SimsymError, environment_error

TEMP_GLOB = ".*.tmp"  # every temp file written under an output directory matches this


def file_mode() -> int:
    """The mode a new file gets from the user's umask (0o644 under the usual 022): what the
    outputs are given, as any program's files would be (a temp file is created 0o600)."""
    try:  # Linux states the umask of the process without changing it
        with open("/proc/self/status", encoding="ascii") as fh:
            mask = next(int(line.split()[1], 8) for line in fh if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError, IndexError):
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def _write_temp(path: Path, write, binary: bool) -> str:
    """Call ``write(file)`` on a new temp file beside ``path``; return the temp file's name.
    A write the machine refuses is an OutputError naming ``path``; no temp file is left.
    The file gets the mode of any new file of the user's (file_mode), not the temp file's."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise environment_error(e, path) or e from None
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else
                                                       {"encoding": "utf-8"})) as fh:
            os.fchmod(fd, file_mode())
            write(fh)
    except BaseException as e:
        os.unlink(tmp)
        if isinstance(e, OSError) and environment_error(e, path):
            raise environment_error(e, path) from None
        raise
    return tmp


def atomic_write(path: Path, write, binary: bool = False):
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it into place:
    readers see the old file or the new one, never half of one."""
    path = Path(path)
    os.replace(_write_temp(path, write, binary), path)


def stage_files(out: Path, files: dict) -> list:
    """Write several files of ``out`` (name -> text), each to a temp file, all or none: a full
    disk removes those already written and leaves the older files as they were. Then
    ``commit_files`` renames them into place in the order given (summary.json last)."""
    temps = []
    try:
        for name, text in files.items():
            temps.append((_write_temp(out / name, lambda fh, t=text: fh.write(t), False),
                          out / name))
    except BaseException:
        for tmp, _ in temps:
            os.unlink(tmp)
        raise
    return temps


def commit_files(staged: list):
    for tmp, path in staged:
        os.replace(tmp, path)


def remove_temp_files(out: Path):
    """Delete the temp files a killed run left under ``out`` (only while holding its lock)."""
    for tmp in Path(out).rglob(TEMP_GLOB):
        tmp.unlink(missing_ok=True)


def atomic_write_text(path: Path, text: str):
    atomic_write(path, lambda fh: fh.write(text))


def json_text(data) -> str:
    return json.dumps(data, indent=2, sort_keys=False) + "\n"


def write_json(path: Path, data):
    atomic_write_text(path, json_text(data))


def ensure_dir(out: Path) -> Path:
    """--out as a writable directory (created if need be), or a clear error."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SimsymError(f"--out {out}: is a file, not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimsymError(f"--out {out}: cannot create the directory ({e.strerror})") from None
    if not os.access(out, os.W_OK):
        raise SimsymError(f"--out {out}: the directory is not writable")
    return out


def prepare_out_dir(out: Path, scenario_name: str, force: bool) -> Path:
    """Check --out before any game runs: not a file, writable, not another scenario's run."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SimsymError(f"--out {out}: is a file, not a directory")
    if out.is_dir():
        summary = out / "summary.json"
        if summary.exists() and not force:
            try:
                other = json.loads(summary.read_text()).get("scenario")
            except (OSError, ValueError):
                other = None
            if other is not None and other != scenario_name:
                raise SimsymError(f"--out {out}: holds the results of scenario {other!r}, "
                                  f"not {scenario_name!r}; choose another directory or pass "
                                  "--force to overwrite")
    return ensure_dir(out)


def replace_dir(tmp_dir: Path, final: Path):
    """Move a finished directory into place, replacing an older one."""
    if final.exists():
        old = final.with_name(final.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(final, old)
        os.replace(tmp_dir, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp_dir, final)
