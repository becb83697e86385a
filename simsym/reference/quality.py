"""The game-quality measures of one game, from its scores at the end of every turn.

The plain statement of docs/game-engine.md section 8 ("Game quality"): the reference engine
reports a game through :func:`measures`, and the numba engine keeps the same measures
incrementally (simsym.core.game_nb._quality_turn_end and _record_quality), game for game.

Turns count from 1: ``turn_scores[t - 1]`` is every seat's score at the end of turn ``t``.
"""

from __future__ import annotations

from dataclasses import dataclass

# How a win was decided (as simsym.core.enums.WIN_BY; the reference imports nothing of the core)
WIN_BY_POINTS = 0  # one seat has the top score
WIN_BY_SHARED = 1  # several seats share the top score, and the win (ruling 22: no tie-break)


@dataclass(frozen=True)
class Quality:
    run1_turn: int  # the turn in which run 1 through the deck ended, -1 if the game ended first
    run2_turn: int  # ... run 2
    lead_changes: int
    decided_turn: int  # the first turn from whose end on the winner leads at every end of turn
    deficit_run1: int  # the winner's deficit at the end of turn run1_turn (0 if it is -1)
    deficit_run2: int  # ... run2_turn
    drama: int  # the winner's largest deficit at any end of turn, at least 0
    margin: int  # the winner's score minus the best other seat's (0 for a shared win)
    winners: int  # seats with the top score
    win_by: int  # WIN_BY_POINTS or WIN_BY_SHARED
    winner: int  # the winner's seat; for a shared win, the lowest of the tied seats


def leader(scores) -> int | None:
    """The one seat with the strictly highest score; None when the top is tied."""
    top = max(scores)
    at_top = [i for i, x in enumerate(scores) if x == top]
    return at_top[0] if len(at_top) == 1 else None


def deficit(scores, seat: int) -> int:
    """The best other seat's score minus the seat's (negative when the seat is ahead)."""
    return max(x for i, x in enumerate(scores) if i != seat) - scores[seat]


def run_end_turns(runs_by_turn, runs: int = 2) -> list[int]:
    """For run r = 1 .. runs, the first turn at whose end at least r runs had ended (-1 for
    none): the turn in which the run ended, or turn 1 for a run that ended during the deal.
    ``runs_by_turn[t - 1]``: the runs ended at the end of turn t."""
    out = []
    for r in range(1, runs + 1):
        out.append(next((t for t, n in enumerate(runs_by_turn, start=1) if n >= r), -1))
    return out


def measures(turn_scores, run_turns, final=None) -> Quality:
    """The measures of a game whose scores at the end of turn t are ``turn_scores[t - 1]``,
    whose runs 1 and 2 ended in the turns ``run_turns`` (-1: not ended) and whose final
    scores are ``final`` (by default those of its last turn; a game of no turns needs them).
    """
    final = list(turn_scores[-1] if final is None else final)
    T = len(turn_scores)
    top = max(final)
    tied = [i for i, x in enumerate(final) if x == top]
    winner = tied[0]
    shared = len(tied) > 1

    # Lead changes: a leader different from the last leader seen; a turn without a leader
    # neither counts nor forgets the last one.
    changes = 0
    last = None
    leaders = [leader(s) for s in turn_scores]
    for now in leaders:
        if now is None:
            continue
        if last is not None and now != last:
            changes += 1
        last = now

    # Decided: the first turn t with the winner the leader at the end of t and of every later
    # turn. A shared win has no such turn: it is decided at the last turn (T).
    if shared or T == 0:
        decided = T
    else:
        decided = min(t for t in range(1, T + 1)
                      if all(leaders[u - 1] == winner for u in range(t, T + 1)))

    def deficit_at(turn):
        return deficit(turn_scores[turn - 1], winner) if turn >= 1 else 0

    run1, run2 = run_turns
    return Quality(
        run1_turn=run1,
        run2_turn=run2,
        lead_changes=changes,
        decided_turn=decided,
        deficit_run1=deficit_at(run1),
        deficit_run2=deficit_at(run2),
        drama=max([0] + [deficit(s, winner) for s in turn_scores]),
        margin=0 if shared else top - max(x for i, x in enumerate(final) if i != winner),
        winners=len(tied),
        win_by=WIN_BY_SHARED if shared else WIN_BY_POINTS,
        winner=winner,
    )


def describe(q: Quality, turns: int) -> str:
    """How one game played, in words (``simsym log``'s last line)."""
    if q.win_by == WIN_BY_SHARED:
        won = f"{q.winners} seats shared the win"
    else:
        won = f"seat {q.winner} won by {q.margin} point{'s' if q.margin != 1 else ''}"
    behind = [f"{d} at the end of run {r}" for r, (t, d) in
              enumerate(((q.run1_turn, q.deficit_run1), (q.run2_turn, q.deficit_run2)), 1)
              if t >= 0 and d > 0]
    trail = (f"the winner was behind by {', '.join(behind)}; " if behind else "") + \
        f"its largest deficit (drama) {q.drama}"
    return (f"# how it played: {won}; {q.lead_changes} lead change"
            f"{'s' if q.lead_changes != 1 else ''}; decided at the end of turn "
            f"{q.decided_turn} of {turns}; {trail}")
