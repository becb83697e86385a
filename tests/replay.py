"""Replays an event log (docs/game-engine.md section 7) and checks the game's invariants.

Used on games of both engines: cards are neither created nor lost, every Symposion made is
legal and scores what was credited, hands obey the phase limits, every game ends.
"""

from collections import Counter

from simsym.core import enums as E
from simsym.core.enums import TYPE_NAMES


def replay(events, scenario, searcher, comp=None):
    """Walk the events, asserting invariants; return the final scores by seat."""
    P = scenario.players
    rules = scenario.rules
    deck = Counter()
    for k, c in enumerate(scenario.cards):
        deck[k] += c.copies
    pile = Counter(deck)
    discard = Counter()
    hands = [Counter() for _ in range(P)]
    in_play = Counter()
    play_type = None
    scores = list(comp or [0] * P)
    symposia_this_turn = 0
    ended = False
    turn_seat = None
    runs = 0

    def total():
        return pile + discard + in_play + sum(hands, Counter())

    for code, a, b, c, d in (tuple(int(x) for x in e) for e in events):
        assert not ended, "event after END"
        if code == E.EV.TURN:
            assert total() == deck, f"cards created or lost before turn {a}"
            assert in_play == Counter()
            if turn_seat is not None:
                assert sum(hands[turn_seat].values()) <= rules.komos_limit
            turn_seat = b
            assert b == a % P
            symposia_this_turn = 0
        elif code == E.EV.DRAW:
            assert pile[b] > 0, f"drew {b}, not in the draw pile"
            pile[b] -= 1
            pile += Counter()
            hands[a][b] += 1
        elif code == E.EV.RUN_END:
            runs += 1
            assert a == runs and sum(pile.values()) == 0
            if b:
                assert b == sum(discard.values())
                pile, discard = discard, Counter()
        elif code == E.EV.DISCARD:
            assert hands[a][b] > 0
            hands[a][b] -= 1
            discard[b] += 1
        elif code == E.EV.TRADE:
            assert hands[a][c] > 0
            hands[a][c] -= 1
            hands[b][c] += 1
            if d >= 0:
                assert hands[b][d] > 0
                hands[b][d] -= 1
                hands[a][d] += 1
        elif code == E.EV.PLAY:
            symposia_this_turn += 1
            assert symposia_this_turn <= rules.symposia_per_turn
            assert a == turn_seat
            play_type = TYPE_NAMES[b]
        elif code in (E.EV.PLAYCARD, E.EV.JOIN):
            assert hands[a][b] > 0
            hands[a][b] -= 1
            in_play[b] += 1
        elif code == E.EV.SCORE:
            cards = sorted(in_play.elements())
            play = searcher.best(cards, types=(play_type,), required=tuple(range(len(cards))))
            assert play.type == play_type, f"illegal Symposion {cards} as {play_type}"
            assert play.score == b, f"credited {b}, the Symposion scores {play.score}"
            scores[a] += b
            discard += in_play
            in_play = Counter()
        elif code == E.EV.END:
            ended = True
            assert total() == deck
        else:
            raise AssertionError(f"unknown event code {code}")
    assert ended, "the game never ended"
    return scores
