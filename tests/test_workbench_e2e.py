"""The workbench in a real browser: headless Chromium (Debian's) driven by Playwright against
a real `simsym serve` process -- load the page, break a card's notation and see the error,
fix it, run a comparison and see the verdict, deltas and plots, save the variant and find
the file, go back in the history, open a run report -- and that process's shutdown, which
no worker outlives.

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

from simsym.scenario import load_scenario
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
        page.screenshot(path=str(shots / "workbench-page.png"))

        # break the notation: the error shows on the card's row and in the problems list
        notation.fill("1W, Containr")
        err = page.locator(f"#err-text-{KRATER}")
        expect(err).to_contain_text("cannot read the property 'Containr'")
        expect(page.locator("#problems")).to_contain_text("variant.yaml:5: cards.overrides.Krater")
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
        expect(verdict).to_have_text(re.compile(r"^(B raises|B lowers|B does not|undecided)"),
                                     timeout=180_000)
        first = time.monotonic() - t0
        expect(verdict).to_have_text("B raises gih:Krater: the test favours +2 pp over no change",
                                     timeout=180_000)
        expect(page.locator("#seat-deltas tr")).to_have_count(4 + 2)  # header, 4 seats, gap
        expect(page.locator("#card-deltas")).to_contain_text("Krater")
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
