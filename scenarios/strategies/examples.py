"""Example strategies written as Python classes (run with `simsym run --engine python`)."""

from simsym.model.custom import Strategy


class Hoarder(Strategy):
    """Never discards in the Symposiarch phase; plays only when the best Symposion scores at
    least ``threshold``, or once the deck has run out; asks for the card that helps most."""

    def __init__(self, threshold=16):
        super().__init__(threshold=threshold)
        self.threshold = threshold

    def play(self, view):
        p = view.best()
        if p.type is None:
            return None
        if p.score >= self.threshold or view.runs_ended == view.rules.deck_runs:
            return p
        return None

    def propose_trade(self, view):
        best = view.best()
        rest = list(view.hand)
        for k in best.kinds:
            rest.remove(k)
        if not rest:
            return None
        give = min(rest, key=lambda k: (sum(o.wine + o.either for o in view.cards[k].options),
                                        -k))
        base = view.best().score
        gain, want = 0, None
        for k in range(len(view.cards)):
            if k in view.hand:
                continue
            hand = list(view.hand)
            hand.remove(give)
            s = view.best(hand + [k]).score
            if s > base + gain:
                gain, want = s - base, k
        return (give, want) if want is not None else None

    def accept_trade(self, view, give, get):
        hand = list(view.hand)
        hand.remove(get)
        return view.best(hand + give).score >= view.best().score
