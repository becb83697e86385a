"""Measure the workbench's edit-to-verdict loop for one-card changes (docs/workbench.md).

    python -m tests.workbench_loop [--jobs N] [--max-games G]

Starts `simsym serve` on a copy of scenarios/base.yaml, then for each change posts the form
as the page does and reads the job's timing off the server: seconds from the Run request to
the first look (the first verdict on the page) and to the decision, and the games each side
played by then.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

import httpx2 as httpx

from simsym.scenario import load_scenario
from simsym.serve.variant import base_fields
from tests.serving import scenarios_copy, serving

CHANGES = [("Krater", "2W, Container"), ("Dionysus", "1W or 3E"), ("Grapes", "1W or 1E"),
           ("Flutist", "3E, WC")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", default="1")
    ap.add_argument("--max-games", default="20000")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="simsym-loop-"))
    scenario = scenarios_copy(folder)
    base = load_scenario(scenario)
    with serving(scenario, "--jobs", args.jobs) as (_, url):
        time.sleep(5)  # the worker warms up while the designer reads the page
        for card, text in CHANGES:
            form = {**base_fields(base), f"text-{base.cards.index(card)}": text,
                    "max_games": args.max_games}
            t0 = time.monotonic()
            r = httpx.post(url + "/run", data=form, headers={"HX-Request": "true"}, timeout=60)
            job = int(re.search(r'id="job-(\d+)"', r.text)[1])
            while 'data-status="done"' not in (html := httpx.get(f"{url}/jobs/{job}").text):
                assert 'data-status="error"' not in html, html
                time.sleep(0.2)
            wall = time.monotonic() - t0
            first = re.search(r"first verdict after ([\d.]+) s", html)[1]
            verdict = re.search(r'id="verdict">([^<]*)<', html)[1]
            games = re.findall(r"<tr><td>([\d,]+)</td>", html)
            print(f"{card}: {text!r}: first verdict {first} s after {games[0]} games each; "
                  f"final after {wall:.1f} s, {games[-1]} games each: {verdict}")


if __name__ == "__main__":
    main()
