"""A prototype of issue 11's closed-form Social solver, checked and timed against the kernel.

    .venv/bin/python tools/social_closed_form.py                    # agreement, 2,000 hands
    .venv/bin/python tools/social_closed_form.py --hands 20000 --seed 2
    .venv/bin/python tools/social_closed_form.py --time             # and per-hand medians

Not used by the engine: what it measures is whether a solver specialised to the card shapes
of a deck can give the kernel's exact Social answer (score, cards and options, with the
kernel's tie-breaks) faster than the general search (docs/performance.md, forty-second
session). It refuses decks and rule options outside the shapes it covers.

The solver, for a hand sorted by kind:
- Free cards (one option, no Wine, no Vintage) are always played except an exclusion set
  X. A card is in a class by its category and points (2I, 3H, 1E ...); cards of one class
  are interchangeable, so X is a vector of counts per class (every vector losing at most the
  largest bonus is listed once, by points lost), and of the cards of a class X leaves out the
  highest kinds (the play keeping the lowest kinds is the lexicographically smallest).
- Enumerated cards (anything with Wine, a Vintage or two options) are walked depth first,
  each state (its options by value, then left out) pruned by the Social wine window, by the
  wine the rest can still bring, by the score bound, and, for alike cards (same options,
  Container and Vintage), in the canonical order of their states (the lower kind first).
- At each leaf with legal wine (window, non-Container, Vintage), the only exclusion
  vectors that can be best are those losing at most the I = H bonus (2) and those losing
  exactly T - 2 W (the all-equal bonus: I = H = scored W leaves 2 W of I and H); each is
  tested in closed form: E items of 1 and 2 reach x exactly when 0 <= x <= a1 + 2 a2 and
  x - 2 min(a2, x // 2) <= a1.
- Candidates are compared as the kernel does: score, fewer cards, the sorted kinds
  (``_kinds_cmp``), then the enumerated cards' options in the walk's canonical order.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import fields

import numpy as np
from numba import njit

from simsym.bench import deck_hands
from simsym.cards.encode import encode_cards
from simsym.core import enums as E
from simsym.core.search_nb import _kinds_cmp, best_symposion_ws, workspace_size
from simsym.rules import RuleOptions, encode_rules
from simsym.scenario import load_scenario

# Rule options the solver assumes at their defaults (the Social window 3-5 and bonus 2 + 3
# are written into its tests below).
ASSUMED = ("wine_social", "wine_counts", "non_container_wine", "max_vintage", "either_split",
           "social_bonus_equal", "social_bonus_all_equal", "social_bonus_stacks", "bonus_wine")
MAXBONUS = 5
NCLASS = 7  # free-card classes a packed count word holds (8-bit lanes, a guard bit each)
GUARD = np.int64(0x0080808080808080)


class Uncovered(Exception):
    """The deck or rules fall outside the shapes the prototype covers."""


def tables(cards, rules: RuleOptions) -> dict:
    """The per-kind arrays the solver reads. Raises Uncovered."""
    default = RuleOptions()
    for f in fields(RuleOptions):
        if f.name in ASSUMED and getattr(rules, f.name) != getattr(default, f.name):
            raise Uncovered(f"rule option {f.name} is not its default")
    K = len(cards)
    kind = np.zeros(K, np.int64)  # 0 not in a Social play, 1 free, 2 enumerated
    free = np.zeros((K, 4), np.int64)  # I, H, E, class
    st = np.zeros((K, 4, 9), np.int64)  # printed W, scored W, non-Container W, Vintage,
    ns = np.zeros(K, np.int64)          # I, H, 1E items, 2E items, option (-1: left out)
    ecls = np.full(K, -1, np.int64)
    raw = {}
    eclasses: dict = {}
    for k, c in enumerate(cards):
        if c.copies != 1:
            raise Uncovered(f"{c.name}: {c.copies} copies (one copy of each card assumed)")
        if c.intellectual_only or c.hedonistic_only:
            continue
        if c.requires_women or c.requires_wine:
            raise Uncovered(f"{c.name}: a requirement playable in a Social Symposion")
        for o in c.options:
            if o.either not in (0, 1, 2):
                raise Uncovered(f"{c.name}: {o.either}E (E items of 1 or 2 assumed)")
        if not (c.vintage or any(o.wine for o in c.options) or len(c.options) > 1):
            o = c.options[0]
            parts = [(0, o.intellectual), (1, o.hedonistic), (2, o.either)]
            parts = [(cat, v) for cat, v in parts if v]
            if len(parts) != 1 or parts[0][1] > MAXBONUS:
                raise Uncovered(f"{c.name}: a free card of one category worth at most "
                                f"{MAXBONUS} assumed")
            kind[k] = 1
            raw[k] = parts[0][0] * (MAXBONUS + 1) + parts[0][1]
            free[k, :3] = (o.intellectual, o.hedonistic, o.either)
            continue
        if len(c.options) > 3:
            raise Uncovered(f"{c.name}: more than three options")
        kind[k] = 2
        rows = []
        for i, o in enumerate(c.options):
            rows.append((o.wine, o.wine_scored, 0 if c.container else o.wine,
                         1 if c.vintage else 0, o.intellectual, o.hedonistic,
                         1 if o.either == 1 else 0, 1 if o.either == 2 else 0, i))
        rows.sort(key=lambda r: -(r[1] + r[4] + r[5] + r[6] + 2 * r[7]))  # highest first
        for i, r in enumerate(rows):
            st[k, i] = r
        st[k, len(rows), 8] = -1
        ns[k] = len(rows) + 1
        ecls[k] = eclasses.setdefault((c.container, c.vintage, c.options), len(eclasses))
    present = sorted(set(raw.values()))
    if len(present) > NCLASS:
        raise Uncovered(f"{len(present)} classes of free cards (at most {NCLASS})")
    cmap = {c: i for i, c in enumerate(present)}
    for k, c in raw.items():
        free[k, 3] = cmap[c]
    rank = np.where(st[:, :, 8] >= 0, st[:, :, 8], 99).astype(np.int64)
    maxp = st[:, :, 0].max(axis=1).astype(np.int64)
    # Exclusion vectors losing at most MAXBONUS, by points lost, then most cards first.
    vecs = []

    def rec(i, loss, cur):
        if i == len(present):
            vecs.append((loss, list(cur)))
            return
        v = present[i] % (MAXBONUS + 1)
        n = 0
        while loss + n * v <= MAXBONUS:
            rec(i + 1, loss + n * v, cur + ([(i, n)] if n else []))
            n += 1

    rec(0, 0, [])
    vecs.sort(key=lambda r: (r[0], -sum(n for _, n in r[1])))
    xs = np.array([sum(1 for r in vecs if r[0] < L) for L in range(MAXBONUS + 2)], np.int64)
    xr = np.zeros((len(vecs), 8 + 2 * NCLASS), np.int64)  # packed counts, dI, dH, d1E, d2E,
    for j, (loss, cur) in enumerate(vecs):                # loss, cards, pairs, (class, n) ...
        for t, (i, n) in enumerate(cur):
            cat, v = divmod(present[i], MAXBONUS + 1)
            xr[j, 0] |= n << (8 * i)
            xr[j, 1 + cat if cat < 2 else (3 if v == 1 else 4)] += n * v if cat < 2 else n
            xr[j, 8 + 2 * t] = i
            xr[j, 9 + 2 * t] = n
        xr[j, 5] = loss
        xr[j, 6] = sum(n for _, n in cur)
        xr[j, 7] = len(cur)
    return dict(kind=kind, free=free, st=st, ns=ns, xr=xr, xs=xs, ecls=ecls, rank=rank,
                maxp=maxp)


@njit(cache=False, inline='always')
def _reach(x, a1, a2):
    """Whether a1 items of 1 and a2 items of 2 have a subset summing to x."""
    if x < 0 or x > a1 + 2 * a2:
        return False
    return x - 2 * min(a2, x // 2) <= a1


@njit(cache=False, inline='always')  # its 15 array arguments, passed, cost ~0.15 us a call
def social_play(hand, n, kind, free, st, ns, xr, xs, ecls, rank, maxp, hs, perm, wk, out):
    """The canonical best Social play of ``hand`` into out: score (-1: none), cards, mask over
    hand positions, then each hand position's option."""
    for p in range(n):  # insertion sort by kind; perm: hand positions
        v = hand[p]
        q = p
        while q > 0 and hs[q - 1] > v:
            hs[q] = hs[q - 1]
            perm[q] = perm[q - 1]
            q -= 1
        hs[q] = v
        perm[q] = p
    epos = wk[0]
    ch = wk[1]
    bch = wk[2]
    cnt = wk[3]
    acc = wk[4:14]
    top = wk[14:22]
    sfx = wk[22]
    sw = wk[23]
    prev = wk[24]
    i_f = 0
    h_f = 0
    a1f = 0
    a2f = 0
    nf = 0
    cp = np.int64(0)
    fmask = np.int64(0)
    m = 0
    for q in range(n):
        k = hs[q]
        if kind[k] == 1:
            i_f += free[k, 0]
            h_f += free[k, 1]
            a1f += free[k, 2] == 1
            a2f += free[k, 2] == 2
            cp += np.int64(1) << (8 * free[k, 3])
            fmask |= np.int64(1) << q
            nf += 1
        elif kind[k] == 2:
            epos[m] = q
            m += 1
    # top[c, x]: the x highest positions of free class c (what X leaves out of it).
    for c in range(NCLASS):
        cnt[c] = 0
        top[c, 0] = 0
    for q in range(n - 1, -1, -1):
        if (fmask >> q) & 1:
            c = free[hs[q], 3]
            cnt[c] += 1
            top[c, cnt[c]] = top[c, cnt[c] - 1] | (np.int64(1) << q)
    ft = i_f + h_f + a1f + 2 * a2f
    sfx[m] = 0
    sw[m] = 0
    for j in range(m - 1, -1, -1):
        k = hs[epos[j]]
        sfx[j] = sfx[j + 1] + st[k, 0, 1] + st[k, 0, 4] + st[k, 0, 5] + st[k, 0, 6] \
            + 2 * st[k, 0, 7]
        sw[j] = sw[j + 1] + maxp[k]
    for j in range(m):
        prev[j] = -1
        for jj in range(j - 1, -1, -1):
            if ecls[hs[epos[jj]]] == ecls[hs[epos[j]]]:
                prev[j] = jj
                break
    bscore = -1
    bn = 0
    bmask = np.int64(0)
    for f in range(11):
        acc[0, f] = 0
    d = 0
    ch[0] = -1
    if sw[0] < 3:
        d = -1
    while d >= 0:
        if d == m:
            if acc[d, 0] >= 3 and acc[d, 2] >= 1 and acc[d, 3] <= 1:
                ws_ = acc[d, 1]
                ii = i_f + acc[d, 4]
                hh = h_f + acc[d, 5]
                a1 = a1f + acc[d, 6]
                a2 = a2f + acc[d, 7]
                s0 = ws_ + ii + hh + a1 + 2 * a2
                nin = acc[d, 9] + nf
                cmask = acc[d, 10]
                l5 = s0 - 3 * ws_  # what the all-equal bonus must leave out
                r = -1
                end = xs[3]
                while True:
                    r += 1
                    if r == end:
                        if 2 < l5 <= MAXBONUS and end == xs[3]:
                            r = xs[l5]
                            end = xs[l5 + 1]
                        else:
                            break
                    loss = xr[r, 5]
                    if s0 - loss + MAXBONUS < bscore:
                        break
                    if ((cp | GUARD) - xr[r, 0]) & GUARD != GUARD:
                        continue  # not that many cards of some class
                    ir = ii - xr[r, 1]
                    hr = hh - xr[r, 2]
                    b1 = a1 - xr[r, 3]
                    b2 = a2 - xr[r, 4]
                    t = ir + hr + b1 + 2 * b2
                    b = 0
                    if t & 1 == 0 and _reach(t // 2 - ir, b1, b2):
                        b = 2
                        if t == 2 * ws_ and ir <= ws_ and hr <= ws_:
                            b = 5
                    if b == 0 and r > 0:
                        continue  # cards left out for no bonus
                    score = s0 - loss + b
                    if score < bscore:
                        continue
                    nn = nin - xr[r, 6]
                    if score == bscore and nn > bn:
                        continue
                    xm = np.int64(0)
                    for u in range(xr[r, 7]):
                        xm |= top[xr[r, 8 + 2 * u], xr[r, 9 + 2 * u]]
                    mask = cmask | (fmask & ~xm)
                    if score == bscore and nn == bn:
                        cc = _kinds_cmp(hs, mask, bmask, n)
                        if cc > 0:
                            continue
                        if cc == 0:
                            worse = True
                            for j in range(m):
                                oa = st[hs[epos[j]], ch[j], 8]
                                ob = st[hs[epos[j]], bch[j], 8]
                                if oa != ob:
                                    worse = oa > ob  # left out (-1) first, then by option
                                    break
                            if worse:
                                continue
                    bscore = score
                    bn = nn
                    bmask = mask
                    for j in range(m):
                        bch[j] = ch[j]
            d -= 1
            continue
        q = epos[d]
        k = hs[q]
        c = ch[d] + 1
        while c < ns[k] and (acc[d, 0] + st[k, c, 0] > 5 or acc[d, 0] + st[k, c, 0] + sw[d + 1] < 3
                             or (prev[d] >= 0 and rank[k, c] < rank[k, ch[prev[d]]])):
            c += 1
        if c >= ns[k]:
            d -= 1
            continue
        ch[d] = c
        if acc[d, 1] + acc[d, 4] + acc[d, 5] + acc[d, 6] + 2 * acc[d, 7] + st[k, c, 1] \
                + st[k, c, 4] + st[k, c, 5] + st[k, c, 6] + 2 * st[k, c, 7] + sfx[d + 1] + ft \
                + MAXBONUS < bscore:
            continue
        for f in range(8):
            acc[d + 1, f] = acc[d, f] + st[k, c, f]
        played = st[k, c, 8] >= 0
        acc[d + 1, 9] = acc[d, 9] + (1 if played else 0)
        acc[d + 1, 10] = acc[d, 10] | ((np.int64(1) << q) if played else 0)
        d += 1
        if d < m:
            ch[d] = -1
    out[0] = bscore
    out[1] = bn
    hm = np.int64(0)
    for p in range(n):
        out[3 + p] = 0
    for q in range(n):
        if (bmask >> q) & 1:
            hm |= np.int64(1) << perm[q]
    for j in range(m):
        o = st[hs[epos[j]], bch[j], 8]
        if o >= 0 and (bmask >> epos[j]) & 1:
            out[3 + perm[epos[j]]] = o
    out[2] = hm if bscore >= 0 else 0
    if bscore < 0:
        out[1] = 0
    return bscore


@njit(cache=False)
def _loop_cf(hands, n, kind, free, st, ns, xr, xs, ecls, rank, maxp, reps, outs):
    hs = np.zeros(16, np.int64)
    perm = np.zeros(16, np.int64)
    wk = np.zeros((25, 16), np.int64)
    s = 0
    for i in range(hands.shape[0]):
        for _ in range(reps):
            s += social_play(hands[i], n, kind, free, st, ns, xr, xs, ecls, rank, maxp, hs, perm,
                             wk, outs[i])
    return s


@njit(cache=False)
def _loop_kernel(hands, n, table, rules, type_mask, reps, res, ws, outs):
    s = 0
    for i in range(hands.shape[0]):
        for _ in range(reps):
            best_symposion_ws(hands[i], n, table, rules, np.int64(0), type_mask, res, ws)
            s += res[E.RES_SCORE]
        o = outs[i]
        played = res[E.RES_TYPE] >= 0
        o[0] = res[E.RES_SCORE] if played else -1
        o[1] = res[E.RES_NCARDS] if played else 0
        o[2] = res[E.RES_MASK] if played else 0
        for p in range(n):
            o[3 + p] = (res[E.RES_PER_CARD + p] % E.CH_E_SHIFT) if (o[2] >> p) & 1 else 0
    return s


def compare(scenario, hands: int, seed: int, size: int = 9):
    """(hands, the disagreeing rows' indices, the closed form's rows, the kernel's rows)."""
    t = tables(scenario.cards, scenario.rules)
    table = encode_cards(scenario.cards)
    rules = encode_rules(scenario.rules)
    hs = deck_hands(scenario, hands, size, seed)
    a = np.zeros((hands, 3 + size), np.int64)
    b = np.zeros((hands, 3 + size), np.int64)
    _loop_cf(hs, size, t["kind"], t["free"], t["st"], t["ns"], t["xr"], t["xs"], t["ecls"],
             t["rank"], t["maxp"], 1, a)
    _loop_kernel(hs, size, table, rules, np.int64(1 << E.T_SOCIAL), 1,
                 np.zeros(E.RES_SIZE, np.int64), np.empty(workspace_size(size), np.int64), b)
    bad = np.nonzero((a != b).any(axis=1))[0]
    return hs, bad, a, b


def medians(scenario, hands: int, seed: int, size: int = 9, reps: int = 50) -> dict:
    """Per hand, the fastest of three timings of ``reps`` searches (the bench's method): the
    closed form, the kernel's Social group alone and the kernel's whole search; medians
    overall and by the number of enumerated cards."""
    t = tables(scenario.cards, scenario.rules)
    table = encode_cards(scenario.cards)
    rules = encode_rules(scenario.rules)
    res = np.zeros(E.RES_SIZE, np.int64)
    ws = np.empty(workspace_size(size), np.int64)
    hs = deck_hands(scenario, hands, size, seed)
    one = np.zeros((1, 3 + size), np.int64)
    args = (t["kind"], t["free"], t["st"], t["ns"], t["xr"], t["xs"], t["ecls"], t["rank"],
            t["maxp"])
    runs = {
        "closed form, Social": lambda h: _loop_cf(h, size, *args, reps, one),
        "kernel, Social only": lambda h: _loop_kernel(h, size, table, rules,
                                                      np.int64(1 << E.T_SOCIAL), reps, res, ws,
                                                      one),
        "kernel, every type": lambda h: _loop_kernel(h, size, table, rules, np.int64(7), reps,
                                                     res, ws, one),
    }
    for f in runs.values():
        f(hs[:1])
    per = {key: [] for key in runs}
    for i in range(hands):
        h = hs[i:i + 1]
        for key, f in runs.items():
            best = float("inf")
            for _ in range(3):
                t0 = time.perf_counter()
                f(h)
                best = min(best, time.perf_counter() - t0)
            per[key].append(best / reps * 1e6)
    m = np.array([int((t["kind"][h] == 2).sum()) for h in hs])
    out = {}
    for key, v in per.items():
        v = np.array(v)
        out[key] = (float(np.median(v)), {int(mm): float(np.median(v[m == mm]))
                                          for mm in range(size + 1) if (m == mm).sum() >= 10})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="scenarios/base.yaml")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", action="store_true", help="also time it (the bench's method)")
    a = ap.parse_args(argv)
    sc = load_scenario(a.scenario)
    try:
        hs, bad, x, y = compare(sc, a.hands, a.seed)
    except Uncovered as e:
        print(f"not covered by the prototype: {e}", file=sys.stderr)
        return 2
    print(f"{a.hands} hands (seed {a.seed}): {a.hands - len(bad)} agree with the kernel's "
          f"Social search (score, cards, options), {len(bad)} disagree")
    for i in bad[:5]:
        print("  ", [sc.cards[k].name for k in hs[i]], "closed form", x[i].tolist(), "kernel",
              y[i].tolist())
    if a.time:
        for key, (med, by_m) in medians(sc, a.hands, a.seed).items():
            print(f"{key:22s} median {med:.3f} us; by enumerated cards: "
                  + ", ".join(f"{mm}: {v:.3f}" for mm, v in by_m.items()))
    return 1 if len(bad) else 0


if __name__ == "__main__":
    sys.exit(main())
