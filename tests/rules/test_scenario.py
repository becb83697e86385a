"""Scenario loading: extends, overrides, and clear errors naming file, line and key."""

import pytest

from simsym.errors import InputError
from simsym.model.rules import RuleOptions
from simsym.model.scenario import BASE_SCENARIO, load_scenario


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_base_scenario_is_the_rules_as_written():
    s = load_scenario(BASE_SCENARIO)
    assert s.rules == RuleOptions()
    assert s.players == 4 and len(s.cards) == 75


def test_extends_and_overrides(tmp_path):
    write(tmp_path, "a.yaml", f"extends: {BASE_SCENARIO}\nname: a\nrules:\n  hand_size: 10\n")
    b = write(tmp_path, "b.yaml", "extends: a.yaml\ncards:\n  overrides:\n    plato: \"4I; IO\"\n"
              "    Krater: {copies: 3}\n  add:\n    Nectar: \"2W; Vintage\"\n  remove: [Orgy]\n")
    s = load_scenario(b)
    assert s.rules.hand_size == 10
    assert s.cards[s.cards.index("Plato")].options[0].intellectual == 4
    assert s.cards[s.cards.index("Krater")].copies == 3
    assert s.cards.index("Nectar") is not None and s.cards.index("Orgy") is None
    assert s.cards.deck_size == 75 + 2 + 1 - 1


@pytest.mark.parametrize("text,fragments", [
    ("rules:\n  hand_sise: 8\n", ["line 3", "rules.hand_sise", "hand_size"]),
    ("rules:\n  komos_limit: -1\n", ["rules.komos_limit", "out of range"]),
    ("players: 7\n", ["players", "2 to 6"]),
    ("cards:\n  overrides:\n    Platoo: \"4I\"\n", ["Platoo", "Plato", "cards.overrides"]),
    ("cards:\n  overrides:\n    Plato: \"4Q\"\n", ["Plato", "4Q"]),
    ("rules: [1, 2]\n", ["rules", "mapping"]),
    ("colour: red\n", ["unknown key 'colour'"]),
    ("rules:\n  wine_counts: poured\n", ["printed", "scored"]),
])
def test_errors_name_file_line_and_key(tmp_path, text, fragments):
    p = write(tmp_path, "s.yaml", f"extends: {BASE_SCENARIO}\n{text}")
    with pytest.raises(InputError) as e:
        load_scenario(p)
    msg = str(e.value).replace(f"{p}:", "line ")
    assert str(p) in str(e.value)
    for f in fragments:
        assert f in msg, (f, msg)


def test_circular_and_missing_extends(tmp_path):
    write(tmp_path, "x.yaml", "extends: y.yaml\n")
    write(tmp_path, "y.yaml", "extends: x.yaml\n")
    with pytest.raises(InputError, match="circular"):
        load_scenario(tmp_path / "x.yaml")
    write(tmp_path, "z.yaml", "extends: nowhere.yaml\n")
    with pytest.raises(InputError, match="not found"):
        load_scenario(tmp_path / "z.yaml")


def test_empty_file_not_a_mapping_and_bad_yaml(tmp_path):
    with pytest.raises(InputError, match="empty"):
        load_scenario(write(tmp_path, "e.yaml", ""))
    with pytest.raises(InputError, match="mapping"):
        load_scenario(write(tmp_path, "l.yaml", "- a\n- b\n"))
    with pytest.raises(InputError, match=r"s\.yaml:2: the list \[ opened at column 12 is "
                       r"never closed \(the file ends inside it\)"):
        load_scenario(write(tmp_path, "s.yaml", "name: x\nrules: {a: [\n"))


def test_deck_too_small_to_deal(tmp_path):
    cards = write(tmp_path, "c.yaml", "cards:\n  Grapes: {text: \"1W\", copies: 20}\n")
    p = write(tmp_path, "s.yaml", f"cards: {cards}\nplayers: 3\n")
    with pytest.raises(InputError, match="too few to deal"):
        load_scenario(p)


def test_several_errors_are_reported_together(tmp_path):
    p = write(tmp_path, "s.yaml", f"extends: {BASE_SCENARIO}\nplayers: 7\ncolour: red\n"
              "rules:\n  hand_sise: 8\n")
    with pytest.raises(InputError) as e:
        load_scenario(p)
    lines = str(e.value).splitlines()
    assert lines == [
        f"{p}:2: players: expected a whole number from 2 to 6, found 7",
        f"{p}:3: colour: unknown key 'colour'; allowed: " + ", ".join(
            ("name", "description", "extends", "cards", "rules", "players", "strategies",
             "judges", "seating", "games", "seed", "balance", "sweep", "ladder", "tune",
                 "train")),
        f"{p}:5: rules.hand_sise: unknown rule option 'hand_sise' (did you mean 'hand_size'?); "
        "`simsym options` lists them",
    ]
    assert [err.line for err in e.value.errors] == [2, 3, 5]
