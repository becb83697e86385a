"""A real `simsym serve` process for tests: started on a free port, ended at the end."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx
import yaml

from simsym.model.scenario import REPO_ROOT


KRATER = 2  # Krater's row in the base deck ("1W, Container")
# The fields of a comparison that will not decide soon: a real change, a tiny delta, a huge
# cap. (Not the base against itself: the sequential test decides that "no change" at its
# first look, which could end the job, and its pools, before a test acts on them.)
LONG_RUN = {f"text-{KRATER}": "2W, Container", "delta": "0.01pp", "max_games": "100000000"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The two judges of a judged copy (docs/scenarios.md, `judges:`).
JUDGES = {"fast": "greedy", "strong": "learned"}


def scenarios_copy(dest: Path, judged: bool = False) -> Path:
    """base.yaml and its card file in ``dest`` (saves land there, not in the repository).

    The copy's table is set here, whatever the repository's base.yaml names: four greedy
    players of its own (`strategies: [greedy]`, no judge to pick), or with ``judged`` the
    judges greedy (fast) and learned (strong)."""
    data = yaml.safe_load((REPO_ROOT / "scenarios" / "base.yaml").read_text())
    data.pop("judges", None)
    data.pop("strategies", None)
    if judged:
        data["judges"] = dict(JUDGES)
    else:
        data["strategies"] = ["greedy"]
    (dest / "base.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    shutil.copytree(REPO_ROOT / "scenarios" / "cards", dest / "cards")
    return dest / "base.yaml"


@contextmanager
def serving(scenario: Path, *args, timeout: float = 120, env: dict | None = None):
    """Yield (process, base URL) of `simsym serve SCENARIO` once it answers. ``env``: more
    environment variables for it."""
    port = free_port()
    env = {**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join(
        [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.Popen([sys.executable, "-m", "simsym.cli.main", "serve", str(scenario),
                             "--port", str(port), *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + timeout
        while True:
            assert proc.poll() is None, f"simsym serve exited: {proc.communicate()[1]}"
            try:
                if httpx.get(url + "/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < end, "simsym serve did not answer"
            time.sleep(0.2)
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
