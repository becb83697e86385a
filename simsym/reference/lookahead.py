"""The `lookahead` player of the reference engine: determinized rollouts (spec §6.6).

A lookahead seat decides four choices (Symposiarch discards, accepting a trade, the Symposion,
Komos discards) by a one-level search over determinizations: the cards it cannot see are dealt
at random in a way consistent with what it knows, each candidate is played out to the end of the
game with a fast policy, and the candidate with the best total value over the *same* deals
(common random numbers) wins, the budget being spread by successive halving. Everything else
it does as greedy.

This is the readable statement of the procedure; the numba engine must make the same decisions,
game for game. Each public function takes the reference ``Game`` at the decision point and
returns the decision in the form the game expects.
"""

from __future__ import annotations

import copy
import math
from collections import Counter

from simsym.reference.hands import ALL_TYPES, NONE, keep_values, multiset_minus
from simsym.reference.rng import MASK64, Stream, mix64

# Decision kinds, in the order of a turn.
SYMPOSIARCH, TRADE, SYMPOSION, KOMOS = range(4)
ROLLOUT_SALT = 0x100C
WIN_UNITS = 60  # a whole win; 60 / k for k tied winners
MARGIN_LO, MARGIN_HI = -512, 511
WIN_WEIGHT = 1024


# --- candidate generators (spec §6.6, the table) ---------------------------------------------

def _unique(cands, limit, key):
    out, seen = [], set()
    for c in cands:
        k = key(c)
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out[:limit]


def _as_set(kinds):
    return tuple(sorted(kinds))


def symposiarch(game, s, greedy_choice, m):
    """Discards: greedy's choice, then the prefixes L[:j] of rest(hand) in discard order."""
    rest = game.rest(s, game.hands[s])
    cands = [list(greedy_choice)] + [rest[:j] for j in range(min(m, len(rest)) + 1)]
    cands = _unique(cands, game.cfg[s].get("candidates"), _as_set)
    return decide(game, s, SYMPOSIARCH, cands)


def accept(game, s, answer, giver, offer, w):
    """Asked by ``giver`` for ``w`` against ``offer``: greedy's answer, then the other."""
    return decide(game, s, TRADE, [answer, not answer], (giver, offer, w))


def symposion(game, s, greedy_play):
    """greedy's play, pass, the best of each legal type, and a play holding back the card of
    greedy's play with the highest keep value (ties: the highest kind)."""
    hand = game.hands[s]
    cands = [greedy_play, NONE]
    for t in ALL_TYPES:
        p = game.best(hand, (t,))
        if p.legal:
            cands.append(p)
    keep = game.keep[s]
    v = max(greedy_play.kinds, key=lambda k: (keep[k], k))
    held = list(hand)
    held.remove(v)
    p = game.best(held)
    if p.legal:
        cands.append(p)
    cands = _unique(cands, game.cfg[s].get("candidates"), lambda p: (p.type, p.kinds))
    return decide(game, s, SYMPOSION, cands)


def komos(game, s, order, n):
    """Windows D[j:j+n] of D = rest(hand) then B(hand), both in discard order (j=0: greedy)."""
    cands = [order[j:j + n] for j in range(len(order) - n + 1)]
    cands = _unique(cands, game.cfg[s].get("candidates"), _as_set)
    return decide(game, s, KOMOS, cands)


# --- the search -------------------------------------------------------------------------------

def decide(game, s, kind, cands, offer=None):
    """Successive halving over ``cands`` with common random numbers; the winning candidate.
    A learned seat (spec §6.7) instead plays the candidate its model scores highest."""
    if len(cands) == 1:
        return cands[0]
    if game.cfg[s].family == "learned":
        return cands[learned_choice(game, s, kind, cands, offer)]
    d = game.decisions[s]
    game.decisions[s] += 1
    iterations = game.cfg[s].get("iterations")
    rounds = math.ceil(math.log2(len(cands)))
    per_round = max(1, iterations // rounds)
    total = [0] * len(cands)
    alive = list(range(len(cands)))
    i0 = 0
    while len(alive) > 1:
        m = max(1, per_round // len(alive))
        for i in range(i0, i0 + m):
            for c in alive:
                total[c] += rollout_value(game, s, kind, cands[c], d, i, offer)
        i0 += m
        alive.sort(key=lambda c: (-total[c], c))
        alive = alive[:(len(alive) + 1) // 2]
    return cands[alive[0]]


def learned_features(game, s, kind, cand, offer):
    """The features of one candidate for seat s (simsym.learned.features)."""
    from simsym.learned.features import candidate_features

    hand = list(game.hands[s])
    points = played = given = 0
    is_pass = False
    if kind == TRADE:
        after = hand
        if cand:
            _, offered, w = offer
            after = multiset_minus(hand, [w]) + list(offered)
            given = len(offered)
    elif kind == SYMPOSION:
        if cand.legal:
            after = multiset_minus(hand, cand.kinds)
            points, played = cand.score, len(cand.kinds)
        else:
            after, is_pass = hand, True
    else:
        after = multiset_minus(hand, cand)
        given = len(cand)

    def best_of_type(h, t):
        p = game.best(h, (ALL_TYPES[t],))
        return p.score if p.legal else 0

    return candidate_features(sorted(after), game.kfeat, game.keep[s], best_of_type, points,
                              played, given, is_pass)


def learned_choice(game, s, kind, cands, offer):
    """The index of the candidate seat s's model scores highest (ties: the earlier)."""
    from simsym.learned.features import LAST_PHASE, WEIGHTS, choose, model_score, phase

    w = game.model[s]
    ph = phase(game.runs_ended, game.rules.deck_runs)
    scores = [model_score(w, kind, ph, learned_features(game, s, kind, c, offer))
              for c in cands]
    if kind == SYMPOSION and ph == LAST_PHASE:
        # once draws have stopped a pass only postpones: it is never chosen then
        scores = [x if c.legal else None for x, c in zip(scores, cands)]
    return choose(scores, int(w[WEIGHTS]))


def rollout_stream(game, s, d, i):
    x = mix64((game.sc.seed & MASK64) ^ ROLLOUT_SALT)
    for v in (game.g, game.turn, s, d, i):
        x = mix64(x ^ v)
    return Stream(x)


def rollout_value(game, s, kind, cand, d, i, offer):
    """Play candidate ``cand`` out to the end in determinization ``i``; its value for s."""
    sim = rollout_world(game, s, rollout_stream(game, s, d, i), offer)
    a = game.turn % game.P
    if kind == SYMPOSIARCH:
        sim.symposiarch_phase(a, chosen=list(cand))
        sim.symposion_phase(a)
        sim.komos_phase(a)
    elif kind == TRADE:
        giver, given, w = offer
        if cand:
            sim.swap(giver, s, given, w)
        sim.symposion_phase(a)  # the rest of this turn's trading is skipped (spec §6.6)
        sim.komos_phase(a)
    elif kind == SYMPOSION:
        sim.symposion_phase(a, choice=cand)
        sim.komos_phase(a)
    else:
        sim.to_discard(a, list(cand), 2)
    sim.turn += 1
    sim.run_turns()
    return value(sim.score, s)


def value(score, s):
    top = max(score)
    k = sum(1 for x in score if x == top)
    w = WIN_UNITS // k if score[s] == top else 0
    margin = score[s] - max(x for j, x in enumerate(score) if j != s)
    return WIN_WEIGHT * w + min(MARGIN_HI, max(MARGIN_LO, margin))


def determinize(game, s, stream, offer):
    """Other hands and the pile dealt from the cards s cannot see (spec §6.6 steps 1-3)."""
    unseen = Counter()
    for k, card in enumerate(game.cards):
        unseen[k] = card.copies
    unseen.subtract(game.hands[s])
    unseen.subtract(game.discard)
    giver, given = (offer[0], list(offer[1])) if offer else (None, [])
    unseen.subtract(given)
    U = sorted(unseen.elements())
    stream.shuffle(U)
    pos = 0
    hands = []
    for j in range(game.P):
        if j == s:
            hands.append(list(game.hands[s]))
            continue
        mine = list(given) if j == giver else []
        n = len(game.hands[j]) - len(mine)
        hands.append(mine + U[pos:pos + n])
        pos += n
    return hands, U[pos:]


def rollout_world(game, s, stream, offer):
    """A copy of the game at the decision point, with hidden cards re-dealt, the rollout
    stream as its only randomness and every seat playing the rollout policy."""
    sim = copy.copy(game)
    sim.hands, sim.pile = determinize(game, s, stream, offer)
    sim.rng = stream
    sim.discard = list(game.discard)
    sim.score = list(game.score)
    sim.turn_scores = [list(x) for x in game.turn_scores]
    sim.turn_runs = list(game.turn_runs)
    sim.events = []
    sim.symposia = [0] * game.P
    sim.points_by_type = [[0, 0, 0] for _ in range(game.P)]
    sim.seat_trades = [0] * game.P
    sim.stats = game.stats.copy()
    sim.decisions = [0] * game.P
    policy = game.cfg[s].get("policy")
    sim.cfg = rollout_policy(game.cfg, policy, game.cfg[s])
    if policy == "learned":
        sim.model = [game.rollout_model[s]] * game.P
    sim.custom = [None] * game.P
    sim.keep = [keep_values(game.cards, c) for c in sim.cfg]
    return sim


def rollout_policy(cfgs, policy, searcher=None):
    """Each seat's configuration inside a rollout: greedy with default parameters, (learned)
    the searching seat's learned player, or (own) its own, a lookahead, learned or
    Python-class seat playing greedy with its common parameters."""
    from simsym.model.strategies import greedy_twin, make_strategy, rollout_learner

    if policy == "greedy":
        return [make_strategy("greedy")] * len(cfgs)
    if policy == "learned":
        return [rollout_learner(searcher)] * len(cfgs)
    return [greedy_twin(c) if c.family in ("lookahead", "learned", "python") else c
            for c in cfgs]
