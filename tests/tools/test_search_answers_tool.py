"""tools/search_answers.py: its cases are seeded (two dumps agree), each row holds what the
search answers for its case, and a changed answer is found."""

import importlib.util
from pathlib import Path

import numpy as np

from simsym.core import enums as E

spec = importlib.util.spec_from_file_location(
    "search_answers", Path(__file__).parents[2] / "tools" / "search_answers.py")
search_answers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(search_answers)


def test_dumps_repeat_and_a_changed_answer_is_found(tmp_path, capsys):
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    assert search_answers.main(["dump", str(a), "--cases", "120"]) == 0
    assert search_answers.main(["dump", str(b), "--cases", "120"]) == 0
    got = np.load(a)
    # Every deck under every rule variant gets its share: 13 x 7 x 2 rows.
    assert got.shape == (13 * 7 * 2, search_answers.HEAD + 2 * E.RES.SIZE + 4 + 2)
    assert search_answers.main(["compare", str(a), str(b)]) == 0
    assert "182 cases, the same answers" in capsys.readouterr().out
    moved = got.copy()
    moved[5, search_answers.HEAD + E.RES.SCORE] += 1  # one full result's score
    np.save(tmp_path / "c.npy", moved)
    assert search_answers.main(["compare", str(a), str(tmp_path / "c.npy")]) == 1
    assert "1 of 182 cases differ; the first: [5]" in capsys.readouterr().out
    assert search_answers.compare(got, got[:-1]) == list(range(182))


def test_a_row_is_the_search_answer():
    rows = search_answers.answers(1)  # one case per deck and variant
    full = rows[:, search_answers.HEAD:search_answers.HEAD + E.RES.SIZE]
    assert (full[:, E.RES.TYPE] >= 0).any() and (full[:, E.RES.SCORE] > 0).any()
    # The score above the floor: returned, and written with its type; -1 and no type when
    # no play scores above the floor.
    score = rows[:, -2:]
    assert (score[:, E.RES.TYPE] >= 0).any() and (score[:, E.RES.TYPE] < 0).any()
    assert all(r[0] == (s[E.RES.SCORE] if s[E.RES.TYPE] >= 0 else -1)
               for r, s in zip(rows, score))
    play = rows[:, search_answers.HEAD + 2 * E.RES.SIZE:-2]
    # The play mode's fields (score, type, mask, cards) are the full search's.
    for j, field in enumerate(search_answers.PLAY_FIELDS):
        assert (play[:, j] == full[:, field]).all()
