"""The reference game engine: one game of Symposion, in plain Python, as docs/game-engine.md says.

This module is the readable, executable statement of the game: the contract is the document
(docs/game-engine.md, cited below as "spec §n"), the rules are docs/symposion-rules.txt and
the product's rulings are docs/rulings.md (`simsym options --rulings`, cited as "ruling n").
It is slow on purpose and written for reading; the numba engine (simsym/core/game_nb.py)
must produce the same event log, game for game. Nothing here imports simsym.core: the
reference must stay an independent check.

Where the document can be read more than one way, a comment marked ``AMBIGUITY`` quotes the
sentence and says which reading is implemented (the most literal one).

Hands are multisets of kind codes (spec: "every decision below is a function of the multiset").
They are stored here as plain lists; every decision sorts first.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from simsym.errors import SimsymError
from simsym.learned.features import kind_features
from simsym.model.custom import PlayerView, load_class
from simsym.reference import lookahead
from simsym.reference.quality import Quality, measures, run_end_turns
from simsym.reference.hands import (
    ALL_TYPES,
    NONE,
    Best,
    _positions_of,
    brute_force_oracle,
    discard_order,
    keep_values,
    multiset_minus,
)
from simsym.reference.rng import game_stream, seating_stream

Event = tuple[int, int, int, int, int]  # (code, a, b, c, d), spec §7

SEARCHED = ("lookahead", "learned")  # as simsym.model.strategies.SEARCHED (spec 6.6, 6.7)

# --- spec §7: event codes ------------------------------------------------------------------
TURN, DRAW, RUN_END, DISCARD, TRADE, PLAY, PLAYCARD, JOIN, SCORE, END = range(1, 11)
EVENT_NAMES = {TURN: "TURN", DRAW: "DRAW", RUN_END: "RUN_END", DISCARD: "DISCARD",
               TRADE: "TRADE", PLAY: "PLAY", PLAYCARD: "PLAYCARD", JOIN: "JOIN",
               SCORE: "SCORE", END: "END"}
# DRAW sources (spec §4)
SRC_DEAL, SRC_AMPHORAE, SRC_SYMPOSIARCH, SRC_ANDRON = 0, 1, 2, 3
SOURCE_NAMES = ("deal", "amphorae", "symposiarch", "andron")
# DISCARD phases (spec §7)
PH_SYMPOSIARCH, PH_KOMOS = 1, 2

# card_stats columns (the GameRecord docstring)
CS_OPENING, CS_DRAWN, CS_RECEIVED, CS_HELD, CS_PLAYED, CS_POINTS, CS_END, CS_DISCARDED = range(8)
CS_SIZE = 8


# =============================================================================================
# spec §2: seating
# =============================================================================================

def seating(scenario, g: int) -> tuple[int, list[int]]:
    """(deal index d, per seat the index into scenario.strategies) of game g."""
    P = scenario.players
    L = len(scenario.strategies)

    def b(i):  # the base assignment of seat i: L[i mod len(L)] (as an index into L)
        return i % L

    if scenario.seating == "mirror":
        return g, [0] * P
    if scenario.seating == "rotate":
        r = g % P
        return g // P, [b((i + r) % P) for i in range(P)]
    if scenario.seating == "random":
        perm = [b(i) for i in range(P)]
        seating_stream(scenario.seed, g).shuffle(perm)
        return g, perm
    raise ValueError(f"unknown seating {scenario.seating!r}")


# =============================================================================================
# What a game reports (spec §8)
# =============================================================================================

@dataclass
class GameRecord:
    game: int  # game index g
    deal: int  # deal index d (spec §2)
    seat_strategy: list[int]  # per seat, index into scenario.strategies
    scores: list[int]
    turns: int
    stalled: bool
    events: list[Event]
    symposia: list[int]  # per seat
    points_by_type: list[list[int]]  # per seat, [intellectual, social, hedonistic] points
    trades: int  # swaps made in the game (a TRADE with d == -1 belongs to the previous swap)
    # (P, K, 8) int64 per seat and kind: 0 opening (count in the dealt hand), 1 drawn later
    # (draws after the deal, any source), 2 received by trade, 3 held at any time (0/1),
    # 4 played (PLAYCARD and JOIN), 5 points of the Symposia it was played in (each card of a
    # play credited the play's whole score), 6 held at game end, 7 discarded unplayed (DISCARD
    # events: Symposiarch and Komos discards; cards given in trades are not discards)
    card_stats: np.ndarray
    win_shares: list[Fraction]  # per seat, 1/k for each of k tied top scorers, else 0
    # Beyond the agreed API (for conservation checks and spec §8's per-seat trades):
    seat_trades: list[int] = field(default_factory=list)  # swaps the seat took part in
    runs_ended: int = 0
    final_hands: list[list[int]] = field(default_factory=list)  # sorted, per seat
    final_pile: list[int] = field(default_factory=list)  # bottom first, top last
    final_discard: list[int] = field(default_factory=list)  # in pile order
    quality: Quality | None = None  # the game-quality measures (spec §8, reference.quality)


# =============================================================================================
# The game
# =============================================================================================

class Game:
    """One game: the state of spec §3 and the turn of spec §5, with the strategies of §6."""

    def __init__(self, scenario, g: int, search=None):
        self.sc = scenario
        self.cards = scenario.cards
        self.rules = scenario.rules
        self.P = scenario.players
        self.K = len(self.cards)
        self.g = g
        self.search = search or brute_force_oracle(scenario.cards, scenario.rules)
        # spec §2: seating and the game stream
        self.deal_index, self.seat_strategy = seating(scenario, g)
        self.cfg = [scenario.strategies[i] for i in self.seat_strategy]
        self.rng = game_stream(scenario.seed, self.deal_index)
        # spec §6.1: keep values, once per game per seat
        self.keep = [keep_values(self.cards, c) for c in self.cfg]
        # Strategies written as Python classes (family "python"), one instance a seat.
        self.custom = [make_custom(c) if c.family == "python" else None for c in self.cfg]
        # spec §6.7: a learned seat's model, and the cards' data its features read
        from simsym.model.strategies import model_weights

        self.model = [model_weights(c) if c.family == "learned" else None for c in self.cfg]
        # and the model a lookahead seat's rollouts play under policy learned
        self.rollout_model = [model_weights(c) if c.family == "lookahead"
                              and c.get("policy") == "learned" else None for c in self.cfg]
        self.kfeat = kind_features(self.cards)
        # spec §3 state
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(self.P)]
        self.runs_ended = 0
        self.turn = 0
        comp = self.rules.seat_compensation
        self.score = [comp[i] if comp else 0 for i in range(self.P)]
        self.events: list[Event] = []
        self.stalled = False
        # spec §8, game quality: every seat's score and the runs ended at the end of each turn
        self.turn_scores: list[list[int]] = []
        self.turn_runs: list[int] = []
        # report counters
        self.symposia = [0] * self.P
        self.points_by_type = [[0, 0, 0] for _ in range(self.P)]
        self.trades = 0
        self.seat_trades = [0] * self.P
        self.decisions = [0] * self.P  # spec §6.6: searched decisions this turn, per seat
        self.stats = np.zeros((self.P, self.K, CS_SIZE), dtype=np.int64)

    # --- plumbing ----------------------------------------------------------------------------

    def log(self, code, a=0, b=0, c=0, d=0):
        self.events.append((code, a, b, c, d))

    def best(self, hand, types=ALL_TYPES, required_kinds=()) -> Best:
        """best(cards, types, required) of spec §5; required given as a multiset of kinds."""
        hs = sorted(hand)
        req = _positions_of(tuple(hs), sorted(required_kinds))
        score, type_, kinds = self.search(hs, tuple(types), tuple(req))
        if type_ is None:
            return NONE
        return Best(int(score), type_, tuple(sorted(int(k) for k in kinds)))

    def own_best(self, seat, hand) -> Best:
        """The strategy's own best play B (spec §6.1): all types, or [favours] for a
        specialist."""
        cfg = self.cfg[seat]
        if cfg.family == "specialist":
            return self.best(hand, (cfg.get("favours"),))
        return self.best(hand, ALL_TYPES)

    def rest(self, seat, hand) -> list[int]:
        """rest(hand) = hand - B(hand), in discard order."""
        return discard_order(multiset_minus(hand, self.own_best(seat, hand).kinds),
                             self.keep[seat])

    def received(self, seat, kind, column):
        self.stats[seat, kind, column] += 1
        self.stats[seat, kind, CS_HELD] = 1

    def to_discard(self, seat, kinds, phase):
        """Several cards put on the discard pile by one action go in sorted order (spec §4).

        AMBIGUITY: spec §8 "discarded unplayed (count, Symposiarch or Komos discards and cards
        given in trades are not counted as discards)" is read as: Symposiarch and Komos
        discards count, cards given in trades do not (the count of DISCARD events)."""
        for k in sorted(kinds):
            self.hands[seat].remove(k)
            self.discard.append(k)
            self.log(DISCARD, seat, k, phase)
            self.stats[seat, k, CS_DISCARDED] += 1

    # --- spec §4: drawing --------------------------------------------------------------------

    def draw(self) -> int | None:
        """The next card of the draw pile, ending a run (and reshuffling) when it is empty."""
        if not self.pile:
            if not self.discard:
                return None  # ruling 6: both piles empty, a no-op; no run ends
            if self.runs_ended == self.rules.deck_runs:
                return None  # draws have stopped (ruling 4)
            self.runs_ended += 1  # ruling 4: a run ends
            if self.runs_ended == self.rules.deck_runs:
                self.log(RUN_END, self.runs_ended, 0)
                return None  # after the last run nothing is reshuffled
            self.pile = self.discard  # the discard in its own order, then shuffled
            self.discard = []
            self.rng.shuffle(self.pile)
            self.log(RUN_END, self.runs_ended, len(self.pile))
        return self.pile.pop()  # the top of the pile is its last element

    def draw_to_hand(self, seat, source) -> int | None:
        """A draw into seat's hand, logged DRAW(seat, kind, source) when it succeeds."""
        c = self.draw()
        if c is None:
            return None
        self.log(DRAW, seat, c, source)
        self.hands[seat].append(c)
        self.received(seat, c, CS_OPENING if source == SRC_DEAL else CS_DRAWN)
        return c

    # --- spec §3: setup ----------------------------------------------------------------------

    def setup(self):
        # 1. The pile in card-file order, shuffled; its top is its last element.
        self.pile = [k for k, card in enumerate(self.cards) for _ in range(card.copies)]
        self.rng.shuffle(self.pile)
        # 2. discard, runs_ended, turn, scores: set in __init__.
        # 3. Deal (ruling 3): hand_size rounds, seats 0..P-1 each draw one card a round.
        for _ in range(self.rules.hand_size):
            for seat in range(self.P):
                self.draw_to_hand(seat, SRC_DEAL)

    # --- spec §5: the game loop --------------------------------------------------------------

    def play(self) -> GameRecord:
        self.setup()
        self.run_turns()
        return self.record()

    def run_turns(self):
        """Turns from the start of turn ``self.turn`` to the end of the game (spec §5)."""
        while True:
            # AMBIGUITY: when turn == turn_cap and the normal end condition also holds, the
            # spec's numbered order ("1. If turn == turn_cap: ... stalled", "2. If runs_ended
            # == deck_runs and ...") is followed: the game is reported stalled.
            if self.turn == self.rules.turn_cap:  # ruling 5: the turn cap
                self.stalled = True
                self.log(END, 1, self.turn)
                break
            if self.runs_ended == self.rules.deck_runs and not any(
                    self.best(h).legal for h in self.hands):  # ruling 5: the game end
                self.log(END, 0, self.turn)
                break
            a = self.turn % self.P
            self.log(TURN, self.turn, a)
            self.decisions = [0] * self.P  # spec §6.6: searched decisions this turn, per seat
            self.amphorae_phase(a)
            self.symposiarch_phase(a)
            self.symposion_phase(a)
            self.komos_phase(a)
            self.turn += 1
            self.turn_scores.append(list(self.score))
            self.turn_runs.append(self.runs_ended)

    # --- phase 1: Amphorae (ruling 7) --------------------------------------------------------

    def amphorae_phase(self, a):
        while len(self.hands[a]) < self.rules.hand_size:
            if self.draw_to_hand(a, SRC_AMPHORAE) is None:
                break

    # --- phase 2: Symposiarch (ruling 8) -----------------------------------------------------

    def symposiarch_phase(self, a, chosen=None):
        # (a) discard up to discard_limit cards, then draw as many (``chosen``: a rollout's
        # candidate, spec §6.6)
        if chosen is None:
            chosen = self.choose_symposiarch_discards(a)
        self.to_discard(a, chosen, PH_SYMPOSIARCH)
        for _ in range(len(chosen)):
            self.draw_to_hand(a, SRC_SYMPOSIARCH)  # a None draw is skipped, the rest tried
        # (b) trading
        if self.rules.trading:
            self.trading(a)

    def choose_symposiarch_discards(self, a) -> list[int]:
        """spec §6.2"""
        cfg = self.cfg[a]
        hand = self.hands[a]
        if self.custom[a]:
            chosen = list(self.custom[a].discards(self.view(a)))
            self.check_cards(a, chosen, "discards", self.rules.discard_limit)
            return chosen
        m = min(cfg.get("discard_max"), self.rules.discard_limit)
        if cfg.family == "random":
            n = self.rng.below(m + 1)
            return self.random_picks(hand, n)
        chosen = []
        for k in self.rest(a, hand)[:m]:
            if self.keep[a][k] >= cfg.get("keep_threshold"):
                break  # stop at the first that is not below the threshold
            chosen.append(k)
        if cfg.family in SEARCHED:
            return lookahead.symposiarch(self, a, chosen, m)
        return chosen

    def random_picks(self, hand, n) -> list[int]:
        """n times: s = sorted(hand), remove s[below(len(s))]; the picks, not yet discarded."""
        left = list(hand)
        picks = []
        for _ in range(n):
            if not left:
                # AMBIGUITY: spec §6.2 (random) says "n times: s = sorted(hand), remove
                # s[below(len(s))]" but n may exceed the hand once draws have stopped, and
                # below(0) is undefined (below needs 1 <= n). Reading: stop when the hand is
                # empty, drawing nothing more from the stream.
                break
            s = sorted(left)
            k = s[self.rng.below(len(s))]
            left.remove(k)
            picks.append(k)
        return picks

    # --- spec §6.5: trading ------------------------------------------------------------------

    def trading(self, a):
        bound = self.rules.max_trades_per_turn
        swaps = 0
        cfg = self.cfg[a]
        if self.custom[a]:
            while swaps < bound and self.custom_trade(a):
                swaps += 1
        # The active seat: attempts until one fails or the bound is reached.
        elif cfg.get("trade") and cfg.family != "random":
            while swaps < bound:
                if not self.trade_attempt(a, excluded={a}):
                    break
                swaps += 1
        # Then the others, one attempt each, in order a+1, a+2, ...
        if self.rules.trade_between_others:
            for step in range(1, self.P):
                if swaps >= bound:
                    break
                j = (a + step) % self.P
                cj = self.cfg[j]
                # AMBIGUITY: "each other seat j ... whose trade and trade_inactive are on makes
                # one attempt" names no family, unlike the active seat's "its family is not
                # random". Literal reading: a random-family seat with trade_inactive on
                # makes attempts here (with its keep values and all-types best play).
                if cj.get("trade") and cj.get("trade_inactive"):
                    if self.trade_attempt(j, excluded={a, j}):
                        swaps += 1

    def trade_attempt(self, i, excluded) -> bool:
        """One attempt by seat i (spec §6.5 steps 1-7); True when a swap was made."""
        H = self.hands[i]
        keep = self.keep[i]
        cfg = self.cfg[i]
        # 1. its own best (score 0 if none; the same for T and T' in accepts())
        S = self.own_best(i, H).score
        # 2. the card it offers
        rest = self.rest(i, H)
        if not rest:
            return False
        x = rest[0]
        # 3. candidates: not held, not all copies in the discard pile
        in_discard = Counter(self.discard)
        candidates = [k for k in sorted(range(self.K), key=lambda k: (-keep[k], k))
                      if k not in H and in_discard[k] < self.cards[k].copies]
        candidates = candidates[:cfg.get("trade_candidates")]
        if not candidates:
            return False
        # 4. the wanted card: the first with the highest S_w
        after_x = multiset_minus(H, [x])
        w_star, s_star = None, None
        for w in candidates:
            s_w = self.own_best(i, after_x + [w]).score
            if s_star is None or s_w > s_star:
                w_star, s_star = w, s_w
        if s_star <= S:
            return False
        # 5. ask the others in order i+1, i+2, ...
        askees = [(i + t) % self.P for t in range(1, self.P)]
        askees = [h for h in askees if h not in excluded]
        for h in askees:
            if self.accepts(h, w_star, [x], i):
                self.swap(i, h, [x], w_star)
                return True
        # 6. an uneven offer {x, x2}
        if self.rules.uneven_trades and len(rest) >= 2:
            x2 = rest[1]
            if self.own_best(i, multiset_minus(H, [x, x2]) + [w_star]).score > S:
                for h in askees:
                    if self.accepts(h, w_star, [x, x2], i):
                        self.swap(i, h, [x, x2], w_star)
                        return True
        # 7.
        return False

    def accepts(self, h, w, offer, giver) -> bool:
        """Seat h, asked by ``giver`` for w against offer, accepts (spec §6.5 steps 5, 6)."""
        cfg = self.cfg[h]
        Hh = self.hands[h]
        if w not in Hh:
            return False
        # AMBIGUITY: "(A random-family seat accepts when T' >= T.)" does not repeat "when its
        # trade is on"; reading: the trade parameter applies to every family (it is a common
        # parameter, "propose and accept trades").
        if not cfg.get("trade"):
            return False
        if self.custom[h]:
            return bool(self.custom[h].accept_trade(self.view(h), list(offer), w))
        T = self.own_best(h, Hh).score
        T2 = self.own_best(h, multiset_minus(Hh, [w]) + list(offer)).score
        if cfg.family == "random":
            return T2 >= T
        keep = self.keep[h]
        answer = T2 > T or (T2 == T and sum(keep[o] for o in offer) >= keep[w])
        if cfg.family in SEARCHED:
            return lookahead.accept(self, h, answer, giver, list(offer), w)
        return answer

    # --- strategies written as Python classes (simsym.model.custom) ----------------------

    def view(self, seat):
        """What seat may see: its own hand, the discard pile, the scores."""
        def best(hand, types, required):
            return self.best(hand, types, required_kinds=required)

        return PlayerView(seat=seat, hand=sorted(self.hands[seat]), discard=list(self.discard),
                          scores=list(self.score), turn=self.turn, runs_ended=self.runs_ended,
                          cards=self.cards, rules=self.rules, _best=best,
                          _below=self.rng.below)

    def check_cards(self, seat, kinds, what, most):
        if len(kinds) > most or Counter(kinds) - Counter(self.hands[seat]):
            raise CustomStrategyError(f"{self.cfg[seat].label}: {what}() returned cards "
                                      f"{kinds} that are not in the hand (or too many)")

    def custom_trade(self, a) -> bool:
        """A Python strategy's trade: propose_trade() -> (give, want), asked round the table
        like a built-in attempt (spec §6.5 step 5)."""
        proposal = self.custom[a].propose_trade(self.view(a))
        if not proposal:
            return False
        x, w = proposal
        self.check_cards(a, [x], "propose_trade", 1)
        for step in range(1, self.P):
            h = (a + step) % self.P
            if self.accepts(h, w, [x], a):
                self.swap(a, h, [x], w)
                return True
        return False

    def swap(self, i, h, offer, w):
        """i gives offer to h and gets w; TRADE(i, h, x, w) then TRADE(i, h, x2, -1)."""
        for o in offer:
            self.hands[i].remove(o)
            self.hands[h].append(o)
        self.hands[h].remove(w)
        self.hands[i].append(w)
        self.log(TRADE, i, h, offer[0], w)
        for o in offer[1:]:
            self.log(TRADE, i, h, o, -1)
        self.received(i, w, CS_RECEIVED)
        for o in offer:
            self.received(h, o, CS_RECEIVED)
        self.trades += 1
        self.seat_trades[i] += 1
        self.seat_trades[h] += 1

    # --- phase 3: Symposion (rulings 9, 11, 19, 20) -------------------------------------------

    def choose_play(self, a) -> Best:
        """spec §6.3: the strategy's play, NONE for no play."""
        cfg = self.cfg[a]
        hand = self.hands[a]
        fam = cfg.family
        if self.custom[a]:
            p = self.custom[a].play(self.view(a))
            if p is None or p.type is None:
                return NONE
            kinds = list(p.kinds)
            self.check_cards(a, kinds, "play", len(hand))
            legal = self.best(kinds, (p.type,), required_kinds=kinds)
            if not legal.legal:
                raise CustomStrategyError(f"{cfg.label}: play() returned an illegal "
                                          f"{p.type} Symposion")
            return legal
        if fam == "greedy":
            return self.best(hand)
        if fam in SEARCHED:
            p = self.best(hand)
            return lookahead.symposion(self, a, p) if p.legal else NONE
        if fam == "patient":
            p = self.best(hand)
            late = self.runs_ended >= min(cfg.get("late_run"), self.rules.deck_runs)
            if p.legal and (p.score >= cfg.get("threshold") or late):
                return p
            return NONE
        if fam == "specialist":
            p = self.best(hand, (cfg.get("favours"),))
            if p.legal:
                return p
            if cfg.get("fallback") or self.runs_ended == self.rules.deck_runs:
                return self.best(hand)
            return NONE
        if fam == "random":
            if not self.best(hand).legal:
                return NONE
            t0 = self.rng.below(3)
            for step in range(3):
                t = ALL_TYPES[(t0 + step) % 3]
                if self.best(hand, (t,)).legal:
                    s = sorted(hand)
                    c = s[self.rng.below(len(s))]
                    p = self.best(hand, (t,), required_kinds=(c,))
                    return p if p.legal else self.best(hand, (t,))
            raise AssertionError("best(hand, all types) is legal but no single type is")
        raise ValueError(f"unknown family {fam!r}")

    def symposion_phase(self, a, choice=None):
        if choice is None:
            choice = self.choose_play(a)
        if not choice.legal:
            return
        type_ = choice.type  # ruling 11: declared once, does not change
        t = ALL_TYPES.index(type_)
        in_play = list(choice.kinds)
        for k in in_play:
            self.hands[a].remove(k)
        self.log(PLAY, a, t, 0)
        for k in sorted(in_play):
            self.log(PLAYCARD, a, k)
        # The draw queue (ruling 19: Andron / Symposiarch draw when played).
        queue = deque()
        for k in sorted(in_play):
            queue.extend([k] * self.cards[k].draws)
        while queue:
            q = queue.popleft()
            c = self.draw()
            if c is None:
                continue
            self.log(DRAW, a, c, SRC_ANDRON)
            self.received(a, c, CS_DRAWN)
            if self.rules.draw_may_join and self.cards[q].draw_usable:
                with_c = self.best(in_play + [c], (type_,), required_kinds=in_play)
                now = self.best(in_play, (type_,), required_kinds=in_play)
                # "contains c": all of in_play is required, so with_c holds c exactly when it
                # holds one card more than in_play.
                if (with_c.legal and len(with_c.kinds) == len(in_play) + 1
                        and with_c.score > now.score):
                    in_play.append(c)
                    self.log(JOIN, a, c)
                    if self.rules.chain_draws and self.cards[c].draws > 0:
                        queue.extend([c] * self.cards[c].draws)
                    continue
            self.hands[a].append(c)  # a drawn card not used goes to the hand
        points = self.best(in_play, (type_,), required_kinds=in_play).score  # ruling 20
        self.score[a] += points
        self.log(SCORE, a, points)
        self.symposia[a] += 1
        self.points_by_type[a][t] += points
        # AMBIGUITY: spec §8 "played (count)" does not say whether a card that joined by the
        # Andron/Symposiarch rule counts as played. Reading: yes, every card of the
        # Symposion scored (PLAYCARD and JOIN alike) is played and credited its points.
        for k in in_play:
            self.stats[a, k, CS_PLAYED] += 1
            self.stats[a, k, CS_POINTS] += points
        self.discard.extend(sorted(in_play))  # the Symposion's cards to the discard pile

    # --- phase 4: Komos (ruling 10) ----------------------------------------------------------

    def komos_phase(self, a):
        n = len(self.hands[a]) - self.rules.komos_limit
        if n <= 0:
            return
        # AMBIGUITY: the Komos bullet does not repeat "sorted" for the log; spec §4's "Several
        # cards put on the discard pile by one action are appended in sorted order" is taken
        # to fix both the pile order and the order of the DISCARD events.
        self.to_discard(a, self.choose_komos(a, n), PH_KOMOS)

    def choose_komos(self, a, n) -> list[int]:
        """spec §6.4"""
        cfg = self.cfg[a]
        hand = self.hands[a]
        if self.custom[a]:
            chosen = list(self.custom[a].komos(self.view(a), n))
            self.check_cards(a, chosen, "komos", n)
            if len(chosen) != n:
                raise CustomStrategyError(f"{cfg.label}: komos() must return {n} cards")
            return chosen
        if cfg.family == "random":
            return self.random_picks(hand, n)
        B = self.own_best(a, hand).kinds
        rest = discard_order(multiset_minus(hand, B), self.keep[a])
        chosen = rest[:n]
        # AMBIGUITY: "then (if more are needed) the first of B(hand) in discard order" is read
        # as the first n - len(rest) cards of B(hand) in discard order.
        if len(chosen) < n:
            chosen += discard_order(list(B), self.keep[a])[:n - len(chosen)]
        if cfg.family in SEARCHED:
            return lookahead.komos(self, a, rest + discard_order(list(B), self.keep[a]), n)
        return chosen

    # --- the end: what a game reports (spec §5 End, §8) --------------------------------------

    def record(self) -> GameRecord:
        top = max(self.score)
        winners = [i for i in range(self.P) if self.score[i] == top]
        shares = [Fraction(1, len(winners)) if i in winners else Fraction(0)
                  for i in range(self.P)]  # ruling 22: ties share the win
        for seat, hand in enumerate(self.hands):
            for k in hand:
                self.stats[seat, k, CS_END] += 1
        return GameRecord(
            game=self.g, deal=self.deal_index, seat_strategy=list(self.seat_strategy),
            scores=list(self.score), turns=self.turn, stalled=self.stalled,
            events=list(self.events), symposia=list(self.symposia),
            points_by_type=[list(p) for p in self.points_by_type], trades=self.trades,
            card_stats=self.stats, win_shares=shares, seat_trades=list(self.seat_trades),
            runs_ended=self.runs_ended, final_hands=[sorted(h) for h in self.hands],
            final_pile=list(self.pile), final_discard=list(self.discard),
            quality=measures(self.turn_scores, run_end_turns(self.turn_runs),
                             final=self.score))


class CustomStrategyError(SimsymError):
    """A strategy written as a Python class broke the rules of its interface."""


def make_custom(cfg):
    from pathlib import Path

    cls = load_class(cfg.get("class"), Path(cfg.base_dir))
    return cls(**dict(cfg.get("params")))


def play_game(scenario, g: int, search=None) -> GameRecord:
    """Play game g of the scenario (spec §2 seats it and picks its deal) and report it.

    ``search(hand, types, required) -> (score, type or None, sorted kinds)`` is the
    best-Symposion oracle; None uses the brute force of simsym.reference.symposion (slow).
    """
    return Game(scenario, g, search).play()


# =============================================================================================
# Human-readable logs
# =============================================================================================

def render_events(events, scenario) -> str:
    """One line per event, with card names (for golden logs)."""
    names = scenario.cards.names
    lines = []
    for code, a, b, c, d in events:
        if code == TURN:
            lines.append(f"turn {a} seat {b}")
        elif code == DRAW:
            lines.append(f"  draw seat {a} {names[b]} ({SOURCE_NAMES[c]})")
        elif code == RUN_END:
            if b:
                lines.append(f"  run {a} ended, {b} cards reshuffled")
            else:
                lines.append(f"  run {a} ended, nothing reshuffled")
        elif code == DISCARD:
            phase = {PH_SYMPOSIARCH: "symposiarch", PH_KOMOS: "komos"}.get(c, str(c))
            lines.append(f"  discard seat {a} {names[b]} ({phase})")
        elif code == TRADE:
            if d == -1:
                lines.append(f"  trade seat {a} also gives {names[c]} to seat {b}")
            else:
                lines.append(f"  trade seat {a} gives {names[c]} to seat {b} for {names[d]}")
        elif code == PLAY:
            lines.append(f"  play seat {a} {ALL_TYPES[b]}")
        elif code == PLAYCARD:
            lines.append(f"    card {names[b]}")
        elif code == JOIN:
            lines.append(f"    join {names[b]}")
        elif code == SCORE:
            lines.append(f"  score seat {a} {b:+d}")
        elif code == END:
            lines.append(f"end after {b} turns" + (" (stalled)" if a else ""))
        else:
            lines.append(f"  ? {(code, a, b, c, d)}")
    return "\n".join(lines) + ("\n" if lines else "")
