"""`simsym best`: the best legal Symposion in a hand, or in each hand of a file."""

from __future__ import annotations

import json
import sys

import click

from simsym.cli.common import scenario_option, scenario_or_base
from simsym.core.enums import MAX_HAND, TYPE_NAMES
from simsym.engine.search import Searcher
from simsym.errors import InputError


def parse_hand(text: str, cards, file: str | None = None, line: int | None = None) -> list[int]:
    """Card names separated by commas -> kind codes (case-insensitive, closest-name hints)."""
    names = [part.strip() for part in text.split(",")]
    if any(not n for n in names):
        raise InputError("malformed hand: an empty card name (two commas in a row, or a "
                         "comma at an end); write names separated by commas", file, line)
    if len(names) > MAX_HAND:
        raise InputError(f"a hand of {len(names)} cards; at most {MAX_HAND}", file, line)
    return [cards.lookup(n, file=file, line=line) for n in names]


def read_hands(source: str, cards) -> list[tuple[int, list[int]]]:
    """Every hand of a file ('-' = stdin), checked whole before any is searched."""
    label = "<stdin>" if source == "-" else source
    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
    except FileNotFoundError:
        raise InputError("file not found", label) from None
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason})", label) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", label) from None
    hands = []
    for no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue  # blank lines and comments are not hands
        hands.append((no, parse_hand(raw, cards, label, no)))
    return hands


def format_play(play, hand_names) -> str:
    lines = ["Hand: " + ", ".join(hand_names)]
    if play.type is None:
        lines.append("No legal Symposion in this hand (score 0).")
        return "\n".join(lines)
    lines.append(f"Best: {play.type.capitalize()} Symposion, {play.score} points")
    width = max(len(c.name) for c in play.choices)
    for c in play.choices:
        lines.append(f"  {c.name:<{width}}  {c.describe()}")
    lines.append(f"  Score: wine {play.wine} + intellectual {play.intellectual} + hedonistic "
                 f"{play.hedonistic} + bonus {play.bonus} = {play.score}")
    left = list(hand_names)
    for c in play.choices:
        left.remove(c.name)
    if left:
        lines.append("Not played: " + ", ".join(left))
    return "\n".join(lines)


@click.command()
@click.argument("cards", nargs=-1)
@click.option("--hands", "hands_file", type=str, default=None,
              help="File with one hand a line, card names separated by commas ('-': stdin).")
@scenario_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object a hand, one a line.")
@click.option("--type", "types", type=click.Choice(TYPE_NAMES), multiple=True,
              help="Only these Symposion types (repeatable; default: all three).")
@click.option("--require", "required", multiple=True,
              help="A card of the hand that must be played (repeatable).")
@click.option("--engine", type=click.Choice(["numba", "reference"]), default="numba",
              show_default=True, help="The compiled search, or the brute-force reference.")
def best(cards, hands_file, scenario_path, as_json, types, required, engine):
    """Find the best legal Symposion in a hand.

    \b
    simsym best Plato Mathematics Science Grapes Vines "Wine Mixed with Water"
    simsym best --hands hands.txt --json
    """
    if bool(cards) == bool(hands_file):
        raise click.UsageError("give the hand's cards as arguments, or --hands FILE, not both")
    scenario = scenario_or_base(scenario_path)
    deck = scenario.cards
    if hands_file:
        hands = read_hands(hands_file, deck)
    else:
        hands = [(None, parse_hand(",".join(cards), deck, "command line"))]
    searcher = Searcher(deck, scenario.rules, engine=engine)
    results = []
    for line, hand in hands:
        req = []
        for name in required:
            k = deck.lookup(name, key="--require")
            pos = [p for p, h in enumerate(hand) if h == k and p not in req]
            if not pos:
                raise InputError(f"--require {name!r}: that card is not in the hand",
                                 hands_file, line)
            req.append(pos[0])
        results.append((hand, searcher.best(hand, types=types or TYPE_NAMES, required=req)))
    # Everything was read and searched before the first line is printed.
    out = []
    for hand, play in results:
        if as_json:
            out.append(json.dumps(play.as_json()))
        else:
            out.append(format_play(play, [deck[k].name for k in hand]))
    click.echo(("\n" if as_json else "\n\n").join(out))
