"""Scenario validation: every problem of a file at once, clear exit codes, and a fuzz test.

Designers edit YAML by hand. Whatever they write, loading a scenario either returns a Scenario
the engine can play or raises a SimsymError (exit code 2) naming file, line and key; never
anything else, never a traceback.
"""

from __future__ import annotations

import string
import tempfile
from pathlib import Path

import click.testing
import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from simsym.model.cards.loader import MAX_COPIES
from simsym.errors import InputError, InputErrors, SimsymError
from simsym.model.scenario import BASE_SCENARIO, MAX_EXTENDS_DEPTH, load_scenario

CARD_NAMES = [c for c in yaml.safe_load(
    (BASE_SCENARIO.parent / "cards" / "symposion.yaml").read_text())["cards"]]


def _cli():
    """The `simsym` group with `validate` registered (a no-op once main.py registers it)."""
    from simsym.cli.main import main
    from simsym.cli.validate import validate

    if "validate" not in main.commands:
        main.add_command(validate)
    return main


def invoke(*args):
    return click.testing.CliRunner().invoke(_cli(), [str(a) for a in args])


def write(tmp_path, name, text):
    p = Path(tmp_path) / name
    p.write_text(text, encoding="utf-8")
    return p


def problems_of(path) -> list[InputError]:
    with pytest.raises(InputError) as e:
        load_scenario(path)
    return e.value.errors


# --- every problem at once --------------------------------------------------------------------

MANY = f"""\
extends: {BASE_SCENARIO}
players: 7
games: {10**30}
seating: mirorr
colour: red
rules:
  hand_sise: 8
  komos_limit: 12
  wine_social: [5, 3]
cards:
  overrides:
    Platoo: "4I"
    krater: {{copies: -1}}
    Plato: "4Q; IO"
  remove: [Orgyy]
strategies:
  - family: patient
    threshhold: 12
    late_run: yes
"""


def test_every_problem_is_reported_at_once_sorted_by_line(tmp_path):
    p = write(tmp_path, "many.yaml", MANY)
    errors = problems_of(p)
    expect = [  # (line, key, fragments of what was found and what is allowed)
        (2, "players", ["found 7", "2 to 6"]),
        (3, "games", [str(10**30), "1,000,000,000,000"]),
        (4, "seating", ["'mirorr'", "did you mean 'mirror'", "rotate"]),
        (5, "colour", ["unknown key 'colour'", "allowed:"]),
        (7, "rules.hand_sise", ["did you mean 'hand_size'"]),
        (8, "rules.komos_limit", ["12 is above hand_size 9"]),
        (9, "rules.wine_social", ["[5, 3]", "min <= max"]),
        (12, "cards.overrides.Platoo", ["unknown card 'Platoo'", "closest: Plato"]),
        (13, "cards.overrides.krater.copies", ["found -1", f"0 to {MAX_COPIES}"]),
        (14, "cards.overrides.Plato", ["card 'Plato': cannot read a point value at '4Q' in "
                                       "'4Q; IO'", "allowed letters: W (Wine), I",
                                       "e.g. '4I; IO'"]),
        (15, "cards.remove[0]", ["'Orgyy'", "closest: Orgy"]),
        (18, "strategies[0].threshhold", ["did you mean 'threshold'", "its parameters"]),
        (19, "strategies[0].late_run", ["found true", "0 to 100"]),
    ]
    got = [(e.line, e.key) for e in errors]
    assert got == [(line, key) for line, key, _ in expect], got
    for err, (_, _, fragments) in zip(errors, expect):
        assert err.file == str(p)
        for f in fragments:
            assert f in err.message, (f, err.message)
    # str(): one line a problem, "file:line: key: message", in file and line order.
    lines = str(problems_of_exc(p)).splitlines()
    assert len(lines) == len(expect)
    assert all(line.startswith(f"{p}:") for line in lines)
    assert lines[0] == f"{p}:2: players: expected a whole number from 2 to 6, found 7"


def problems_of_exc(path):
    with pytest.raises(InputErrors) as e:
        load_scenario(path)
    return e.value


def test_problems_in_an_extended_file_name_that_file(tmp_path):
    write(tmp_path, "parent.yaml", f"extends: {BASE_SCENARIO}\nrules:\n  komos_limit: 99\n"
          "  trading: false\n")
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\nrules:\n  hand_size: 0\n"
                  "players: 1\n")
    errors = problems_of(child)
    where = [(Path(e.file).name, e.line, e.key) for e in errors]
    assert where == [("child.yaml", 3, "rules.hand_size"), ("child.yaml", 4, "players"),
                     ("parent.yaml", 3, "rules.komos_limit")], where


def test_a_single_problem_is_a_plain_input_error(tmp_path):
    p = write(tmp_path, "s.yaml", f"extends: {BASE_SCENARIO}\nplayers: 9\n")
    with pytest.raises(InputError) as e:
        load_scenario(p)
    assert not isinstance(e.value, InputErrors)
    assert str(e.value) == f"{p}:2: players: expected a whole number from 2 to 6, found 9"


# --- the edge cases of the issue --------------------------------------------------------------

ALL_ZERO = "".join(f"    {n}: {{copies: 0}}\n" for n in CARD_NAMES)
ALL_1000 = "".join(f"    {n}: {{copies: 1000}}\n" for n in CARD_NAMES)


@pytest.mark.parametrize("text,key,fragments", [
    (f"cards:\n  overrides:\n{ALL_ZERO}", "cards", ["0 cards", "too few to deal", "36"]),
    ("games: 1000000000000000000000000000000\n", "games", ["1,000,000,000,000"]),
    ("cards:\n  overrides:\n    Krater: {copies: 1000000000}\n", "cards.overrides.Krater.copies",
     ["1000000000", "0 to 1000"]),
    ("cards:\n  overrides:\n    Krater: {copies: -2}\n", "cards.overrides.Krater.copies",
     ["-2", "0 to 1000"]),
    ("players: yes\n", "players", ["found true", "2 to 6"]),
    ("rules:\n  hand_size: no\n", "rules.hand_size", ["found false"]),
    ("rules: [hand_size, 8]\n", "rules", ["mapping", "found"]),
    ("cards:\n  overrides: [Plato, 4I]\n", "cards.overrides", ["mapping", "found"]),
    ("cards: [a, b]\n", "cards", ["card file path or a mapping"]),
    ("seating: rotate\nplayers: 2\nstrategies: [greedy, random, patient]\n", "strategies",
     ["3 strategies for 2 players"]),
    ("strategies: [greedy, random]\n", "strategies", ["seating 'mirror'", "exactly one"]),
    ("players: 6\nrules: {hand_size: 13}\n", "players", ["75 cards", "too few", "78"]),
    ("rules: {komos_limit: 10}\n", "rules.komos_limit", ["10 is above hand_size 9"]),
    ("rules: {discard_limit: 5, hand_size: 4, komos_limit: 4}\n", "rules.discard_limit",
     ["5 is above hand_size 4"]),
    ("rules: {wine_hedonistic: [5, 3]}\n", "rules.wine_hedonistic", ["[5, 3]"]),
    ("rules: {wine_social: [0, 100000000000000000000]}\n", "rules.wine_social", ["<= 1000"]),
    ("rules: {hand_size: 0}\n", "rules.hand_size", ["out of range", "1 to 30"]),
    ("rules: {hand_size: 31}\n", "rules.hand_size", ["out of range", "allowed 1 to 30"]),
    ("rules: {seat_compensation: [1, 2]}\n", "rules.seat_compensation", ["2 values for 4"]),
    ("cards:\n  overrides:\n    plato: \"4I; IO, Requires 5000+ WC\"\n", "cards.overrides.plato",
     ["Requires N+ WC", "0 to 1000", "e.g. '4I; IO, Requires 1000+ WC'"]),
    ("cards:\n  add:\n    Nectar: \"" + "9" * 5000 + "W\"\n", "cards.add.Nectar",
     ["too large"]),
    ("seed: " + "7" * 5000 + "\n", None, ["YAML cannot read"]),
    ("cards:\n  add:\n    grapes: \"1W\"\n", "cards.add.grapes", ["already exists"]),
    ("strategies: [{family: specialist, favours: wine}]\n", "strategies[0].favours",
     ["'wine'", "intellectual, social, hedonistic"]),
    ("strategies: [{famly: greedy}]\n", "strategies[0]", ["family name"]),
    ("name: 12\n", "name", ["non-empty text"]),
    ("sweep: {strategies: [greedy, {family: patient, late_run: x}]}\n",
     "sweep.strategies[1].late_run", ["whole number"]),
    ("sweep: {strategies: [greedy], players: [2]}\n", "sweep", ["exactly one"]),
    ("sweep: [greedy]\n", "sweep", ["expected a mapping", "strategies: ["]),
    ("cards:\n  remove: [" + ", ".join(CARD_NAMES) + "]\n", "cards", ["no cards left"]),
])
def test_edge_cases_are_clear_errors(tmp_path, text, key, fragments):
    p = write(tmp_path, "s.yaml", f"extends: {BASE_SCENARIO}\n{text}")
    errors = problems_of(p)
    assert len(errors) == 1, errors
    err = errors[0]
    assert err.file == str(p) and err.line is not None and err.key == key
    for f in fragments:
        assert f in err.message, (f, err.message)


def test_odd_but_valid_scenarios_load_and_play(tmp_path):
    from simsym.engine.compiled import run_chunk, setup_for

    p = write(tmp_path, "s.yaml", f"extends: {BASE_SCENARIO}\nplayers: 6\ncards:\n"
              f"  overrides:\n{ALL_1000}  add:\n    Ὦ Οἶνος Χῖος: {{text: \"2W; Vintage\", "
              f"copies: 0}}\n    Vin Nouveau: \"1W\"\nrules: {{turn_cap: 300, "
              f"wine_social: [0, null]}}\n")
    sc = load_scenario(p)
    assert sc.cards.deck_size == 75 * 1000 + 1
    # Unicode names, matched case-insensitively by the one lookup.
    assert sc.cards.lookup("Ὦ ΟἾΝΟΣ ΧῖΟΣ") == sc.cards.lookup("ὦ οἶνος χῖος") == 75
    rows, _ = run_chunk(setup_for(sc), 0, 2)
    assert rows.shape[0] == 2
    # The largest hand the engine's search holds.
    p = write(tmp_path, "h.yaml", f"extends: {BASE_SCENARIO}\nplayers: 2\n"
              "rules: {hand_size: 24, komos_limit: 24, discard_limit: 24, turn_cap: 40}\n")
    rows, _ = run_chunk(setup_for(load_scenario(p)), 0, 1)
    assert rows.shape[0] == 1


def test_unicode_override_is_matched_case_insensitively(tmp_path):
    cards = write(tmp_path, "c.yaml", "cards:\n  Ὦ Οἶνος: {text: \"3W\", copies: 30}\n"
                  "  Straße: {text: \"2E\", copies: 30}\n")
    p = write(tmp_path, "s.yaml", f"cards:\n  file: {cards}\n  overrides:\n    ὦ οἶνος: \"4W\"\n"
              "    STRASSE: {copies: 31}\nplayers: 2\n")
    sc = load_scenario(p)
    assert sc.cards[0].options[0].wine == 4 and sc.cards[1].copies == 31
    p = write(tmp_path, "t.yaml", f"cards:\n  file: {cards}\n  overrides:\n    Ὦ Οἶνοσς: \"4W\"\n")
    assert "closest: Ὦ Οἶνος" in problems_of(p)[0].message


def test_extends_depth(tmp_path):
    prev = str(BASE_SCENARIO)
    for i in range(40):
        write(tmp_path, f"d{i}.yaml", f"extends: {prev}\n")
        prev = f"d{i}.yaml"
    # d30 extends 30 files, then base: 31 levels below it, fine.
    assert load_scenario(tmp_path / "d30.yaml").players == 4
    errors = problems_of(tmp_path / "d39.yaml")
    assert len(errors) == 1 and "nests deeper than" in errors[0].message
    assert f"at most {MAX_EXTENDS_DEPTH}" in errors[0].message
    assert errors[0].key == "extends"


@pytest.mark.parametrize("files,start,fragment", [
    ({"a.yaml": "extends: a.yaml\n"}, "a.yaml", "circular: a.yaml -> a.yaml"),
    ({"a.yaml": "extends: b.yaml\n", "b.yaml": "extends: c.yaml\n", "c.yaml": "extends: a.yaml\n"},
     "a.yaml", "circular: a.yaml -> b.yaml -> c.yaml -> a.yaml"),
    ({"a.yaml": "extends: nowhere.yaml\nplayers: 9\n"}, "a.yaml", "not found"),
    ({"a.yaml": "extends: .\n"}, "a.yaml", "is a directory"),
    ({"a.yaml": "extends: [base.yaml]\n"}, "a.yaml", "path of another scenario"),
    ({"a.yaml": "extends: \"a\\0b\"\n"}, "a.yaml", "as a path"),
    ({"a.yaml": ""}, "a.yaml", "empty"),
    ({"a.yaml": "# only a comment\n"}, "a.yaml", "empty"),
    ({"a.yaml": "- a\n- b\n"}, "a.yaml", "found a list"),
    ({"a.yaml": "just text\n"}, "a.yaml", "found the text 'just text'"),
    ({"a.yaml": "name: x\nrules: {a: [\n"}, "a.yaml", "the list \\[ opened at column 12 is "
     "never closed"),
    ({"a.yaml": "name: x\nname: y\nplayers: 3\nplayers: 4\n"}, "a.yaml", "duplicate key"),
    ({"a.yaml": "? [a, b]\n: 1\n"}, "a.yaml", "a key must be a plain value"),
    ({"a.yaml": "x: &a [*a]\n"}, "a.yaml", "recursive"),
    ({}, "missing.yaml", "file not found"),
])
def test_files_that_are_not_scenarios(tmp_path, files, start, fragment):
    for name, text in files.items():
        write(tmp_path, name, text)
    with pytest.raises(SimsymError, match=fragment):
        load_scenario(tmp_path / start)


def test_duplicate_keys_are_all_reported(tmp_path):
    p = write(tmp_path, "s.yaml", "name: x\nname: y\nplayers: 3\nplayers: 4\n")
    errors = problems_of(p)
    assert [(e.line, e.key) for e in errors] == [(2, "name"), (4, "players")]
    assert "first on line 1" in errors[0].message


def test_syntax_error_names_the_line(tmp_path):
    p = write(tmp_path, "s.yaml", "name: x\nplayers: 3\nrules:\n  hand_size: [9\n  trading: no\n")
    err = problems_of(p)[0]
    assert err.file == str(p) and err.line == 4
    assert err.message.startswith("the list [ opened at column 14 is never closed (line 5 is "
                                  "still read as inside it): end it with ]")


# What a designer's hand gets wrong in YAML, said in their words: the line and column, the
# mistake, a hint and the line's text; never PyYAML's tokens.
YAML_JARGON = ("block end", "block mapping", "block sequence", "<", "scalar", "token",
               "expected <", "while parsing", "while scanning", "Traceback")


@pytest.mark.parametrize("text,line,fragments", [
    # a key indented less than the key above it (and more than their parent)
    ("name: x\nrules:\n    hand_size: 9\n  trading: no\n", 4,
     ["'trading' at column 3 lines up with no line above it ('hand_size' at column 5, 'rules' "
      "at column 1)", "start in the same column", "the line reads '  trading: no'"]),
    # a key indented more than the key above it, which has a value
    ("name: x\nplayers: 3\n  games: 10\n", 3,
     ["'games' at column 3 is indented more than 'players' on line 2, which has a value of its "
      "own", "indent it like 'players'"]),
    ("cards:\n  overrides:\n    Plato: \"4I; IO\"\n   Krater: \"1W\"\n", 4,
     ["'Krater' at column 4 lines up with no line above it ('Plato' at column 5, 'overrides' at "
      "column 3, 'cards' at column 1)"]),
    ("strategies:\n  - greedy\n - random\n", 3,
     ["'- random' at column 2 lines up with no line above it ('- greedy' at column 3"]),
    ("strategies:\n  - family: patient\n   threshold: 12\n", 3,
     ["'threshold' at column 4 lines up with no line above it ('family' at column 5"]),
    ("strategies:\n  - greedy\n  seed: 1\n", 3,
     ["the key 'seed' at column 3 is among list items ('- greedy')"]),
    # two keys on one line (a mapping's value written after its key)
    ("name: x\nrules: hand_size: 9\n", 2,
     ["a second ':' at column 17 on one line", "put each key on a line of its own",
      "quote the value"]),
    # a tab indents a line
    ("name: x\nrules:\n\thand_size: 9\n", 3,
     ["a tab character at column 1 indents this line", "spaces only",
      "the line reads '\\thand_size: 9'"]),
    ("rules:\n  hand_size:\t9\n", 2, ["a tab character at column 13", "with a space"]),
    # a quote never closed: at the end of the file, or closed by the next line's opening quote
    ("name: \"x\nplayers: 3\n", 1,
     ["the quote \" opened at column 7 is never closed", "end the text with \" on the same "
      "line"]),
    ("cards:\n  overrides:\n    Plato: \"4I; IO\n    Krater: \"1W\"\n", 3,
     ["the quote \" opened at column 12 is never closed", "'    Plato: \"4I; IO'"]),
    ("name: 'it's'\n", 1, ["text after the closing quote ' at column 10", "'it''s'"]),
    # a bracket or brace never closed, closed twice, or closed by the other kind
    ("strategies: [greedy, random\nplayers: 3\n", 1,
     ["the list [ opened at column 13 is never closed (line 2 is still read as inside it)",
      "end it with ] after its last item"]),
    ("rules: {hand_size: 9\n", 1,
     ["the mapping { opened at column 8 is never closed (the file ends inside it)"]),
    ("strategies: [greedy]]\n", 1, ["the ] at column 21 closes nothing"]),
    ("strategies: [greedy, random}\n", 1,
     ["the list [ opened at column 13 of line 1 is closed with } at column 28"]),
    ("rules: {hand_size: 9 trading: no}\n", 1,
     ["a ',' is missing between two items of the mapping { opened at column 8"]),
    # a key without ': '
    ("players:3\nseed: 1\n", 1, ["'players:3' is not 'key: value'", "': ' (a colon, then a "
                                                                     "space)"]),
    ("name: x\nplayers 3\nseed: 1\n", 2, ["'players 3' is neither 'key: value' nor a list "
                                             "item"]),
    ("rules:\n  hand_size: 9\n  some note\n  trading: no\n", 3,
     ["'some note' is neither 'key: value' nor a list item"]),
    ("a title line\n# a note\nname: x\n", 1,
     ["'a title line' is neither 'key: value' nor a list item"]),
    ("name: @x\n", 1, ["a value cannot start with '@' (column 7) unless it is in quotes"]),
    ("name: x\n---\nplayers: 3\n", 2, ["a second document starts here ('---')"]),
    # a key given twice: both lines
    ("name: x\nplayers: 3\nname: y\n", 3, ["duplicate key 'name' (first on line 1)"]),
])
def test_yaml_mistakes_are_said_in_plain_words(tmp_path, text, line, fragments):
    p = write(tmp_path, "s.yaml", text)
    r = invoke("validate", p)
    assert r.exit_code == 2, r.output
    first = r.output.splitlines()[0]
    assert first.startswith(f"{p}:{line}: "), first
    for f in fragments:
        assert f in first, (f, first)
    for word in YAML_JARGON:
        assert word not in first.removeprefix(f"{p}:{line}: ").split("; the line reads")[0], \
            (word, first)


def test_a_yaml_mistake_in_a_card_file_names_that_file_and_line(tmp_path):
    cards = write(tmp_path, "c.yaml", "cards:\n  Grapes: \"1W\"\n\tVines: \"1W\"\n")
    p = write(tmp_path, "s.yaml", f"cards: {cards}\n")
    r = invoke("validate", p)
    assert r.exit_code == 2
    assert r.output.splitlines()[0].startswith(
        f"{cards}:3: a tab character at column 1 indents this line")


def test_pyyamls_own_words_show_under_debug_only(tmp_path):
    bad = write(tmp_path, "s.yaml", "name: x\nrules:\n    hand_size: 9\n  trading: no\n")
    r = invoke("run", bad, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "block mapping" not in r.output and "Traceback" not in r.output
    assert f"simsym: error: {bad}:4: 'trading' at column 3" in r.output
    r = invoke("--debug", "run", bad, "--out", tmp_path / "out")
    assert r.exit_code == 2
    assert "expected <block end>, but found '<block mapping start>'" in r.output


def test_a_broken_card_file_reports_every_entry(tmp_path):
    cards = write(tmp_path, "c.yaml", "cards:\n  A: \"2Q\"\n  B: {text: \"1W\", copies: -1}\n"
                  "  C: 5\n  a: \"1W\"\n  D: {txt: \"1W\"}\n")
    p = write(tmp_path, "s.yaml", f"cards: {cards}\n")
    errors = problems_of(p)
    assert [(Path(e.file).name, e.line) for e in errors] == [
        ("c.yaml", 2), ("c.yaml", 3), ("c.yaml", 4), ("c.yaml", 5), ("c.yaml", 6),
        ("c.yaml", 6)]


# --- the command line -------------------------------------------------------------------------

def test_validate_ok_and_problems(tmp_path):
    r = invoke("validate", BASE_SCENARIO, BASE_SCENARIO.parent / "mixed-rotate.yaml")
    assert r.exit_code == 0, r.output
    assert f"{BASE_SCENARIO}: ok (75 cards (75 in the deck), 4 players, mirror seating, " \
           "judges fast greedy, strong learned)" in r.output
    bad = write(tmp_path, "many.yaml", MANY)
    r = invoke("validate", BASE_SCENARIO, bad)
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert f"{bad}: 13 problems" in r.output
    assert f"{bad}:2: players:" in r.output and f"{bad}:19: strategies[0].late_run" in r.output


@pytest.mark.parametrize("command", [
    ["validate"], ["run", "--games", "2", "--quiet", "--no-report"], ["log"],
    ["best", "Plato", "--scenario"],
])
def test_every_command_taking_a_scenario_refuses_bad_input_with_exit_2(tmp_path, command):
    bad = write(tmp_path, "many.yaml", MANY)
    args = [*command, bad]
    if command[0] == "run":
        args += ["--out", tmp_path / "out"]
    r = invoke(*args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    assert "players: expected a whole number from 2 to 6, found 7" in r.output
    assert not (tmp_path / "out").exists()


def test_a_bug_is_exit_1_and_says_where_to_report_it(tmp_path, monkeypatch):
    import simsym.model.scenario

    def boom(path):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(simsym.model.scenario, "load_scenario", boom)
    r = invoke("validate", BASE_SCENARIO)
    assert r.exit_code == 1
    assert "internal error" in r.output and "report" in r.output
    assert "Traceback" not in r.output
    r = invoke("--debug", "validate", BASE_SCENARIO)
    assert r.exit_code == 1 and "Traceback" in r.output


def test_debug_shows_a_traceback_for_bad_input_too(tmp_path):
    bad = write(tmp_path, "s.yaml", "players: 9\n")
    assert "Traceback" not in invoke("run", bad).output
    r = invoke("--debug", "run", bad)
    assert r.exit_code == 2 and "Traceback" in r.output


# --- fuzzing ----------------------------------------------------------------------------------

NOTATION_TOKENS = (
    "0", "1", "2", "3", "5", "20", "21", "007", "99999999999999999999999", "W", "I", "H", "E",
    "1W", "2E", "3I", "4H", "or", "and", ";", ",", " ", "Container", "Vintage", "WC", "MW", "IO",
    "HO", "NI", "NH", "Requires 3+ WC", "Requires 7+ Wine Points", "Social Symposion Only",
    "(Worth 2W for Scoring)", "Draw 1 card when Played*", "Ὦ", "é", "١", "٣W", "Q", "??", "\t",
    "\n", "+", "(", ")", "*", "worth", "WINE", "requires",
)
good_notations = st.sampled_from([
    "1W", "2E; WC", "1W or 2E; Vintage", "5H; HO, Requires 3+ WC", "4I; IO", "3W; NI", "1E, MW",
    "1W and 1E, Container", "2W", "1W (Worth 2W for Scoring) Vintage", "٣W", "0W", "20E",
    "1E; Draw 1 card when Played*", "2E; Social Symposion Only", "1w OR 2e ; vintage"])
notations = st.one_of(
    st.lists(st.sampled_from(NOTATION_TOKENS), max_size=8).map(" ".join),
    st.lists(st.sampled_from(NOTATION_TOKENS), max_size=8).map("".join),
    st.sampled_from(["1W", "2E; WC", "1W or 2E; Vintage", "5H; HO, Requires 3+ WC", "4I; IO",
                     "3W; NI", "1E, MW", "1W and 1E, Container", "2W"]),
    st.text(max_size=12),
)
card_names = st.one_of(
    st.sampled_from(CARD_NAMES),
    st.sampled_from(CARD_NAMES).map(str.upper),
    st.sampled_from(CARD_NAMES).map(lambda n: n[:-1]),
    st.text(min_size=0, max_size=10),
    st.sampled_from(["Ὦ Οἶνος", "Straße", "STRASSE", "  ", "", "日本酒"]),
    st.integers(-3, 3),
)
huge = st.sampled_from([10**9, 10**18, 2**63, 10**30, -(10**30)])
junk = st.one_of(st.none(), st.booleans(), st.text(max_size=8), st.floats(allow_nan=False),
                 huge, st.lists(st.integers(0, 9), max_size=3),
                 st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


def sometimes(valid, weight=3):
    return st.one_of(*([valid] * weight), junk)


copies = sometimes(st.one_of(st.integers(0, 3), st.sampled_from([0, 1000, 1001, -1])))
card_entry = st.one_of(notations, st.fixed_dictionaries(
    {}, optional={"text": notations, "copies": copies,
                  "colour": st.just("red")}), junk)
cards_section = st.one_of(
    st.fixed_dictionaries({}, optional={
        "overrides": sometimes(st.dictionaries(card_names, card_entry, max_size=4)),
        "add": sometimes(st.dictionaries(card_names, card_entry, max_size=3)),
        "remove": sometimes(st.lists(card_names, max_size=3)),
        "fil": st.just("x"),
    }),
    junk,
)
# Rule values: mostly in or near their ranges.
RULE_VALUES = {
    "hand_size": st.sampled_from([0, 1, 2, 5, 9, 12, 24, 25, 30, 31]),
    "deck_runs": st.sampled_from([0, 1, 2, 3, 100, 101]),
    "turn_cap": st.sampled_from([0, 1, 30, 300, 1_000_001]),
    "discard_limit": st.integers(-1, 31),
    "komos_limit": st.integers(-1, 31),
    "trading": st.booleans(),
    "trade_between_others": st.booleans(),
    "uneven_trades": st.booleans(),
    "max_trades_per_turn": st.integers(-1, 5),
    "symposia_per_turn": st.integers(-1, 2),
    "wine_intellectual": st.lists(st.one_of(st.none(), st.integers(-1, 12)), min_size=0,
                                  max_size=3),
    "wine_social": st.tuples(st.integers(0, 8), st.one_of(st.none(), st.integers(0, 12))).map(
        list),
    "wine_hedonistic": st.tuples(st.integers(0, 8), st.one_of(st.none(), huge)).map(list),
    "wine_counts": st.sampled_from(["printed", "scored", "poured"]),
    "non_container_wine": st.integers(-1, 31),
    "max_vintage": st.integers(0, 3),
    "either_split": st.booleans(),
    "io_bars_mw": st.booleans(),
    "draw_may_join": st.booleans(),
    "chain_draws": st.booleans(),
    "social_bonus_equal": st.integers(0, 101),
    "social_bonus_all_equal": st.integers(0, 3),
    "social_bonus_stacks": st.booleans(),
    "bonus_wine": st.sampled_from(["printed", "scored"]),
    "ties": st.sampled_from(["shared", "split"]),
    "seat_compensation": st.lists(st.integers(-1001, 1001), max_size=7),
    "hand_sise": st.integers(),
}
rules_section = st.one_of(
    st.fixed_dictionaries({}, optional={k: sometimes(v, 6) for k, v in RULE_VALUES.items()}),
    junk)
strategy_entry = st.one_of(
    st.sampled_from(["greedy", "patient", "specialist", "random", "greedy ", "Greedy", "python"]),
    st.fixed_dictionaries({"family": st.sampled_from(["greedy", "patient", "specialist",
                                                      "random", "gredy"])}, optional={
        "threshold": sometimes(st.integers(0, 30)),
        "late_run": sometimes(st.integers(0, 3)),
        "favours": sometimes(st.sampled_from(["intellectual", "social", "hedonistic"])),
        "focus": sometimes(st.integers(0, 5)),
        "discard_max": sometimes(st.integers(0, 31)),
        "trade": sometimes(st.booleans()),
        "trade_inactive": sometimes(st.booleans()),
        "trade_candidates": sometimes(st.integers(0, 1001)),
        "wine_weight": sometimes(st.integers(0, 101)),
        "greed": st.integers(),
    }),
    junk)
sweep_section = st.one_of(
    st.fixed_dictionaries({"strategies": st.one_of(
        st.lists(st.one_of(strategy_entry, st.lists(strategy_entry, max_size=2)), max_size=3),
        junk)}, optional={"values": junk}),
    st.fixed_dictionaries({}, optional={"card": sometimes(st.sampled_from(CARD_NAMES)),
                                        "players": junk, "values": junk}),
    junk)
scenario_docs = st.fixed_dictionaries({}, optional={
    "extends": st.one_of(st.just(str(BASE_SCENARIO)), st.just(str(BASE_SCENARIO)),
                         st.just("nowhere.yaml"), st.just("s.yaml"), junk),
    "name": sometimes(st.text(min_size=1, max_size=12)),
    "description": sometimes(st.text(max_size=20)),
    "players": sometimes(st.integers(0, 8)),
    "games": sometimes(st.integers(0, 10**13)),
    "seed": sometimes(st.integers(-1, 2**64)),
    "seating": sometimes(st.sampled_from(["mirror", "rotate", "random", "mirrror"])),
    "strategies": st.one_of(st.lists(strategy_entry, max_size=7), strategy_entry),
    "rules": rules_section,
    "cards": cards_section,
    "sweep": sweep_section,
    "colour": st.just("red"),
})
broken_texts = st.one_of(
    st.text(alphabet=string.printable + "Ὦé日", max_size=80),
    st.tuples(scenario_docs, st.integers(0, 400), st.sampled_from(
        ["", ":", " [", "{", "- ", "\t", "&a ", "*a", "!!python/object ", "\"", "\n  x: 1\n"])
    ).map(lambda t: (lambda s: s[:t[1]] + t[2] + s[t[1]:])(
        yaml.safe_dump(t[0], allow_unicode=True))),
)
# Odd but valid: every value in range, Unicode names, 0 or 1000 copies, edge rule values.
valid_docs = st.fixed_dictionaries({"extends": st.just(str(BASE_SCENARIO))}, optional={
    "name": st.text(min_size=1, max_size=12).filter(str.strip),
    "description": st.text(max_size=20),
    "players": st.integers(2, 4),
    "games": st.sampled_from([1, 10**12]),
    "seed": st.sampled_from([0, 1, 2**63 - 1]),
    "cards": st.fixed_dictionaries({}, optional={
        "overrides": st.dictionaries(
            st.sampled_from(CARD_NAMES).map(str.lower),
            st.one_of(st.fixed_dictionaries({"copies": st.sampled_from([0, 1, 2, 1000])}),
                      st.sampled_from(["1W", "2E; WC", "1W or 2E; Vintage", "٣W; NI"])),
            max_size=4),
        "add": st.dictionaries(st.sampled_from(["Ὦ Οἶνος", "日本酒", "Straße", "Ünïcödé"]),
                               st.fixed_dictionaries({"text": st.just("2W; Vintage"),
                                                      "copies": st.sampled_from([0, 1000])}),
                               max_size=2),
        "remove": st.lists(st.sampled_from(["Orgy", "PLATO", "krater"]), max_size=2,
                           unique=True),
    }),
    "rules": st.fixed_dictionaries({}, optional={
        "hand_size": st.sampled_from([4, 9]), "discard_limit": st.integers(0, 4),
        "komos_limit": st.integers(0, 4), "turn_cap": st.sampled_from([1, 50]),
        "wine_social": st.sampled_from([[0, None], [3, 3], [5, 1000]]),
        "either_split": st.booleans(), "trading": st.booleans()}),
})
documents = st.one_of(scenario_docs.map(lambda d: yaml.safe_dump(d, allow_unicode=True)),
                      valid_docs.map(lambda d: yaml.safe_dump(d, allow_unicode=True)),
                      broken_texts)


def check_one(text: str, run_cli: bool) -> None:
    """The property: a Scenario the engine can play, or a SimsymError; nothing else."""
    from simsym.engine.compiled import run_chunk, setup_for

    with tempfile.TemporaryDirectory() as d:
        p = write(d, "s.yaml", text)
        try:
            sc = load_scenario(p)
        except SimsymError as e:
            event("refused")
            assert str(e).strip()
            for err in getattr(e, "errors", [e]):
                assert err.format().strip()
        else:
            # Uneven trades included: hands may outgrow the search's MAX_HAND positions, which
            # the engine must survive (tests/kernels/test_boundscheck.py runs this under
            # NUMBA_BOUNDSCHECK=1, so an index past an array fails loudly there).
            event("accepted")
            if all(s.family != "python" for s in sc.strategies):
                event("played")
                rows, _ = run_chunk(setup_for(sc), 0, 3)
                assert rows.shape[0] == 3
        if run_cli:
            r = invoke("validate", p)
            assert r.exit_code in (0, 2), r.output
            assert "Traceback" not in r.output


pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")
FUZZ = settings(max_examples=1000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(text=documents, run_cli=st.booleans())
def test_fuzz_scenarios_load_or_fail_cleanly(text, run_cli):
    check_one(text, run_cli)


@FUZZ
@given(names=st.lists(st.one_of(st.text(max_size=8), st.sampled_from(["Ὦ Οἶνος", "日本酒",
                                                                     "Straße", "ǅemal"])),
                     min_size=1, max_size=4, unique_by=lambda n: n.strip().casefold()),
       texts=st.lists(st.one_of(good_notations, notations), min_size=1, max_size=4),
       copies=st.lists(st.one_of(st.sampled_from([0, 1, 1000]), copies), max_size=4),
       players=st.integers(2, 3))
def test_fuzz_card_files_and_notation(names, texts, copies, players):
    entries = {}
    for i, name in enumerate(names):
        text = texts[i % len(texts)]
        entries[name] = {"text": text, "copies": copies[i]} if i < len(copies) else text
    entries["Filler Wine"] = {"text": "3W", "copies": 60}
    with tempfile.TemporaryDirectory() as d:
        write(d, "c.yaml", yaml.safe_dump({"cards": entries}, allow_unicode=True))
        check_one(yaml.safe_dump({"cards": str(Path(d) / "c.yaml"), "players": players},
                                 allow_unicode=True), run_cli=False)


@settings(max_examples=25, deadline=None)
@given(depth=st.integers(0, 40), broken=st.integers(-1, 40))
def test_fuzz_extends_chains(depth, broken):
    with tempfile.TemporaryDirectory() as d:
        prev = str(BASE_SCENARIO)
        for i in range(depth):
            extra = "players: 9\n" if i == broken else ""
            write(d, f"d{i}.yaml", f"extends: {prev}\n{extra}")
            prev = f"d{i}.yaml"
        path = Path(d) / prev if depth else BASE_SCENARIO
        if depth > MAX_EXTENDS_DEPTH or 0 <= broken < depth:
            with pytest.raises(SimsymError):
                load_scenario(path)
        else:
            assert load_scenario(path).players == 4


@pytest.mark.slow
@settings(max_examples=3000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=documents, run_cli=st.booleans())
def test_fuzz_scenarios_many(text, run_cli):
    check_one(text, run_cli)


def test_generated_documents_include_valid_scenarios():
    """Guard for the fuzz generator: it must not produce only broken files."""
    ok = 0

    @settings(max_examples=100, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(text=documents)
    def count(text):
        nonlocal ok
        with tempfile.TemporaryDirectory() as d:
            try:
                load_scenario(write(d, "s.yaml", text))
                ok += 1
            except SimsymError:
                pass

    count()
    assert ok >= 10, ok
