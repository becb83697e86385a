"""`simsym serve`: the workbench's API through FastAPI's TestClient (the browser tests are in
tests/product/test_workbench_e2e.py).

One app (and one worker process) serves the module; it runs on a copy of the scenarios
folder, so saves land in a temporary directory. Its base names its own table (four greedy
players); a second app serves a copy judged by two tables (greedy fast, learned strong),
whose judge the page picks.
"""

import os
import re
import signal
import time
from html import unescape
from pathlib import Path

import pandas as pd
import psutil
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from simsym.errors import SimsymError
from simsym.model.scenario import REPO_ROOT, load_scenario
from simsym.serve.app import create_app
from simsym.serve.variant import Variant, base_fields, check
from tests.serving import KRATER, LONG_RUN, scenarios_copy

HX = {"HX-Request": "true"}
URL = "http://127.0.0.1:8765"


def copy_scenarios(dest: Path) -> Path:
    """The base game of four greedy players (its own table), with its card file."""
    return scenarios_copy(dest)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("scenarios")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    root = tmp_path_factory.mktemp("reports")
    run = root / "my-run"
    run.mkdir()
    (run / "report.md").write_text("# My run\n\n<script>alert(1)</script>\n\n"
                                   "| seat | win |\n| --- | --- |\n| 0 | 25.1 |\n\n"
                                   "![seats](seats.png)\n\n[data](cards.csv) "
                                   "[evil](javascript:alert(1))\n")
    (run / "seats.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    (root / "secret.txt").write_text("not for the page")
    return root


@pytest.fixture(scope="module")
def app(folder, reports):
    return create_app(copy_scenarios(folder), reports_dir=reports, port=8765, jobs=1)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app, base_url=URL) as c:
        yield c


@pytest.fixture
def form(app):
    return {**base_fields(app.state.session.base), "max_games": "4000", "block": "100"}


def problems(html: str) -> list[str]:
    return [unescape(x) for x in re.findall(r"<li><code>(.*?)</code></li>", html, re.S)]


def field_error(html: str, field: str) -> str:
    m = re.search(rf'id="err-{field}"[^>]*>([^<]*)<', html)
    return unescape(m[1]) if m else ""


def wait_job(app, job_id, timeout=300):
    jobs = app.state.session.manager.jobs
    end = time.monotonic() + timeout
    while not jobs[job_id].finished:
        assert time.monotonic() < end, f"job {job_id} still {jobs[job_id].status}"
        time.sleep(0.2)
    return jobs[job_id]


def job_id(html: str) -> int:
    return int(re.search(r'id="job-(\d+)"', html)[1])


# --- the page and validation as you type ----------------------------------------------------

def test_page_shows_every_card_editable(client, app):
    html = client.get("/").text
    base = app.state.session.base
    for i, c in enumerate(base.cards):
        assert f'name="text-{i}" value="{c.text}"'.replace("&", "&amp;") in html
        assert f'id="cat-{i}" class="cat {c.category}"' in html
    assert 'src="/static/htmx-2.0.11.min.js"' in html
    assert client.get("/static/htmx-2.0.11.min.js").text.startswith("var htmx")


def test_a_broken_notation_gets_the_validate_message(client, form, tmp_path):
    form[f"text-{KRATER}"] = "1W, Containr"
    html = client.post("/validate", data=form, headers=HX).text
    shown = problems(html)
    assert len(shown) == 1 and "cannot read the property 'Containr'" in shown[0]
    assert field_error(html, f"text-{KRATER}") == shown[0]
    # the same variant saved as a file: `simsym validate` says the same, where the page
    # names the card and the field instead of the file's line
    yaml_text = unescape(re.search(r'<pre id="yaml">(.*?)</pre>', html, re.S)[1])
    (tmp_path / "variant.yaml").write_text(yaml_text)
    from simsym.cli.main import main

    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        res = CliRunner().invoke(main, ["validate", "variant.yaml"])
    finally:
        os.chdir(old)
    assert res.exit_code == 2
    said = res.output.splitlines()[0]
    assert said.startswith("variant.yaml:5: cards.overrides.Krater: card 'Krater': ")
    assert shown[0] == 'Krater: notation "1W, Containr": ' + said.split("card 'Krater': ", 1)[1]
    form[f"text-{KRATER}"] = "2W, Container"
    html = client.post("/validate", data=form, headers=HX).text
    assert problems(html) == [] and "ok: " in html
    assert field_error(html, f"text-{KRATER}") == ""


def test_rule_and_copies_problems_land_on_their_fields(client, form):
    form["rule-hand_size"] = "lots"
    form[f"copies-{KRATER}"] = "-1"
    html = client.post("/validate", data=form, headers=HX).text
    assert field_error(html, "rule-hand_size") == (
        'rules.hand_size "lots": expected a whole number from 1 to 30, found \'lots\'')
    assert field_error(html, f"copies-{KRATER}") == (
        'Krater: copies "-1": copies must be a whole number from 0 to 1000, found -1')
    assert len(problems(html)) == 2


def test_a_problem_names_the_card_and_field_edited_not_the_variant_file(client, app, form):
    plato = [c.name for c in app.state.session.base.cards].index("Plato")
    form[f"text-{plato}"] = "5X; IO"
    form["strategies"] = "[nope]"
    html = client.post("/validate", data=form, headers=HX).text
    shown = problems(html)
    said = field_error(html, f"text-{plato}")
    assert said in shown
    assert said.startswith('Plato: notation "5X; IO": cannot read a point value at \'5X\'')
    assert "allowed letters: W (Wine), I (Intellectual)" in said and said.endswith(
        "e.g. '5I; IO'")
    assert field_error(html, "strategies").startswith(
        'strategies "[nope]": strategies[0].family: unknown strategy \'nope\'')
    # a field the form reads as YAML: the mistake in words, without PyYAML's tokens
    html = client.post("/validate", data={**form, "rule-wine_social": "[3,"}, headers=HX).text
    assert field_error(html, "rule-wine_social").startswith(
        'rules.wine_social "[3,": cannot read it: the list [ opened at column 1 is never closed')
    for text in (*shown, *problems(html), field_error(html, "rule-wine_social")):
        assert "variant.yaml" not in text and "simsym-serve-" not in text and "<" not in text


def test_a_category_follows_the_notation(client, form):
    form[f"text-{KRATER}"] = "2E"  # was a wine card
    html = client.post("/validate", data=form, headers=HX).text
    assert re.search(rf'id="cat-{KRATER}" class="cat (\w+)"', html)[1] == "either"


# --- safety -----------------------------------------------------------------------------------

def test_a_foreign_host_header_is_refused(client):
    r = client.get("/", headers={"Host": "evil.example:8765"})
    assert r.status_code == 400 and "not this server's" in r.text
    assert client.get("/", headers={"Host": "localhost:8765"}).status_code == 200
    assert client.get("/", headers={"Host": "127.0.0.1:9999"}).status_code == 400


def test_changes_come_from_the_page_only(client, form):
    assert client.post("/validate", data=form).status_code == 403  # no HX-Request: a form post
    r = client.post("/validate", data=form, headers={**HX, "Origin": "http://evil.example"})
    assert r.status_code == 403


def test_bad_run_settings_get_clear_messages(client, form):
    for key, value, says in (("delta", "lots", "delta 'lots': expected percentage points"),
                             ("metric", "gih:Nope", "no card named 'Nope'"),
                             ("max_games", "-5", "max games: expected a whole number")):
        r = client.post("/run", data={**form, key: value}, headers=HX)
        assert r.status_code == 400 and says in unescape(r.text), r.text
        assert "Traceback" not in r.text


def test_a_variant_with_problems_is_not_run(client, form):
    form[f"text-{KRATER}"] = "1W, Containr"
    r = client.post("/run", data=form, headers=HX)
    assert r.status_code == 400 and "Fix the variant first" in r.text


# --- save -------------------------------------------------------------------------------------

def test_save_writes_a_scenario_that_extends_the_base(client, form, folder):
    form[f"text-{KRATER}"] = "2W, Container"
    form["rule-hand_size"] = "8"
    r = client.post("/save", data={**form, "save_name": "krater-2w"}, headers=HX)
    assert r.status_code == 200 and "saved" in r.text
    path = folder / "krater-2w.yaml"
    sc = load_scenario(path)
    assert sc.name == "krater-2w" and sc.rules.hand_size == 8
    assert sc.cards[sc.cards.index("Krater")].text == "2W, Container"
    assert "extends: base.yaml" in path.read_text()
    before = path.read_text()
    form["rule-hand_size"] = "10"
    r = client.post("/save", data={**form, "save_name": "krater-2w"}, headers=HX)
    assert r.status_code == 409 and "already exists" in r.text
    assert path.read_text() == before  # not overwritten without asking
    r = client.post("/save", data={**form, "save_name": "krater-2w", "overwrite": "yes"},
                    headers=HX)
    assert r.status_code == 200 and load_scenario(path).rules.hand_size == 10


@pytest.mark.parametrize("name", ["../escape", "a/b", "", ".hidden", "x" * 65, "/etc/x"])
def test_save_refuses_names_outside_the_folder(client, form, folder, name):
    listing = sorted(p.name for p in folder.parent.rglob("*"))
    r = client.post("/save", data={**form, "save_name": name}, headers=HX)
    assert r.status_code == 400 and "allowed: 1 to 64 letters" in unescape(r.text)
    assert sorted(p.name for p in folder.parent.rglob("*")) == listing


# --- reports ----------------------------------------------------------------------------------

def test_a_run_report_renders_safely_with_its_images(client):
    assert "my-run" in client.get("/reports").text
    html = client.get("/reports/view", params={"dir": "my-run"}).text
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<table>" in html and "href=\"javascript:" not in html
    assert 'src="/reports/file?dir=my-run&amp;name=seats.png"' in html
    r = client.get("/reports/file", params={"dir": "my-run", "name": "seats.png"})
    assert r.status_code == 200 and r.content.startswith(b"\x89PNG")


@pytest.mark.parametrize("params", [{"dir": "..", "name": "x"}, {"dir": "my-run",
                                    "name": "../secret.txt"}, {"dir": "/etc", "name": "passwd"}])
def test_report_files_outside_the_reports_folder_are_refused(client, params):
    r = client.get("/reports/file", params=params)
    assert r.status_code == 400 and "outside the reports folder" in r.text


# --- running ----------------------------------------------------------------------------------

def test_a_run_streams_looks_and_matches_simsym_compare(client, app, form, folder):
    form[f"text-{KRATER}"] = "2W, Container"
    r = client.post("/run", data=form, headers=HX)
    assert r.status_code == 200 and 'sse-connect="/jobs/' in r.text
    st = wait_job(app, job_id(r.text))
    assert st.status == "done", st.error
    look = st.last
    assert look["metric"] == "card:Krater" and look["verdict"] == "greater"
    assert look["lo"] > 0.02 or look["verdict"] != "greater" or look["mean"] > 0.02
    # the point estimates are simsym compare's on the same games (batching moves only the
    # intervals): run it on the saved variant
    path = folder / "krater-run.yaml"
    client.post("/save", data={**form, "save_name": "krater-run", "overwrite": "yes"},
                headers=HX)
    from simsym.studies.compare import compare, rule_words

    c = compare(str(folder / "base.yaml"), str(path), games=look["games"])
    win = c.seats[c.seats["metric"] == "win_rate"]["diff"].tolist()
    assert [s["diff"] for s in look["seats"]] == pytest.approx(win, abs=1e-12)
    strength = c.cards[(c.cards["metric"] == "strength") & (c.cards["name"] == "Krater")]
    krater = next(x for x in look["cards"] if x["name"] == "Krater")
    assert krater["diff"] == pytest.approx(float(strength["diff"].iloc[0]), abs=1e-12)
    assert look["subject"]["diff"] == krater["diff"]  # the headline's is the card table's
    # the stream: an update with the headline (the estimate and the one rule), then "done"
    events = client.get(f"/jobs/{st.id}/events").text
    d = look["subject"]
    assert "event: update" in events
    assert (f"Krater: strength against the table's average {100 * d['A']:+.1f} \u2192 "
            f"{100 * d['B']:+.1f} pp, a change of {100 * d['diff']:+.1f} pp "
            f"({100 * d['lo']:+.1f} to {100 * d['hi']:+.1f}): {d['words']}") in unescape(events)
    assert d["words"] == rule_words(pd.Series(d), look["tested"])
    assert "the sequential test on card:Krater decided (it found a rise of at least" in events
    assert "under greedy players (its own table)" in events  # the one table that plays
    assert events.rstrip().endswith("data: finished")
    for name in ("trace", "seats", "cards"):
        png = client.get(f"/jobs/{st.id}/plots/{name}.png")
        assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    # the same run again comes from the cache, without playing
    again = client.post("/run", data=form, headers=HX)
    assert "(cached result)" in again.text
    assert app.state.session.manager.jobs[job_id(again.text)].looks == st.looks


def test_history_goes_back_and_compares_two(client, app, form):
    hist = client.get("/history").text
    assert "Krater: 1W, Container → 2W, Container" in unescape(hist)
    rows = re.findall(r'data-variant="(\d+)"(.*?)</tr>', unescape(hist), re.S)
    vid = next(int(v) for v, row in rows if "Krater: 1W, Container → 2W, Container</li>" in row
               and row.count("<li>") == 1)
    back = client.get(f"/variants/{vid}").text
    assert f'name="text-{KRATER}" value="2W, Container"' in back
    r = client.post("/compare", data={**form, "pick": ["0", str(vid)]}, headers=HX)
    st = wait_job(app, job_id(r.text))
    assert st.status == "done" and st.last["verdict"] == "greater"  # base -> variant, again
    r = client.post("/compare", data={**form, "pick": ["0"]}, headers=HX)
    assert r.status_code == 400 and "pick exactly two" in r.text


def long_run(client, form):
    """A run that will not decide soon (tests.serving.LONG_RUN)."""
    form = {**form, **LONG_RUN, "seed": str(int(time.time()))}
    r = client.post("/run", data=form, headers=HX)
    assert r.status_code == 200, r.text
    return job_id(r.text)


def test_one_job_at_a_time_and_cancel_ends_the_worker(client, app, form):
    mgr = app.state.session.manager
    jid = long_run(client, form)
    r = client.post("/run", data={**form, "text-2": "3W, Container"}, headers=HX)
    assert r.status_code == 409 and "already running" in r.text
    pid = mgr.worker_pid
    r = client.post("/cancel", headers=HX)
    assert "Cancelled" in r.text and mgr.jobs[jid].status == "cancelled"
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert mgr.worker_pid != pid
    r = client.post("/run", data={**form, "text-2": "3W, Container"}, headers=HX)
    assert wait_job(app, job_id(r.text)).status == "done"


def test_a_crashed_worker_shows_its_error_and_the_server_goes_on(client, app, form):
    mgr = app.state.session.manager
    jid = long_run(client, form)
    time.sleep(1)
    os.kill(mgr.worker_pid, signal.SIGKILL)
    st = wait_job(app, jid, timeout=30)
    assert st.status == "error" and "the worker process died (exit code -9)" in st.error
    html = client.get(f"/jobs/{jid}").text
    assert "the job failed" in html and "Traceback" not in html
    r = client.post("/run", data={**form, "text-2": "2W and 1E, Container"}, headers=HX)
    assert wait_job(app, job_id(r.text)).status == "done"


# --- the command ------------------------------------------------------------------------------

def test_serve_refuses_bad_arguments_in_one_line(tmp_path):
    import socket

    from simsym.cli.main import main

    res = CliRunner().invoke(main, ["serve", str(tmp_path / "nope.yaml")])
    assert res.exit_code == 2 and "nope.yaml: file not found" in res.output
    scenario = copy_scenarios(tmp_path)
    res = CliRunner().invoke(main, ["serve", str(scenario), "--scenarios", str(tmp_path / "x")])
    assert res.exit_code == 2 and "not a directory" in res.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        res = CliRunner().invoke(main, ["serve", str(scenario), "--port", str(port)])
    assert res.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in res.output
    assert "Traceback" not in res.output


def test_the_server_keeps_a_chunk_cache_for_its_life(monkeypatch, tmp_path):
    """The base's blocks are played once per server: `simsym serve` runs with a chunk cache,
    the user's SIMSYM_CACHE if set, else its own temporary folder, removed when it stops."""
    from simsym.cli import serve as serve_cli
    from simsym.run.cache import ENV

    seen = []
    monkeypatch.setattr(serve_cli, "_serve", lambda *a: seen.append(os.environ.get(ENV)))
    monkeypatch.delenv(ENV, raising=False)
    assert CliRunner().invoke(serve_cli.serve, []).exit_code == 0
    own = Path(seen[-1])
    assert own.name.startswith("simsym-serve-cache-") and not own.exists()
    assert ENV not in os.environ
    monkeypatch.setenv(ENV, str(tmp_path))
    assert CliRunner().invoke(serve_cli.serve, []).exit_code == 0
    assert seen[-1] == str(tmp_path) and tmp_path.exists()


def test_an_installed_base_saves_beside_the_user(tmp_path, monkeypatch):
    """With simsym installed (its scenarios in the package, not a checkout), `simsym serve`
    saves variants in ./scenarios/ of the current directory, extending `simsym:base`, never
    into the package."""
    from simsym.model import packaged
    from simsym.serve.variant import Variant, saved_text

    installed = tmp_path / "site-packages" / "simsym" / "data"
    installed.mkdir(parents=True)
    copy_scenarios(installed)
    monkeypatch.setattr(packaged, "data_dir", lambda: installed)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    app = create_app(installed / "base.yaml", port=8765, jobs=1)
    session = app.state.session
    assert session.scenarios_dir == work / "scenarios" and session.scenarios_dir.is_dir()
    assert packaged.installed_name(installed / "base.yaml") == "simsym:base"
    text = saved_text(session.base, Variant(base_fields(session.base)), session.scenarios_dir,
                      "mine")
    assert "extends: simsym:base" in text
    assert packaged.installed_name(REPO_ROOT / "scenarios" / "base.yaml") is None


# --- judges: the table a comparison is played under -------------------------------------------

@pytest.fixture(scope="module")
def judged_app(tmp_path_factory):
    """The base game judged by two tables (greedy fast, learned strong), as base.yaml is."""
    folder = tmp_path_factory.mktemp("judged")
    return create_app(scenarios_copy(folder, judged=True), reports_dir=folder, port=8765,
                      jobs=1)


@pytest.fixture(scope="module")
def judged(judged_app):
    with TestClient(judged_app, base_url=URL) as c:
        yield c


def judged_form(app, **changes):
    return {**base_fields(app.state.session.base), "max_games": "2000", "block": "100",
            **changes}


def radios(html: str) -> dict[str, str]:
    """The judge radios of the page: value -> its label, with "*" after the checked one."""
    out = {}
    for attrs, label in re.findall(r'<input type="radio" name="judge" ([^>]*)>([^<]*)</label>',
                                   html):
        value = re.search(r'value="(\w+)"', attrs)[1]
        out[value] = label.strip() + (" *" if " checked" in attrs else "")
    return out


def test_a_judged_base_offers_the_judge_strong_by_default(judged, judged_app):
    html = judged.get("/").text
    assert radios(html) == {"strong": "strong (learned players) *", "fast": "fast (greedy players)"}
    # the side panel shows the judges, and no table of its own in `strategies`
    assert 'name="judges" value="{fast: greedy, strong: learned}"' in html
    assert 'name="strategies" value=""' in html
    assert "judged by learned (strong) and greedy (fast)" in html
    assert judged_app.state.session.judge == "strong"


def test_a_base_with_its_own_table_offers_no_judge(client):
    html = client.get("/").text
    assert radios(html) == {} and 'name="judges"' not in html
    table = re.search(r'<div id="judge".*?<div id="warm"', html, re.S)[0]
    assert "Table:</span> greedy players" in table and "no judge to choose" in table


def test_a_card_edit_on_a_judged_base_keeps_the_judges(judged_app, tmp_path):
    """The variant extends the base and restates the card only: each judge's table of the
    variant is the base's under that judge but for the card."""
    base = judged_app.state.session.base
    v = Variant.from_form(base, judged_form(judged_app, **{f"text-{KRATER}": "2W, Container"}))
    checked = check(base, v)
    assert checked.problems == [] and checked.scenario.judges
    assert "strategies" not in checked.text and "judges" not in checked.text
    for role in ("strong", "fast"):
        a, b = base.judge(role), checked.scenario.judge(role)
        assert (a.judged_by, a.strategies) == (b.judged_by, b.strategies) \
            == (role, [base.judges[role]])
        assert (a.players, a.seating, a.rules) == (b.players, b.seating, b.rules)
        differ = [(x.name, x.text, y.text) for x, y in zip(a.cards, b.cards)
                  if (x.name, x.text, x.copies) != (y.name, y.text, y.copies)]
        assert differ == [("Krater", "1W, Container", "2W, Container")]
        assert len(a.cards) == len(b.cards)
    # typing a table in `strategies` gives the variant that one table instead of the judges
    own = check(base, Variant.from_form(base, judged_form(judged_app, strategies="[patient]")))
    assert own.scenario.judges is None
    assert own.scenario.judge("fast").strategies[0].family == "patient"
    assert own.scenario.judge("strong").judged_by is None


def test_each_judge_plays_and_names_its_table(judged, judged_app):
    form = judged_form(judged_app, **{f"text-{KRATER}": "2W, Container"})
    r = judged.post("/run", data=form, headers=HX)  # no judge in the form: the page's, strong
    strong = wait_job(judged_app, job_id(r.text))
    assert strong.status == "done", strong.error
    html = unescape(judged.get(f"/jobs/{strong.id}").text)
    assert re.search(r'id="judged-by"> — under learned players \(strong table\)<', html)
    r = judged.post("/run", data={**form, "judge": "fast"}, headers=HX)
    fast = wait_job(judged_app, job_id(r.text))
    assert fast.status == "done" and not fast.cached  # another table: not the strong's result
    assert fast.table == "under greedy players (fast table)"
    assert "under greedy players (fast table)" in unescape(judged.get(f"/jobs/{fast.id}").text)
    assert fast.looks[0]["cards"] != strong.looks[0]["cards"]
    assert judged_app.state.session.judge == "fast"  # the page's pick from now on
    assert 'value="fast" checked' in judged.get("/").text
    # each judge's result is cached on its own, and says its table
    again = judged.post("/run", data={**form, "judge": "strong"}, headers=HX).text
    assert "(cached result)" in again and "under learned players (strong table)" in unescape(again)
    hist = unescape(judged.get("/history").text)
    assert '<div class="judged-by">under learned players (strong table)</div>' in hist


def test_a_bad_judge_is_refused_in_one_line(judged, judged_app):
    form = judged_form(judged_app, **{f"text-{KRATER}": "2W, Container"}, judge="medium")
    for url in ("/run", "/judge"):
        r = judged.post(url, data=form, headers=HX)
        assert r.status_code == 400 and "judge 'medium': allowed: strong" in unescape(r.text)
        assert "Traceback" not in r.text
    with pytest.raises(SimsymError, match="judge 'medium'"):
        create_app(REPO_ROOT / "scenarios" / "base.yaml", judge="medium", start_worker=False)


def test_the_page_shows_the_tables_warming_up_then_ready(judged, judged_app):
    mgr = judged_app.state.session.manager
    end = time.monotonic() + 300
    while 'data-warm="ready"' not in (html := judged.get("/warm").text):
        assert 'hx-trigger="every 1s"' in html  # the page polls while a table warms
        assert time.monotonic() < end, html
        time.sleep(0.2)
    assert f"the {judged_app.state.session.judge} table (" in html and ": ready" in html
    assert "hx-trigger" not in html  # ready: no more polling
    states = dict(mgr.warmth)
    try:  # as a fresh worker shows it: the picked table warming, the other waiting its turn
        mgr.warmth.update(strong="warming", fast="waiting")
        r = judged.post("/judge", data={"judge": "strong"}, headers=HX).text
        assert 'data-warm="warming"' in r
        assert r.index('data-table="strong"') < r.index('data-table="fast"')
        assert "warming up the strong table (learned players)" in unescape(r)
        assert "the fast table (greedy players): waiting its turn" in unescape(r)
    finally:
        mgr.warmth.update(states)
    r = judged.post("/judge", data={"judge": "fast"}, headers=HX).text
    assert unescape(r).count("the fast table (greedy players): ready") == 1
    assert judged_app.state.session.judge == "fast"


def test_serve_takes_the_first_judge_from_the_command_line(monkeypatch, tmp_path):
    from simsym.cli import serve as serve_cli
    from simsym.cli.main import main

    seen = []
    monkeypatch.setattr(serve_cli, "_serve", lambda *a: seen.append(a[-1]))
    for args, judge in (([], "strong"), (["--judge", "fast"], "fast")):
        assert CliRunner().invoke(serve_cli.serve, args).exit_code == 0
        assert seen[-1] == judge
    res = CliRunner().invoke(main, ["serve", "--judge", "medium"])
    assert res.exit_code == 2 and "'medium' is not one of 'strong', 'fast'" in res.output
    app = create_app(scenarios_copy(tmp_path, judged=True), judge="fast", start_worker=False)
    with TestClient(app, base_url=URL) as c:
        assert radios(c.get("/").text)["fast"] == "fast (greedy players) *"
