"""The run directory: every file written atomically (temp file, then rename)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from simsym.errors import SimsymError


def atomic_write(path: Path, write, binary: bool = False):
    """Call ``write(file)`` on a temporary file beside ``path``, then rename it into place:
    readers see the old file or the new one, never half of one."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else
                                                       {"encoding": "utf-8"})) as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: Path, text: str):
    atomic_write(path, lambda fh: fh.write(text))


def write_json(path: Path, data):
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=False) + "\n")


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
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimsymError(f"--out {out}: cannot create the directory ({e.strerror})") from None
    if not os.access(out, os.W_OK):
        raise SimsymError(f"--out {out}: the directory is not writable")
    return out


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
