"""`simsym bench`: the figures it prints and the names its JSON carries. Nothing
here checks a speed; only that every figure is measured, named and sane."""

import json

import pytest
from click.testing import CliRunner

from simsym.run.bench import ENGINE_REPEATS
from simsym.cli.bench import _runs
from simsym.cli.main import main

SMALL = ["--hands", "20", "--ref-hands", "2", "--reps", "2", "--games", "40",
         "--ref-games", "1", "--no-compile"]


@pytest.mark.slow
def test_bench_json_carries_the_headline_figures():
    r = CliRunner().invoke(main, ["bench", "--json", *SMALL])
    assert r.exit_code == 0, r.output
    figs = json.loads(r.output)
    for name in ("search_us_median", "search_us_distinct_mean", "engine_games_per_s",
                 "games_per_s_all_cores", "rollouts_per_s", "learned_games_per_s",
                 "lookahead32_s_per_game"):
        assert figs[name] > 0, name
    # Not measured in this run: present, and null.
    assert figs["million_games_s"] is None
    assert figs["compile_cold_s"] is None
    # The headline figures are the bench's own, under their headline names.
    assert figs["search_us_median"] == figs["numba_median_us"]
    assert figs["games_per_s_all_cores"] == figs["engine"]["numba_games_per_s_all"]
    # Each engine rate is the fastest of its measurements, all of them kept.
    e = figs["engine"]
    for key in ("numba_games_per_s_1", "numba_games_per_s_all"):
        runs = e[key + "_runs"]
        assert len(runs) == ENGINE_REPEATS and min(runs) > 0, key
        assert e[key] == max(runs), key
    assert figs["engine_games_per_s"] == e["numba_games_per_s_1"]
    # The fast engine and the reference agree on what they both measured.
    assert figs["agree"] == 2
    assert figs["engine"]["summaries_identical"] is True


@pytest.mark.parametrize("option", ["--hands", "--ref-hands", "--reps", "--games",
                                    "--ref-games"])
def test_a_count_below_one_is_a_usage_error(option):
    """0 hands or games used to end in a traceback (an empty median, a division by zero)."""
    r = CliRunner().invoke(main, ["bench", option, "0"])
    assert r.exit_code == 2
    assert option in r.output and "0 is not in the range x>=1" in r.output
    assert "Traceback" not in r.output


@pytest.mark.slow
def test_bench_table_reports_targets():
    r = CliRunner().invoke(main, ["bench", *SMALL])
    assert r.exit_code == 0, r.output
    assert "targets (`simsym docs performance`, `simsym docs strategies`)" in r.output
    assert "search_us_median" in r.output and "target at most 0.4" in r.output
    assert "compile (first call" not in r.output  # --no-compile
    # the engine rates, one process and all, and the learned table's
    assert r.output.count("(fastest of ") == 3
    assert "learned_games_per_s" in r.output and "target at least 1,000" in r.output


def test_engine_runs_are_listed_in_words():
    assert _runs([10120.4]) == "10,120"
    assert _runs([9870.0, 10120.4, 10240.6]) == "9,870, 10,120 and 10,241"


@pytest.mark.slow
def test_the_million_run_peak_is_its_own():
    """The peak RSS the bench gives for its `simsym run` is that run's (its largest process),
    not the largest of every process the bench started before: with the cold-compile
    figures on, that was the compile's (~500 MB).

    The run itself may compile its kernels (a fresh clone has no cache): that peaks near
    500 MB, so the earlier child is made far larger (1.5 GiB) and the bound sits between."""
    import subprocess
    import sys

    from simsym.run.bench import million_figures
    from simsym.model.scenario import BASE_SCENARIO

    # An earlier child of this process that peaks at ~1.5 GiB.
    touch = "b = bytearray(1536 << 20); b[::4096] = b'x' * len(b[::4096])"
    subprocess.run([sys.executable, "-c", touch], check=True)
    figs = million_figures(BASE_SCENARIO, games=200)
    assert figs["million_games"] == 200 and figs["million_wall_s"] > 0
    assert 20 < figs["million_peak_rss_mb"] < 1200, figs
