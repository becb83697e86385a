"""The progress display: one bar, or an overall bar of steps over the bar of the step under
way; drawn on a terminal only, and not at all with --quiet."""

import io
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

from simsym.run.progress import Progress
from simsym.model.scenario import BASE_SCENARIO

SIMSYM = str(Path(sys.executable).with_name("simsym"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "\n")


def test_labelled_steps_follow_the_count_of_units():
    buf = io.StringIO()
    p = Progress(300, True, stream=buf, steps=["4I; IO", "5I; IO", "6I; IO"],
                 step_word="value")
    for done in (0, 50, 100, 150, 250, 300):
        p.update(done, force=True)
    p.close()
    out = plain(buf.getvalue())
    # 150 of 300 is the second value's 50th game; 250 the third's 50th
    assert "value 2/3: 5I; IO" in out and "50/100 games" in out
    assert "value 3/3: 6I; IO" in out and "3/3 done" in out and "100/100 games" in out
    assert out.index("value 1/3: 4I; IO") < out.index("value 2/3") < out.index("value 3/3")


def test_stages_of_their_own_sizes_and_a_second_series():
    buf = io.StringIO()
    p = Progress(10, True, stream=buf, steps=2, step_word="trial")
    p.stage("playing", 40)
    p.update(40, force=True)
    p.note("trial 1/2: no change: objective 3.10")
    p.stage("playing", 40)
    p.update(20, force=True)
    p.stage("start and tuned", 80, 0, 1, "confirmation")
    p.update(80, force=True)
    p.close()
    out = plain(buf.getvalue())
    assert "trial 1/2: playing" in out and "trial 2/2: playing" in out
    assert "20/40 games" in out and "trial 1/2: no change: objective 3.10\n" in out
    assert "confirmation 1/1: start and tuned" in out and "1/1 done" in out


def test_an_interrupted_series_is_not_drawn_as_done():
    buf = io.StringIO()
    p = Progress(10, True, stream=buf, steps=3)
    p.stage("a", 10)
    p.update(10, force=True)
    p.close()
    assert "3/3 done" not in plain(buf.getvalue())


def test_disabled_draws_nothing():
    buf = io.StringIO()
    p = Progress(10, False, stream=buf, steps=["a", "b"])
    p.update(5, force=True)
    p.stage("c", 3)
    p.note("hidden")
    p.close()
    assert buf.getvalue() == ""


def _run_on_a_terminal(args, cwd):
    """The command with a pseudo-terminal as its stderr: (exit code, stderr as drawn)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=slave, cwd=cwd)
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the command closed its end
                break
            if not chunk:
                break
            out += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=60)
    os.close(master)
    return proc.returncode, out.decode(errors="replace")


def test_a_sweep_on_a_terminal_shows_its_values_over_their_games(tmp_path):
    args = [SIMSYM, "sweep", str(BASE_SCENARIO), "--card", "Plato", "--values", "4I; IO",
            "--values", "5I; IO", "--games", "200", "-j", "1"]
    rc, drawn = _run_on_a_terminal(args + ["--out", str(tmp_path / "a")], tmp_path)
    assert rc == 0, drawn
    out = plain(drawn)
    assert "value 1/2: 4I; IO" in out and "value 2/2: 5I; IO" in out
    assert "2/2 done" in out and "200/200 games" in out and "games/s" in out
    rc, drawn = _run_on_a_terminal(args + ["--out", str(tmp_path / "b"), "-q"], tmp_path)
    assert rc == 0 and drawn == ""  # --quiet
    piped = subprocess.run(args + ["--out", str(tmp_path / "c")], capture_output=True,
                           text=True, cwd=tmp_path)
    assert piped.returncode == 0 and "\x1b[" not in piped.stderr  # not a terminal: no bar
    assert "value 1/2" not in piped.stderr
