"""tools/side_by_side.py: the ratios it prints, its arguments, and one small run of a tree
against itself (both processes pinned, then swapped)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
spec = importlib.util.spec_from_file_location("side_by_side", ROOT / "tools" / "side_by_side.py")
side_by_side = importlib.util.module_from_spec(spec)
spec.loader.exec_module(side_by_side)


def test_ratios_are_b_over_a_and_summed_up_by_their_median():
    a = {"median_us": 0.5, "fresh_us": 1.0, "games_per_s": 8000.0}
    b = {"median_us": 0.45, "fresh_us": 1.1, "games_per_s": 10000.0}
    assert side_by_side.ratios(a, b) == pytest.approx(
        {"median_us": 0.9, "fresh_us": 1.1, "games_per_s": 1.25})
    pairs = [{"median_us": 0.9, "fresh_us": 1.0, "games_per_s": 1.3},
             {"median_us": 1.2, "fresh_us": 0.8, "games_per_s": 1.0},
             {"median_us": 0.95, "fresh_us": 0.9, "games_per_s": 1.1}]
    assert side_by_side.summary(pairs) == {"median_us": 0.95, "fresh_us": 0.9,
                                           "games_per_s": 1.1}


def test_environment_settings_are_name_value_pairs():
    assert side_by_side.parse_env(["A=1", "B=x=y", "C="]) == {"A": "1", "B": "x=y", "C": ""}
    for bad in ("A", "=1"):
        with pytest.raises(side_by_side.argparse.ArgumentTypeError, match="NAME=VALUE"):
            side_by_side.parse_env([bad])


@pytest.mark.parametrize("args, message", [
    (["--rounds", "0"], "--rounds must be at least 1"),
    (["--env-b", "NOVALUE"], "NAME=VALUE"),
])
def test_bad_arguments_exit_2_with_what_was_wrong(args, message, capsys):
    with pytest.raises(SystemExit) as e:
        side_by_side.main([str(ROOT), str(ROOT)] + args)
    assert e.value.code == 2 and message in capsys.readouterr().err


def test_a_tree_that_is_not_a_checkout_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        side_by_side.main([str(ROOT), str(tmp_path)])
    assert e.value.code == 2 and "holds no simsym/" in capsys.readouterr().err


def test_a_tree_against_itself_runs_both_halves_of_a_set():
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "side_by_side.py"), str(ROOT),
                        str(ROOT), "--rounds", "1", "--sets", "1", "--games", "20",
                        "--stride", "400"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert [ln.split(" (")[0] for ln in lines[:2]] == ["set 1.1", "set 1.2"]
    assert lines[-1].startswith("median of 2 pairs, B/A: search median ")
    # The ratio printed agrees with the figures printed beside it (the direction, B over A,
    # is test_ratios_are_b_over_a_and_summed_up_by_their_median's).
    first = lines[0]
    a_med = float(first.split("A median ")[1].split(" us")[0])
    b_med = float(first.split("; B ")[1].split(",")[0])
    ratio = float(first.split("B/A ")[1].split(",")[0])
    assert ratio == pytest.approx(b_med / a_med, abs=0.01)


def _children(pid):
    """The processes whose parent is ``pid`` (from /proc)."""
    import os

    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def test_a_terminated_run_leaves_no_child_behind():
    """SIGTERM to the tool while its two timing processes run: the tool exits and both are
    gone (its finally kills them; PR_SET_PDEATHSIG would even if it were SIGKILLed)."""
    import os
    import signal
    import time

    p = subprocess.Popen([sys.executable, str(ROOT / "tools" / "side_by_side.py"), str(ROOT),
                          str(ROOT), "--rounds", "50", "--sets", "5"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    children = []
    deadline = time.monotonic() + 120
    while len(children) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        children = _children(p.pid)
    assert len(children) == 2
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    assert p.returncode == 128 + signal.SIGTERM
    time.sleep(0.5)
    for c in children:
        with pytest.raises(ProcessLookupError):
            os.kill(c, 0)
