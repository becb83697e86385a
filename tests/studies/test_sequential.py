"""The sequential test (simsym/studies/sequential.py): its arithmetic by hand, its error rates on
simulated data, and the driver on real paired runs."""

import math

import numpy as np
from pathlib import Path

import pytest

from simsym.errors import SimsymError
from simsym.model.scenario import load_scenario
from simsym.studies.sequential import (SPRT, block_size, llr, parse_delta, parse_metric,
                                       run_until_decided)


def test_llr_by_hand():
    # d = 0.01, 0.03, 0.02, 0.04: mean 0.025, sample variance 0.0005 / 3.
    # LLR(0, 0.02) = 4 * 0.02 * (2 * 0.025 - 0.02) / (2 * 0.0005 / 3) = 0.0024 / 0.000333 = 7.2
    d = [0.01, 0.03, 0.02, 0.04]
    assert llr(d, 0.0, 0.02) == pytest.approx(7.2)
    # against -0.02: 4 * -0.02 * (0.05 + 0.02) / 0.000333 = -16.8
    assert llr(d, 0.0, -0.02) == pytest.approx(-16.8)
    assert llr([0.5], 0.0, 0.02) == 0.0  # one block: no variance yet, no evidence


def test_bounds_by_hand():
    # Wald's bounds with alpha = beta = 0.05; two-sided splits alpha between the two tests.
    two = SPRT(0.02).bounds()
    assert two[0] == pytest.approx(math.log(0.05 / 0.975))
    assert two[1] == pytest.approx(math.log(0.95 / 0.025))  # log 38 = 3.638
    one = SPRT(0.02, sides="greater").bounds()
    assert one == (pytest.approx(math.log(0.05 / 0.95)), pytest.approx(math.log(19)))


def test_verdicts_by_hand():
    t = SPRT(0.02, min_blocks=4)
    # 7.2 >= log 38 = 3.64: B raised the metric by at least 2 pp
    assert t.state([0.01, 0.03, 0.02, 0.04]).verdict == "greater"
    assert t.state([-0.01, -0.03, -0.02, -0.04]).verdict == "less"
    # mean 0, variance 0.0005/3: both LLRs are 4 * 0.02 * -0.02 / 0.000333 = -4.8 <= -2.97
    assert t.state([0.01, -0.01, 0.015, -0.015]).verdict == "no-change"
    # too few blocks: no verdict whatever the evidence
    assert t.state([0.01, 0.03, 0.02]).verdict is None
    # identical runs (every difference 0) decide "no change" at once
    assert t.state([0.0] * 4).verdict == "no-change"
    d = t.state([0.01, 0.03, 0.02, 0.04])
    assert d.mean == pytest.approx(0.025) and d.lo < 0.025 < d.hi


def _simulate(mean, runs, rng, sd=0.06, delta=0.02, cap=400, every=4):
    t = SPRT(delta)
    assert t.min_blocks == 20
    verdicts = []
    for _ in range(runs):
        d = rng.normal(mean, sd, cap)
        v = None
        for n in range(t.min_blocks, cap + 1, every):
            v = t.state(d[:n]).verdict
            if v:
                break
        verdicts.append(v)
    return verdicts


def test_error_rates_on_simulated_blocks():
    """Under H0 (no change) a change is called at most ~alpha of the time; under H1 (a
    change of delta) it is found at least ~1 - beta of the time, at the right sign."""
    rng = np.random.default_rng(7)
    h0 = _simulate(0.0, 1000, rng)
    false_alarms = sum(v in ("greater", "less") for v in h0) / len(h0)
    # alpha 0.05, plus 3.5 standard errors of 1000 runs. The variance is estimated, so the
    # first look waits for min_blocks (20) blocks: measured over 3,000 runs, 0.047 (with 8
    # blocks 0.07, with 40 0.033)
    assert false_alarms <= 0.075
    assert sum(v == "no-change" for v in h0) / len(h0) >= 0.85
    h1 = _simulate(0.02, 300, rng)
    assert sum(v == "greater" for v in h1) / len(h1) >= 0.88
    assert not any(v == "less" for v in h1)
    h1_down = _simulate(-0.03, 100, rng)
    assert sum(v == "less" for v in h1_down) / len(h1_down) >= 0.9


def test_bad_parameters_are_refused():
    with pytest.raises(SimsymError, match="delta"):
        SPRT(0.0)
    with pytest.raises(SimsymError, match="alpha"):
        SPRT(0.02, alpha=0.7)
    with pytest.raises(SimsymError, match="sides"):
        SPRT(0.02, sides="both")
    assert parse_delta("2pp") == pytest.approx(0.02)
    assert parse_delta("0.015") == pytest.approx(0.015)
    for bad in ("2", "-1pp", "two"):
        with pytest.raises(SimsymError, match="delta"):
            parse_delta(bad)


def test_metric_names():
    base = load_scenario("scenarios/base.yaml")
    assert parse_metric("seat:3", base, base).seat == 3
    assert parse_metric("gih:plato", base, base).kinds == (base.cards.index("Plato"),) * 2
    for bad, says in (("seat:4", "0..3"), ("gih:Nobody", "no card"), ("speed", "allowed"),
                      ("quality:length", "no measure 'length'; allowed: turns, lead_changes")):
        with pytest.raises(SimsymError, match=says):
            parse_metric(bad, base, base)
    # a measure of how the game plays: its changes in its own unit (a share's in pp)
    turns = parse_metric("quality:turns", base, base)
    assert turns.unit == "turns" and parse_delta("1", turns) == 1.0
    assert parse_delta("0.5 turns", turns) == 0.5 and turns.fmt(0.274) == "+0.27 turns"
    with pytest.raises(SimsymError, match="a number of turns"):
        parse_delta("2pp", turns)
    shared = parse_metric("quality:shared_win", base, base)
    assert shared.unit == "pp" and parse_delta("2pp", shared) == pytest.approx(0.02)
    assert shared.fmt(0.0123, 0.001, 0.02) == "+1.2 pp (+0.1 to +2.0)"


def test_block_size_keeps_deals_whole():
    assert block_size(4, "rotate", 402) == 400
    assert block_size(3, "rotate", 2) == 3
    assert block_size(4, "mirror", 401) == 401


def test_identical_scenarios_decide_no_change_at_once():
    base = load_scenario("scenarios/base.yaml")
    looks = list(run_until_decided(base, base, parse_metric("seat:0", base, base),
                                   SPRT(0.02, min_blocks=4), seed=5, block=100,
                                   max_games=4000))
    assert len(looks) == 1
    assert looks[0].decision.verdict == "no-change" and looks[0].games == 400


def test_a_real_change_is_found_and_the_driver_stops():
    """Plato one point weaker (plato-nerf): Plato's win share when held drops, and the
    driver stops at the first look that says so, before the cap."""
    a = load_scenario("scenarios/base.yaml")
    b = load_scenario("scenarios/plato-nerf.yaml")
    seen = []
    looks = list(run_until_decided(a, b, parse_metric("gih:Plato", a, b), SPRT(0.01),
                                   seed=11, block=200, max_games=40_000,
                                   on_games=seen.append))
    last = looks[-1]
    assert last.decision.verdict == "less"
    assert last.games < 40_000
    assert all(not look.decision.decided for look in looks[:-1])
    assert [look.games for look in looks] == sorted({look.games for look in looks})
    assert seen and seen[-1] == 2 * last.games
    # the blocks are the paired run's: the same games as one run of that length
    from simsym.studies.paired import run_batched

    whole = run_batched(b, last.games, 11, batches=last.games // 200)
    assert sum(r.totals["seat_wins"].sum() for r in last.b_blocks) == \
        whole.totals["seat_wins"].sum()


def test_verdict_lines_say_what_was_decided_and_after_how_many_games():
    from simsym.studies.sequential import Look, Metric, verdict_lines

    t = SPRT(0.02, min_blocks=4)
    d = t.state([0.01, 0.03, 0.02, 0.04])  # "greater", by hand above
    lines = verdict_lines(Look(800, d, [], [], [], []), Metric("seat:1", seat=1), t, 10_000)
    assert lines[0] == ("- **B raised `seat:1` by at least 2 pp**, decided after **800 games** "
                        "each (4 paired blocks; cap 10,000).")
    assert "+2.50 pp" in lines[1] and "LLR up +7.20" in lines[2]
    undecided = t.state([0.01, -0.01, 0.03])
    lines = verdict_lines(Look(600, undecided, [], [], [], []), Metric("seat-gap"), t, 600)
    assert lines[0].startswith("- **Undecided at the cap") and "600 games each" in lines[0]


def test_a_measure_of_how_the_game_plays_is_decided_in_its_unit(tmp_path):
    """Four runs through the deck instead of three make games longer: the driver decides on
    quality:turns, and compare.md says it in turns; the per-block values are those of the
    blocks' own runs."""
    from click.testing import CliRunner

    from simsym.cli.main import main as cli
    from simsym.studies.paired import quality_metric, run_batched

    longer = tmp_path / "longer.yaml"
    longer.write_text("extends: " + str(Path("scenarios/base.yaml").resolve())
                      + "\nname: longer\nrules: {deck_runs: 4}\n")
    res = CliRunner().invoke(cli, ["compare", "scenarios/base.yaml", str(longer),
                                   "--until-decided", "--metric", "quality:turns", "--delta",
                                   "1", "--block", "100", "--max-games", "8000", "--jobs", "1",
                                   "--out", str(tmp_path / "c"), "--judge", "fast", "-q"])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "c" / "compare.md").read_text()
    assert "**B raised `quality:turns` by at least 1 turn**" in md
    verdict = next(x for x in md.splitlines() if x.startswith("- **The verdict** on"))
    assert " turns (" in verdict and "pp" not in verdict
    b = load_scenario(longer).judge("fast")
    games = int(md.split("decided after **")[1].split(" games")[0].replace(",", ""))
    run = run_batched(b, games, b.seed, batches=games // 100)
    per_block = [quality_metric(run, i)[0] for i in range(len(run.batch_totals))]
    a = load_scenario("scenarios/base.yaml").judge("fast")
    base = run_batched(a, games, a.seed, batches=games // 100)
    diffs = [x - quality_metric(base, i)[0] for i, x in enumerate(per_block)]
    mean = f"{sum(diffs) / len(diffs):+.3f} turns"
    assert f"per block: {mean} (95% CI" in md


def test_blocks_of_a_look_pool_to_the_whole_run():
    from simsym.studies.paired import run_batched
    from simsym.studies.sequential import batched

    base = load_scenario("scenarios/base.yaml")
    look = next(run_until_decided(base, base, parse_metric("seat-gap", base, base),
                                  SPRT(0.02, min_blocks=4), seed=3, block=50, max_games=200))
    run = batched(base, look.a_blocks, 3)
    whole = run_batched(base, 200, 3, batches=4)
    assert run.games == 200 and len(run.batch_totals) == 4
    for key in ("seat_wins", "seat_score", "strat_wins"):
        assert (run.totals[key] == whole.totals[key]).all()
    assert (run.agg == whole.agg).all()
