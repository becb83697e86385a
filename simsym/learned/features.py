"""What the `learned` player sees of a candidate action: integer features from the deck's data.

A `learned` seat lists the same candidate actions as a `lookahead` seat (docs/game-engine.md
6.6) and scores each with a linear model over the features below; the candidate with the
highest score is played (ties: the earlier candidate, so a model of zeros plays greedy).

Every feature is an integer computed from what the seat knows and from the cards' data
(points, types, Wine, conditions), never from card names, so a model trained on one deck plays
a deck whose card values changed. A candidate is described by the hand it leaves the seat with
(its *after-hand*) and by what it does now:

* Symposiarch discards: the hand minus the discarded cards (each will be redrawn);
* a trade answer: accepting, the hand minus the card asked for plus the cards offered;
  refusing, the hand;
* the Symposion: the hand minus the play's cards (points scored now: the play's score); a pass
  keeps the hand;
* Komos discards: the hand minus the discarded cards.

A candidate other than the first (greedy's own choice) is played only when it scores more than
the model's *least gain* above the first: where the model cannot tell the candidates apart, the
seat plays as greedy does. Once draws have stopped, the Symposion's pass is never chosen: the
hand can no longer improve from the pile, so a pass only postpones, and a table of learned
seats that all postponed would never end.

The weights differ by the decision (the four of 6.6) and by the phase of the game (deck runs
ended: 0, 1, 2 or more, and "draws have stopped"), so that one feature may count for more late
in the game than early. The reference engine computes the same integers here in plain Python;
the numba engine in simsym.core.lookahead_nb (tests/engines/test_learned.py checks they agree).
"""

from __future__ import annotations

import numpy as np

# Per kind of card (deck data; the keep value comes from the seat's strategy table instead).
KIND_FEATURES = ("wine", "non_container_wine", "woman", "intellectual", "hedonistic",
                 "either", "vintage", "conditional")
(KF_WINE, KF_NCWINE, KF_WOMAN, KF_I, KF_H, KF_E, KF_VINTAGE, KF_COND) = range(len(KIND_FEATURES))
NKF = len(KIND_FEATURES)

# Per candidate action. The docs of each (docs/strategies.md, "The learned player") follow
# this order.
FEATURES = (
    "points_now",  # points the action scores now (a Symposion's score; 0 otherwise)
    "cards_played",  # cards the action plays now
    "cards_given",  # cards discarded (Symposiarch: redrawn next) or given in a trade
    "hand_size",  # cards of the after-hand
    "best_intellectual",  # best Intellectual Symposion of the after-hand (0: none)
    "best_social",
    "best_hedonistic",
    "best_any",  # the highest of the three
    "keep_sum",  # the seat's keep values (docs 6.1) summed over the after-hand
    "wine_sum",  # the most printed Wine each card may give, summed
    "non_container_wine",  # the same over non-Container cards
    "women",  # Woman cards (WC) and may-be-Woman cards (MW)
    "intellectual_sum",  # the most Intellectual points each card may give, summed
    "hedonistic_sum",
    "either_sum",
    "vintage",  # Vintage cards
    "conditional",  # cards with a condition (Requires 3+ WC, 7+ Wine Points)
    "pass",  # 1 for the Symposion candidate that plays nothing
)
(F_POINTS, F_PLAYED, F_GIVEN, F_HAND, F_BI, F_BS, F_BH, F_BEST, F_KEEP, F_WINE, F_NCWINE,
 F_WOMEN, F_I, F_H, F_E, F_VINTAGE, F_COND, F_PASS) = range(len(FEATURES))
NF = len(FEATURES)

DECISIONS = ("symposiarch", "trade", "symposion", "komos")  # as lookahead's decision kinds
PHASES = ("no run ended", "one run ended", "two or more runs ended", "draws stopped")
NPHASE = len(PHASES)
LAST_PHASE = NPHASE - 1
WEIGHTS = len(DECISIONS) * NPHASE * NF  # the integer weights of one model
MODEL_SIZE = WEIGHTS + 1  # then its least gain (below)


def phase(runs_ended: int, deck_runs: int) -> int:
    """The phase of the game a decision is made in (an index into PHASES)."""
    if runs_ended >= deck_runs:
        return NPHASE - 1
    return min(runs_ended, NPHASE - 2)


def kind_features(cards) -> np.ndarray:
    """(K, NKF) int64: each kind's data features, in card-file order."""
    out = np.zeros((len(cards), NKF), np.int64)
    for k, c in enumerate(cards):
        wine = max(o.wine for o in c.options)
        out[k, KF_WINE] = wine
        out[k, KF_NCWINE] = 0 if c.container else wine
        out[k, KF_WOMAN] = int(c.woman or c.maybe_woman)
        out[k, KF_I] = max(o.intellectual for o in c.options)
        out[k, KF_H] = max(o.hedonistic for o in c.options)
        out[k, KF_E] = max(o.either for o in c.options)
        out[k, KF_VINTAGE] = int(c.vintage)
        out[k, KF_COND] = int(c.requires_women > 0 or c.requires_wine > 0)
    return out


def candidate_features(after, kf, keep, best_of_type, points, played, given, is_pass):
    """The features of one candidate (a list of NF ints): ``after`` the after-hand (kinds),
    ``kf`` kind_features, ``keep`` the seat's keep values, ``best_of_type(hand, t)`` the best
    score of a Symposion of type t (0 intellectual, 1 social, 2 hedonistic; 0 when none)."""
    f = [0] * NF
    f[F_POINTS] = points
    f[F_PLAYED] = played
    f[F_GIVEN] = given
    f[F_HAND] = len(after)
    f[F_BI] = best_of_type(after, 0)
    f[F_BS] = best_of_type(after, 1)
    f[F_BH] = best_of_type(after, 2)
    f[F_BEST] = max(f[F_BI], f[F_BS], f[F_BH])
    for k in after:
        f[F_KEEP] += int(keep[k])
        f[F_WINE] += int(kf[k, KF_WINE])
        f[F_NCWINE] += int(kf[k, KF_NCWINE])
        f[F_WOMEN] += int(kf[k, KF_WOMAN])
        f[F_I] += int(kf[k, KF_I])
        f[F_H] += int(kf[k, KF_H])
        f[F_E] += int(kf[k, KF_E])
        f[F_VINTAGE] += int(kf[k, KF_VINTAGE])
        f[F_COND] += int(kf[k, KF_COND])
    f[F_PASS] = int(is_pass)
    return f


def model_score(weights, decision: int, ph: int, f) -> int:
    """A candidate's score under a model: the weights of (decision, phase) dotted with its
    features, in integers (exact in both engines)."""
    base = (decision * NPHASE + ph) * NF
    return sum(int(weights[base + j]) * int(f[j]) for j in range(NF))


def choose(scores, least_gain: int = 0) -> int:
    """The candidate a learned seat plays: greedy's (the first) unless another scores more
    than ``least_gain`` above it; then the highest, ties to the earlier. The least gain keeps
    the model's noise (a difference it cannot tell from zero) from overruling greedy. A score
    of None is a candidate that may not be chosen (the first always may)."""
    best, top = 0, scores[0] + least_gain
    for c in range(1, len(scores)):
        if scores[c] is not None and scores[c] > top:
            best, top = c, scores[c]
    return best
