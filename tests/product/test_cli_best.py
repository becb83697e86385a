"""`simsym best` end to end through click's CliRunner, and once through the installed script."""

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from simsym.cli.main import main

KEYS = {"score", "type", "cards", "wine", "intellectual", "hedonistic", "bonus"}


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_best_human_output_shows_type_cards_choices_and_breakdown():
    r = run("best", "Plato", "Mathematics", "Science", "Education", "Grapes", "Vines",
            "Wine Mixed with Water", "Dancers")
    assert r.exit_code == 0, r.output
    assert "Intellectual Symposion, 18 points" in r.output
    assert "Plato" in r.output and "5I" in r.output
    assert "wine 3 + intellectual 15 + hedonistic 0 + bonus 0 = 18" in r.output
    assert "Not played: Dancers" in r.output


def test_best_json_from_file_in_input_order(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text("grapes, VINES, krater\n\n# a comment\nPlato, Grapes\n"
                 "Flutist,Singers,Dancers,Orgy,Overindulgence,Intoxication,Grapes,Komos,Kottabos\n")
    r = run("best", "--hands", str(f), "--json")
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in r.output.splitlines()]
    assert [row["score"] for row in rows] == [5, 0, 24]
    assert all(KEYS <= set(row) for row in rows)
    assert rows[0]["type"] == "social" and rows[0]["bonus"] == 2
    assert sorted(rows[0]["cards"]) == ["Grapes", "Krater", "Vines"]  # names as in the card data
    assert rows[1] == {**rows[1], "type": None, "cards": [], "score": 0}
    assert rows[2]["type"] == "hedonistic" and rows[2]["hedonistic"] == 18


def test_best_reads_stdin():
    r = run("best", "--hands", "-", "--json", input="Grapes, Vines, Krater\n")
    assert r.exit_code == 0
    assert json.loads(r.output)["score"] == 5


def test_unknown_card_names_it_suggests_and_exits_2_with_no_output(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text("Grapes, Vines, Krater\nPlatoo, Grapes\n")
    r = run("best", "--hands", str(f), "--json")
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert f"{f}:2" in r.output
    assert "'Platoo'" in r.output and "Plato" in r.output
    # No partial output pretends to be complete: the good first hand is not printed.
    assert '"score"' not in r.output


def test_malformed_line_names_its_line_number():
    r = run("best", "--hands", "-", input="Grapes, Vines\nGrapes,,Vines\n")
    assert r.exit_code == 2
    assert "<stdin>:2" in r.output and "malformed" in r.output


def test_missing_file_and_no_hand_are_clear_errors():
    r = run("best", "--hands", "/no/such/file.txt")
    assert r.exit_code == 2 and "file not found" in r.output
    r = run("best")
    assert r.exit_code == 2


def test_best_with_scenario_uses_its_cards(tmp_path):
    (tmp_path / "s.yaml").write_text(
        f"extends: {Path('scenarios/base.yaml').resolve()}\n"
        "cards:\n  overrides:\n    Plato: \"9I; IO\"\n")
    r = run("best", "--scenario", str(tmp_path / "s.yaml"), "--json", "Plato", "Grapes",
            "Vines", "Krater")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["score"] == 12


def test_type_and_require_options():
    r = run("best", "--json", "--type", "hedonistic", "Grapes", "Vines", "Krater")
    assert json.loads(r.output)["score"] == 0
    r = run("best", "--json", "--require", "Dancers", "Plato", "Mathematics", "Grapes", "Vines",
            "Wine Mixed with Water", "Dancers")
    row = json.loads(r.output)
    assert "Dancers" in row["cards"] and "Plato" not in row["cards"]


def test_installed_entry_point_runs():
    exe = Path(sys.executable).parent / "simsym"
    out = subprocess.run([str(exe), "best", "--json", "Grapes", "Vines", "Krater"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["score"] == 5
    bad = subprocess.run([str(exe), "best", "Grapez"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "Grapes" in bad.stderr
