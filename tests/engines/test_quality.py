"""Game-quality measures (docs/game-engine.md section 8), worked out by hand.

simsym.reference.quality.measures is the definition both engines follow; its timelines here
are small enough to read the lead history off the page. An engine game is then checked
against its own event log: the scores at each end of turn are rebuilt from the SCORE events
and the measures computed again here, without the engine's tracking or measures()."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from simsym.analysis.quality import quality_frame, wilson_interval
from simsym.core import enums as E
from simsym.engine.compiled import play_logged, setup_for
from simsym.model.scenario import BASE_SCENARIO, load_scenario
from simsym.reference.quality import (
    WIN_BY_POINTS, WIN_BY_SHARED, Quality, describe, measures, run_end_turns,
)
from simsym.run.aggregate import merge, quality_totals
from simsym.run.summary import quality_block

# --- the definitions, on timelines worked out by hand -----------------------------------------


def test_a_lead_change_and_a_tie_at_the_top_that_does_not_count():
    # end of turn:  1          2          3          4          5           6
    scores = [[5, 0, 0], [5, 7, 0], [9, 9, 0], [9, 9, 4], [9, 12, 4], [14, 12, 4]]
    # leaders:      0          1 (change) tie        tie        1 (no change: still the
    #               last leader seen)                           6: 0 (change)
    q = measures(scores, [2, 5])
    assert q == Quality(
        run1_turn=2, run2_turn=5,
        lead_changes=2,
        decided_turn=6,  # seat 0 leads only at the end of turn 6
        deficit_run1=7 - 5, deficit_run2=12 - 9,
        drama=3,  # seat 0's deficits: -5, 2, 0, 0, 3, -2
        margin=14 - 12, winners=1, win_by=WIN_BY_POINTS, winner=0)


def test_a_comeback_from_behind_at_the_end_of_run_1():
    scores = [[0, 4], [0, 8], [10, 8], [10, 11], [18, 11]]  # run 1 ends in turn 2, run 2 in 4
    q = measures(scores, [2, 4])
    assert q.deficit_run1 == 8  # behind by 8 when the first run through the deck ended
    assert q.deficit_run2 == 1  # and still behind by 1 at the second
    assert q.drama == 8  # the largest of 4, 8, -2, 1, -7
    assert q.lead_changes == 3  # leaders 1, 1, 0, 1, 0
    assert q.decided_turn == 5 and q.margin == 7 and q.winner == 0


def test_simsym_log_says_how_a_game_played():
    q = measures([[0, 4], [0, 8], [10, 8], [10, 11], [18, 11]], [2, 4])  # the comeback above
    assert describe(q, 5) == (
        "# how it played: seat 0 won by 7 points; 3 lead changes; decided at the end of turn "
        "5 of 5; the winner was behind by 8 at the end of run 1, 1 at the end of run 2; its "
        "largest deficit (drama) 8")
    shared = measures([[2, 0], [2, 3], [5, 5]], [1, -1])
    assert describe(shared, 3) == (
        "# how it played: 2 seats shared the win; 1 lead change; decided at the end of turn "
        "3 of 3; its largest deficit (drama) 1")


def test_a_game_decided_at_turn_1():
    scores = [[3, 0, 0], [3, 2, 0], [6, 2, 5]]
    q = measures(scores, [-1, -1])  # the game ended before a run did (say, a turn cap)
    assert q.decided_turn == 1 and q.lead_changes == 0
    assert q.drama == 0  # never behind: deficits -3, -1, -1 floored at 0
    assert (q.deficit_run1, q.deficit_run2) == (0, 0)  # no run ended: 0 by definition
    assert q.margin == 1 and q.winners == 1 and q.win_by == WIN_BY_POINTS


def test_a_tie_at_the_top_breaks_the_winners_run_of_leads():
    # seat 0 leads at 1, is tied at 2 (no leader), leads again from 3 on
    q = measures([[3, 0], [3, 3], [5, 3], [8, 3]], [-1, -1])
    assert q.decided_turn == 3 and q.lead_changes == 0 and q.drama == 0


def test_a_shared_win_has_no_tie_break():
    """Ruling 22: seats tied at the top share the win; nothing breaks the tie. The game is
    then decided at its last turn, the margin is 0 and the measures of "the winner" are the
    lowest tied seat's."""
    scores = [[2, 0, 0, 0], [2, 5, 0, 0], [6, 5, 0, 6]]
    q = measures(scores, [1, 3])
    assert q == Quality(
        run1_turn=1, run2_turn=3, lead_changes=1,  # leaders 0, 1, none
        decided_turn=3, deficit_run1=-2, deficit_run2=0,
        drama=3,  # seat 0's deficits: -2, 3, 0
        margin=0, winners=2, win_by=WIN_BY_SHARED, winner=0)


def test_the_lead_taken_on_points_at_the_last_turn_is_a_win_on_points():
    """The top tied until the last turn's Symposion: the winner is decided on points there."""
    q = measures([[4, 4], [4, 4], [4, 9]], [-1, -1])
    assert (q.winner, q.winners, q.win_by, q.margin) == (1, 1, WIN_BY_POINTS, 5)
    assert q.decided_turn == 3 and q.lead_changes == 0 and q.drama == 0


def test_a_game_of_no_turns_is_three_way_shared_on_its_starting_scores():
    q = measures([], [-1, -1], final=[4, 4, 4])
    assert (q.decided_turn, q.winners, q.winner, q.margin, q.drama) == (0, 3, 0, 0, 0)


def test_run_end_turns():
    assert run_end_turns([0, 0, 1, 1, 2, 2, 3]) == [3, 5]
    assert run_end_turns([1, 1, 1]) == [1, -1]  # run 1 ended in the deal: turn 1
    assert run_end_turns([0, 2]) == [2, 2]  # two runs in one turn (a tiny deck)
    assert run_end_turns([]) == [-1, -1]


# --- an engine game against its event log -----------------------------------------------------

def timeline(events, start):
    """(scores at each end of turn, runs ended at each end of turn, final scores) from a log:
    a turn ends where the next TURN or the END is logged."""
    scores, runs, ends, run_at, in_turn = list(start), 0, [], [], False
    for code, a, b, _, _ in events.tolist():
        if code in (E.EV.TURN, E.EV.END):
            if in_turn:
                ends.append(list(scores))
                run_at.append(runs)
            in_turn = code == E.EV.TURN
        elif code == E.EV.SCORE:
            scores[a] += b
        elif code == E.EV.RUN_END:
            runs = a
    return ends, run_at, scores


def by_hand(ends, run_at, final):
    """The row's quality fields, computed directly (a second statement of the definitions)."""
    P = len(final)
    top = max(final)
    w = final.index(top)
    k = final.count(top)

    def lead(s):
        return s.index(max(s)) if s.count(max(s)) == 1 else None

    def behind(s):
        return max(s[:w] + s[w + 1:]) - s[w]

    seen = [lead(s) for s in ends if lead(s) is not None]
    changes = sum(1 for x, y in zip(seen, seen[1:]) if x != y)
    T = len(ends)
    decided = T
    if k == 1:
        while decided > 1 and lead(ends[decided - 2]) == w:
            decided -= 1
    runs = [next((t + 1 for t in range(T) if run_at[t] >= r), -1) for r in (1, 2)]
    others = sorted(final[:w] + final[w + 1:])
    return {E.ROW.TURNS: T, E.ROW.RUN1: runs[0], E.ROW.RUN2: runs[1], E.ROW.CHANGES: changes,
            E.ROW.DECIDED: decided,
            E.ROW.DEF1: behind(ends[runs[0] - 1]) if runs[0] > 0 else 0,
            E.ROW.DEF2: behind(ends[runs[1] - 1]) if runs[1] > 0 else 0,
            E.ROW.DRAMA: max([0] + [behind(s) for s in ends]),
            E.ROW.MARGIN: top - others[-1] if k == 1 else 0, E.ROW.WINNERS: k,
            E.ROW.WIN_BY: E.WIN_BY.POINTS if k == 1 else E.WIN_BY.SHARED, E.ROW.WINNER: w,
            **{E.ROW.FIXED + i: final[i] for i in range(P)}}


@pytest.mark.parametrize("comp", [None, (0, 2, 6, 8)])
def test_engine_games_match_their_event_logs(comp):
    sc = load_scenario(BASE_SCENARIO).judge("fast")
    if comp:  # starting points count at every end of turn
        sc = replace(sc, rules=replace(sc.rules, seat_compensation=comp))
    setup = setup_for(sc)
    seen = {"change": 0, "run2": 0, "behind": 0, "shared": 0, "early": 0}
    for g in range(40):
        events, row, _ = play_logged(setup, g)
        ends, run_at, final = timeline(events, comp or [0] * sc.players)
        want = by_hand(ends, run_at, final)
        assert {f: int(row[f]) for f in want} == want, g
        seen["change"] += row[E.ROW.CHANGES] > 0
        seen["run2"] += row[E.ROW.RUN2] > 0
        seen["behind"] += row[E.ROW.DEF1] > 0
        seen["shared"] += row[E.ROW.WINNERS] > 1
        seen["early"] += row[E.ROW.DECIDED] < row[E.ROW.TURNS]
    # the games exercised every measure
    assert all(seen.values()), seen


# --- per-table totals and the tidy table --------------------------------------------------------

def rows_of(fields):
    """Rows of 2 seats from dicts of ROW fields."""
    rows = np.zeros((len(fields), E.ROW.FIXED + 6 * 2), np.int64)
    for r, f in zip(rows, fields):
        for name, v in f.items():
            r[getattr(E.ROW, name)] = v
    return rows


GAMES = [
    dict(TURNS=20, RUN1=8, RUN2=15, CHANGES=2, DECIDED=15, DEF1=3, DEF2=-1, DRAMA=3,
         MARGIN=4, WINNERS=1, WIN_BY=0),
    dict(TURNS=30, RUN1=10, RUN2=-1, CHANGES=0, DECIDED=1, DEF1=-5, DEF2=0, DRAMA=0,
         MARGIN=12, WINNERS=1, WIN_BY=0),
    dict(TURNS=25, RUN1=9, RUN2=18, CHANGES=13, DECIDED=25, DEF1=0, DEF2=2, DRAMA=6,
         MARGIN=0, WINNERS=2, WIN_BY=1),
]


def test_quality_totals_by_hand_and_in_any_chunking():
    rows = rows_of(GAMES)
    t = quality_totals(rows)
    assert t["q_turns"].tolist() == [75, 400 + 900 + 625]
    assert t["q_changes"].tolist() == [15, 4 + 0 + 169]
    assert t["q_changes_hist"].tolist() == [1, 0, 1] + [0] * 7 + [1]  # 13 in "10 or more"
    # decided/turns: 15/20 = 750, 1/30 = 33 (in thousandths, rounded down), 25/25 = 1000
    assert t["q_decided_permille"].tolist() == [1783, 750 ** 2 + 33 ** 2 + 1000 ** 2]
    assert t["q_decided_tenths_hist"].tolist() == [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1]
    # run 1 ended in all three, the winner behind in the first; run 2 in two, behind in one
    assert t["q_run_end"].tolist() == [[3, 1, -2, 9 + 25 + 0, 27], [2, 1, 1, 1 + 4, 33]]
    assert t["q_drama"].tolist() == [9, 9 + 36, 2]
    assert t["q_margin"].tolist() == [16, 16 + 144]
    assert t["q_margin_hist"].tolist() == [1, 0, 0, 0, 1] + [0] * 5 + [1]
    assert t["q_winners_hist"].tolist() == [0, 2, 1, 0, 0, 0, 0]
    assert t["q_win_by"].tolist() == [2, 1]
    # chunks merge to the same totals
    parts = merge(quality_totals(rows[:1]), quality_totals(rows[1:]))
    assert all((parts[k] == t[k]).all() for k in t)


def test_the_quality_block_and_its_table():
    totals = {"games": np.array([3], np.int64), **quality_totals(rows_of(GAMES))}
    block = quality_block(totals)
    assert block["run_end"][1] == {"run": 2, "games": 2, "winner_behind": 1, "deficit_sum": 1,
                                   "deficit_sum_sq": 5, "turn_sum": 33}
    assert block["win_by"] == {"points": 2, "shared": 1}
    df = quality_frame(block).set_index("measure")
    assert list(df.columns) == ["estimate", "low", "high", "unit"]
    assert df.loc["turns", "estimate"] == 25
    # turns 20, 30, 25: sample variance ((-5)^2 + 5^2 + 0) / 2 = 25, standard error 5 / sqrt(3)
    half = 1.959963984540054 * 5 / 3 ** 0.5
    assert df.loc["turns", "low"] == pytest.approx(25 - half)
    assert df.loc["turns", "high"] == pytest.approx(25 + half)
    assert df.loc["turns", "unit"] == "turns"
    assert df.loc["decided turn / turns", "estimate"] == pytest.approx(1783 / 3000)
    assert df.loc["shared win", "estimate"] == pytest.approx(1 / 3)
    assert df.loc["winner behind at the end of run 2", "estimate"] == pytest.approx(0.5)
    assert df.loc["decided in the first half", "estimate"] == pytest.approx(1 / 3)
    assert df.loc["winning margin", "estimate"] == pytest.approx(16 / 3)


def test_intervals_by_hand():
    # three values 23, 26, 26: mean 25, sample variance (4 + 1 + 1) / 2 = 3, standard error 1
    block = {"games": 3, "turns": {"sum": 75, "sum_sq": 529 + 676 + 676},
             "lead_changes": {"sum": 0, "sum_sq": 0}, "decided_permille": {"sum": 0, "sum_sq": 0},
             "decided_tenths_hist": [3] + [0] * 10, "run_end": [],
             "drama": {"sum": 0, "sum_sq": 0, "positive": 0}, "margin": {"sum": 0, "sum_sq": 0},
             "win_by": {"points": 3, "shared": 0}}
    row = quality_frame(block).set_index("measure").loc["turns"]
    assert (row["low"], row["high"]) == (pytest.approx(25 - 1.959964), pytest.approx(25 + 1.959964))
    # Wilson, 8 of 10: the textbook 0.4902 .. 0.9433
    p, lo, hi = wilson_interval(8, 10)
    assert p == 0.8 and round(lo, 4) == 0.4902 and round(hi, 4) == 0.9433
    # every game or none: the interval reaches the estimate (1 and 0 exactly)
    assert wilson_interval(20, 20)[2] == 1.0 and wilson_interval(0, 20)[1] == 0.0
    # 0 of 0: no estimate
    assert all(pd.isna(x) for x in wilson_interval(0, 0))
