"""Does a verdict hold for better players? The words for a verdict under two generations.

The strong judge plays the learned player's newest generation (the shipped model). The same
table played by the generation before it, on the same deals, says whether each verdict has
converged with skill (simsym.studies.convergence plays both and writes ``convergence.json``):

* a verdict **holds** when it is the same under both generations: a card too strong, too weak,
  within the band or not decided; the seats' criterion met, not met or not decided;
* its figure **moves** by the newest generation's minus the previous one's, a paired
  difference on the same deals with its 95% interval, a real move by the one rule (Holm over
  everything the check tests);
* a verdict that holds and whose figure does not move beyond noise has **stopped moving with
  skill**; any other **still moves**, and its figure is read as a range, from one
  generation's value to the other's.

Every figure about a share is in pp; a measure of how the game plays is in its own unit
(shares of games in %, their moves in pp), as everywhere else.
"""

from __future__ import annotations

STOPPED = "stopped moving with skill"
MOVES = "still moves: treat it as a range"
TOO_STRONG, TOO_WEAK, INSIDE, EDGE = "too strong", "too weak", "within the band", "not decided"


def card_verdict(band: str, strength: float) -> str:
    """A card's verdict from its band (simsym.analysis.balance.band_columns) and strength."""
    if band == "outside":
        return TOO_STRONG if strength > 0 else TOO_WEAK
    return EDGE if band == "edge" else INSIDE


def stopped(holds: bool, real: bool) -> bool:
    """Whether a verdict has stopped moving with skill: it holds, and its figure's move is
    not real."""
    return bool(holds) and not bool(real)


def verdict_words(holds: bool, real: bool) -> str:
    return STOPPED if stopped(holds, real) else MOVES


def pp(x: float, sign: str = "+", d: int = 1) -> str:
    return f"{x:{sign}.{d}f}"


def move_words(r: dict, unit: str = "pp", d: int = 1) -> str:
    """``moves +0.4 pp (+0.1 to +0.7), within noise`` (or ``a real move``): a row's move in
    ``unit`` with ``d`` decimals."""
    u = f" {unit}" if unit else ""
    return (f"moves {pp(r['move'], d=d)}{u} ({pp(r['lo'], d=d)} to {pp(r['hi'], d=d)}), "
            + ("a real move" if r["real"] else "within noise"))


def measure_words(r: dict) -> str:
    """A measure of how the game plays under both generations and its move, in its unit
    (a share in %, its move in pp) with its decimals (simsym.analysis.quality.digits)."""
    from simsym.analysis.quality import digits

    d = digits(r["unit"])
    share = r["unit"].startswith("%")
    unit = "%" if share else f" {r['unit']}"
    return (f"{r['name']} {pp(r['newest'], '', d)}{unit} against {pp(r['previous'], '', d)}"
            f"{unit}, {move_words(r, 'pp' if share else r['unit'], d)}")


def range_words(r: dict, unit: str = "pp", sign: str = "+") -> str:
    """A figure read as a range: from the lower of the two generations' values to the
    higher."""
    lo, hi = sorted((r["previous"], r["newest"]))
    return f"{pp(lo, sign)} to {pp(hi, sign)} {unit}".rstrip()


def card_line(r: dict, gens: tuple[int, int]) -> str:
    """One card that still moves: its verdict under each generation and its range."""
    a, b = gens
    same = r["verdict"]["previous"] == r["verdict"]["newest"]
    said = (r["verdict"]["newest"] + " under both" if same else
            f"{r['verdict']['newest']} under generation {b}, {r['verdict']['previous']} "
            f"under generation {a}")
    return (f"{r['card']}: {said}; {pp(r['newest'])} pp against {pp(r['previous'])} pp, "
            f"{move_words(r)}; read it as {range_words(r)}")


def summary_words(doc: dict) -> str:
    """The one line the "Balanced?" section gives the check: each verdict's state."""
    a, b = doc["previous"]["generation"], doc["newest"]["generation"]
    parts = [f"the seat spread {_state(doc['seats'])}"]
    if doc.get("compensation"):
        parts.append(f"the compensation's verdict {_state(doc['compensation'])}")
    cards = doc["cards"]
    n_stop = sum(stopped(r["holds"], r["real"]) for r in cards)
    parts.append(f"{n_stop} of {len(cards)} card verdicts stopped moving"
                 + (f", {len(cards) - n_stop} still move" if n_stop < len(cards) else ""))
    q = doc.get("quality") or []
    if q:
        n_q = sum(not r["real"] for r in q)
        parts.append(f"{n_q} of {len(q)} measures of how the game plays stopped moving")
    return (f"Under the generation before the shipped model (generation {a} against "
            f"{b}), on the same deals: " + "; ".join(parts) + ".")


def _state(r: dict) -> str:
    return "stopped moving" if stopped(r["holds"], r["real"]) else "still moves"


def lines(doc: dict, listed: int = 8) -> list[str]:
    """The report section's Markdown lines (after its heading)."""
    a, b = doc["previous"]["generation"], doc["newest"]["generation"]
    out = [f"The strong table played again by the learned player's generation {a}, the one "
           f"before the shipped model (generation {b}), on the same {doc['games']:,} deals. A "
           f"verdict has **{STOPPED}** when it is the same under both and its figure does not "
           f"move beyond noise (newest minus previous, a paired difference, judged by the one "
           f"rule over {doc['tested']} tests); otherwise it **{MOVES}**, from one "
           "generation's figure to the other's.", ""]
    s = doc["seats"]
    out.append(f"- **Seat spread**: {pp(s['newest'], '')} pp under generation {b}, "
               f"{pp(s['previous'], '')} pp under generation {a}; {move_words(s)}: "
               f"**{verdict_words(s['holds'], s['real'])}**"
               + ("." if stopped(s["holds"], s["real"]) else
                  f" ({range_words(s, sign='')})."))
    c = doc.get("compensation")
    if c:
        out.append(f"- **Compensation** `{c['suggested']}` on {c['games']:,} fresh deals: "
                   f"{c['state']['newest']} under generation {b} (spread "
                   f"{pp(c['newest'], '')} pp), {c['state']['previous']} under generation "
                   f"{a} ({pp(c['previous'], '')} pp); {move_words(c)}: "
                   f"**{verdict_words(c['holds'], c['real'])}**"
                   + ("." if stopped(c["holds"], c["real"]) else
                      f" (a spread of {range_words(c, sign='')})."))
    cards = doc["cards"]
    moving = [r for r in cards if not stopped(r["holds"], r["real"])]
    changed = [r for r in moving if not r["holds"]]
    out.append(f"- **Cards**: {len(cards) - len(moving)} of {len(cards)} verdicts "
               f"**{STOPPED}**; {len(changed)} change verdict between the generations, "
               f"{len(moving) - len(changed)} keep it while their strength moves beyond "
               "noise.")
    shown = sorted(moving, key=lambda r: (r["holds"], -abs(r["move"])))
    for r in shown[:listed]:
        out.append(f"  - {card_line(r, (a, b))}.")
    if len(shown) > listed:
        out.append(f"  - and {len(shown) - listed} more (every card in convergence.json).")
    q = doc.get("quality") or []
    if q:
        still = [r for r in q if r["real"]]
        out.append(f"- **How the game plays**: {len(q) - len(still)} of {len(q)} measures "
                   f"**{STOPPED}**"
                   + ("." if not still else "; still moving: "
                      + "; ".join(measure_words(r) for r in still) + "."))
    return out


# --- a change (simsym compare) -----------------------------------------------------------------

def _unit(r: dict) -> tuple[str, int]:
    """A change row's unit as shown and its decimals: pp for shares, else the measure's."""
    from simsym.analysis.quality import digits

    u = r.get("unit", "pp")
    if u == "pp":
        return "pp", 1
    return ("pp" if u.startswith("%") else u), digits(u)


def _real(x: bool) -> str:
    return "real" if x else "not real"


def change_line(r: dict, gens: tuple[int, int]) -> str:
    """One tested change under both generations, its move and its state."""
    a, b = gens
    unit, d = _unit(r)
    state = verdict_words(r["holds"], r["real"])
    out = (f"{r['name']}: {pp(r['newest'], d=d)} {unit} under generation {b} "
           f"({_real(r['real_newest'])}), {pp(r['previous'], d=d)} {unit} under generation {a} "
           f"({_real(r['real_previous'])}); {move_words(r, unit, d)}: {state}")
    if not stopped(r["holds"], r["real"]):
        lo, hi = sorted((r["previous"], r["newest"]))
        out += f" ({pp(lo, d=d)} to {pp(hi, d=d)} {unit})"
    return out


def change_summary(doc: dict) -> str:
    """One line: do the comparison's verdicts hold under the generation before?"""
    a, b = doc["previous"]["generation"], doc["newest"]["generation"]
    rows = doc["rows"]
    real = [r for r in rows if r["real_newest"]]
    kept = sum(r["holds"] for r in real)
    n_stop = sum(stopped(r["holds"], r["real"]) for r in rows)
    return (f"For better players (generation {a} against the shipped {b}, same deals): "
            f"{kept} of the {len(real)} real changes are real under generation {a} too; "
            f"{n_stop} of {len(rows)} tested changes {STOPPED}.")


def change_section(doc: dict, listed: int = 12) -> list[str]:
    """compare.md's section on whether the change holds for better players (after its
    heading)."""
    a, b = doc["previous"]["generation"], doc["newest"]["generation"]
    rows = doc["rows"]
    out = [f"A and B played again by the learned player's generation {a}, the one before the "
           f"shipped model (generation {b}), on the same {doc['games']:,} deals. A change's "
           "verdict holds when it is real under both generations in the same direction, or "
           f"real under neither; it has **{STOPPED}** when it holds and the change itself "
           "does not move beyond noise (newest minus previous, a paired difference, judged by "
           f"the one rule over {doc['tested']} tests); otherwise it **{MOVES}**.", "",
           f"- {change_summary(doc)}"]
    moving = [r for r in rows if not stopped(r["holds"], r["real"])]
    moving.sort(key=lambda r: (r["holds"], not r["real_newest"], -abs(r["move"])))
    for r in moving[:listed]:
        out.append(f"- {change_line(r, (a, b))}.")
    if len(moving) > listed:
        out.append(f"- and {len(moving) - listed} more that still move (every tested change "
                   "in --json's for_better_players).")
    return out
