"""The workbench in a real browser: headless Chromium (Debian's) driven by Playwright against
a real `simsym serve` process -- load the page, break a card's notation and see the error,
fix it, run a comparison and see the verdict, deltas and plots, save the variant and find
the file, go back in the history, open a run report; on a base judged by two tables, pick
the judge and see the verdict name the table that played it -- and that process's
shutdown, which no worker outlives.

Screenshots go to $SIMSYM_SCREENSHOTS when set (docs/img/ for docs/workbench.md), else to
the test's temporary directory.
"""

import os
import re
import signal
import time
from pathlib import Path

import httpx2 as httpx
import psutil
import pytest

from simsym.model.scenario import load_scenario
from tests.serving import KRATER, LONG_RUN, scenarios_copy, serving

pytestmark = pytest.mark.slow


@pytest.fixture
def shots(tmp_path):
    out = Path(os.environ.get("SIMSYM_SCREENSHOTS") or tmp_path / "shots")
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, headless=True,
                              args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def test_edit_break_fix_run_and_save_in_the_browser(tmp_path, browser, shots):
    from playwright.sync_api import expect

    scenario = scenarios_copy(tmp_path)
    with serving(scenario, "--jobs", "1") as (proc, url):
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.goto(url + "/")
        expect(page.locator("#deck tbody tr")).to_have_count(len(load_scenario(scenario).cards))
        notation = page.get_by_label("notation of Krater")
        expect(notation).to_have_value("1W, Container")
        # a base of its own strategies: the page names its one table and offers no judge
        expect(page.locator("#judge")).to_contain_text("Table: greedy players")
        expect(page.locator("#judge")).to_contain_text("no judge to choose")
        expect(page.locator("input[name=judge]")).to_have_count(0)
        expect(page.locator("#warm")).to_have_attribute("data-warm", "ready", timeout=300_000)
        page.screenshot(path=str(shots / "workbench-page.png"))

        # break the notation: the error shows on the card's row and in the problems list
        notation.fill("1W, Containr")
        err = page.locator(f"#err-text-{KRATER}")
        expect(err).to_contain_text("cannot read the property 'Containr'")
        expect(page.locator("#problems")).to_contain_text('Krater: notation "1W, Containr": ')
        page.locator("#deck tr", has_text="Krater").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "workbench-error.png"))

        # fix it (a stronger Krater): the error goes, the problems panel says ok
        notation.fill("2W, Container")
        expect(err).to_be_empty()
        expect(page.locator("#problems")).to_contain_text("ok: ")

        # run against the base: the verdict streams in first, then seats, cards, plots
        page.get_by_label("max games").fill("4000")
        t0 = time.monotonic()
        page.locator("#run").click()
        verdict = page.locator("#verdict")
        expect(verdict).to_have_text(re.compile(r"^Krater: strength against the table's "
                                                r"average "), timeout=180_000)
        first = time.monotonic() - t0
        # the headline: the estimate with its interval, judged by the one rule; the sequential
        # test only says why the play stopped
        expect(page.locator("#stop")).to_have_text(re.compile(
            r"^Stopped after [\d,]+ games each: the sequential test on card:Krater decided "
            r"\(it found a rise of at least 2 pp\)\.$"), timeout=180_000)
        expect(verdict).to_have_text(re.compile(
            r"^Krater: strength against the table's average [+-]\d+\.\d \u2192 [+-]\d+\.\d pp, "
            r"a change of \+\d+\.\d pp \([+-]\d+\.\d to [+-]\d+\.\d\): (a real change|its "
            r"interval excludes 0, but not told apart from noise once 90 changes are tested) — "
            r"under greedy players \(its own table\)$"))
        expect(page.locator("#balanced")).to_contain_text("What B changed in the answer: cards ")
        expect(page.locator("#seat-deltas tr")).to_have_count(4 + 2)  # header, 4 seats, gap
        expect(page.locator("#card-deltas")).to_contain_text("Krater")
        # how the game plays, every measure A against B with its paired interval
        expect(page.locator("#quality-deltas tr")).to_have_count(1 + 10)
        expect(page.locator("#quality-deltas tr").nth(1)).to_contain_text(re.compile(
            r"^turns\s*\d+\.\d\d turns\s*\d+\.\d\d turns\s*[+-]\d+\.\d\d \([+-]"))
        # what B changes opens the result; the changed card leads the exploratory table
        expect(page.locator("#what-changed")).to_contain_text(
            "Krater: 1W, Container → 2W, Container")
        expect(page.locator("#card-deltas tr").nth(1)).to_contain_text("Krater")
        expect(page.locator("h4", has_text="Cards: strength")).to_contain_text(
            "a real change, by the one rule (Holm over the 90 changes tested")
        plot = page.locator("img[alt='card strength change']")
        expect(plot).to_be_visible(timeout=60_000)
        page.wait_for_function("document.querySelector(\"img[alt='card strength change']\")"
                               ".naturalWidth > 0")
        print(f"\nedit-to-first-verdict: {first:.1f} s (click Run to the verdict on the page)")
        expect(page.locator("#history")).to_contain_text("Krater: 1W, Container → 2W, Container")
        page.screenshot(path=str(shots / "workbench-result.png"), full_page=False)

        # save the variant: the file is in the scenarios folder and loads
        page.locator("#save-name").fill("krater-2w")
        page.locator("#save").click()
        expect(page.locator("#save-status")).to_contain_text("saved")
        saved = tmp_path / "krater-2w.yaml"
        sc = load_scenario(saved)
        assert sc.cards[sc.cards.index("Krater")].text == "2W, Container"
        page.locator("#save").click()  # again: asks before overwriting
        expect(page.locator("#save-status")).to_contain_text("already exists")
        page.screenshot(path=str(shots / "workbench-saved.png"))

        # history: back to the base in one click
        page.locator("#history tr[data-variant='0'] button").click()
        expect(page.get_by_label("notation of Krater")).to_have_value("1W, Container")

        # a run directory's report, rendered in the page with its images
        page.goto(url + "/reports")
        page.get_by_role("link", name="base", exact=True).click()
        expect(page.locator("article h1").first).to_be_visible()
        img = page.locator("article img").first
        img.scroll_into_view_if_needed()
        page.wait_for_function("[...document.querySelectorAll('article img')]"
                               ".every(i => i.complete && i.naturalWidth > 0)")
        page.screenshot(path=str(shots / "workbench-report.png"))


def test_the_judge_is_picked_on_the_page(tmp_path, browser):
    """A judged base: the page offers both judges, strong checked, warms their tables at
    start, and each verdict names the table that played it; picking fast plays greedy."""
    from playwright.sync_api import expect

    scenario = scenarios_copy(tmp_path, judged=True)
    with serving(scenario, "--jobs", "1") as (proc, url):
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.goto(url + "/")
        strong, fast = page.get_by_label("strong (learned players)"), \
            page.get_by_label("fast (greedy players)")
        expect(strong).to_be_checked()
        expect(fast).not_to_be_checked()
        # the tables warm up while the page is open (the state polls until ready)
        expect(page.locator("#warm")).to_have_attribute("data-warm", "ready", timeout=300_000)
        expect(page.locator("#warm")).to_contain_text("the strong table (learned players): ready")

        page.get_by_label("notation of Krater").fill("2W, Container")
        expect(page.locator("#problems")).to_contain_text("judged by learned (strong)")
        page.get_by_label("max games").fill("2000")
        t0 = time.monotonic()
        page.locator("#run").click()
        judged_by = page.locator("#judged-by")
        expect(judged_by).to_have_text(" — under learned players (strong table)",
                                       timeout=180_000)
        print(f"\nstrong judge, click Run to the first verdict: {time.monotonic() - t0:.1f} s")
        expect(page.locator("#verdict")).to_have_text(re.compile(r"^Krater: strength "),
                                                      timeout=180_000)
        # one job at a time: the plots end it
        expect(page.locator("#job .job")).to_have_attribute("data-status", "done",
                                                            timeout=180_000)

        fast.check()
        expect(page.locator("#warm")).to_contain_text("the fast table (greedy players): ready")
        t0 = time.monotonic()
        page.locator("#run").click()
        expect(judged_by).to_have_text(" — under greedy players (fast table)", timeout=180_000)
        print(f"fast judge, click Run to the first verdict: {time.monotonic() - t0:.1f} s")
        expect(page.locator("#history")).to_contain_text("under greedy players (fast table)",
                                                         timeout=60_000)
        page.reload()  # the server keeps the pick
        expect(page.get_by_label("fast (greedy players)")).to_be_checked()


def descendants(pid: int) -> list[psutil.Process]:
    return psutil.Process(pid).children(recursive=True)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_no_process_outlives_the_server(tmp_path, signum):
    scenario = scenarios_copy(tmp_path)
    with serving(scenario, "--jobs", "2") as (proc, url):
        from simsym.serve.variant import base_fields

        # the pools play for minutes (a poll could miss one that lived a second)
        form = {**base_fields(load_scenario(scenario)), **LONG_RUN}
        r = httpx.post(url + "/run", data=form, headers={"HX-Request": "true"}, timeout=30)
        assert r.status_code == 200, r.text
        end = time.monotonic() + 120
        # the worker's pool of 2 is playing (one pool a look and side)
        while not any(len(k.children()) >= 2 for k in psutil.Process(proc.pid).children()):
            assert time.monotonic() < end, [p.name() for p in descendants(proc.pid)]
            time.sleep(0.2)
        kids = descendants(proc.pid)
        proc.send_signal(signum)
        assert proc.wait(30) == 128 + signum
        gone, alive = psutil.wait_procs(kids, timeout=10)
        assert alive == []
