"""Measure the workbench's edit-to-verdict loop for one-card changes (docs/workbench.md).

    python -m tests.workbench_loop [--judge strong|fast ...] [--own-table] [--cold]
                                   [--click-at warm|up] [--jobs N] [--max-games G]

For each judge asked for (default: strong, then fast), starts `simsym serve --judge J` on a
copy of the base game judged by two tables (greedy fast, learned strong; `--own-table`: a
base of four greedy players of its own instead, no judge) and prints:

- how long the server took to answer, and then how long its worker took to warm up the
  tables (the page's "warming up" state, polled at /warm until ready);
- for each change, posted as the page posts it (with that judge): the seconds from the Run
  request to the first verdict the page can show (polling the job's panel as the page's
  stream does), the server's own figure for it, the games each side had played by then,
  the decision, and the table the verdict names.

`--click-at up` clicks Run as soon as the server answers, without waiting for the warm-up
(the first verdict then includes what is left of it). `--cold` gives the server an empty
numba cache (NUMBA_CACHE_DIR), so the warm-up compiles every kernel as after an install.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from html import unescape
from pathlib import Path

import httpx2 as httpx

from simsym.model.scenario import load_scenario
from simsym.serve.variant import base_fields
from tests.serving import scenarios_copy, serving

CHANGES = [("Krater", "2W, Container"), ("Dionysus", "1W or 3E"), ("Grapes", "1W or 1E"),
           ("Flutist", "3E, WC")]
HX = {"HX-Request": "true"}


def warm_up(url: str, timeout: float = 900) -> dict[str, float]:
    """Poll the page's warm-up state (/warm, as the page does) until every table is ready:
    the seconds after which each table first showed ready (the picked table's key), and
    after which all were ("all")."""
    t0, ready = time.monotonic(), {}
    while True:
        html = httpx.get(url + "/warm", timeout=10).text
        for state, table in re.findall(r'class="warm-state (\w*)" data-table="(\w+)"', html):
            if state in ("ready", "failed"):
                ready.setdefault(table, time.monotonic() - t0)
        if 'data-warm="ready"' in html:
            ready["all"] = time.monotonic() - t0
            return ready
        assert time.monotonic() - t0 < timeout, html
        time.sleep(0.1)


def first_verdict(url: str, form: dict) -> dict:
    """Run one variant; the client's seconds to its first verdict and to the end, and what
    the finished job's panel says."""
    t0 = time.monotonic()
    r = httpx.post(url + "/run", data=form, headers=HX, timeout=60)
    assert r.status_code == 200, r.text
    job = int(re.search(r'id="job-(\d+)"', r.text)[1])
    first = None
    while True:
        html = httpx.get(f"{url}/jobs/{job}", timeout=60).text
        assert 'data-status="error"' not in html, html
        if first is None and 'class="estimate"' in html:
            first = time.monotonic() - t0
        if 'data-status="done"' in html:
            break
        time.sleep(0.05)
    games = re.findall(r"<tr><td>([\d,]+)</td>", html)
    return {"first": first, "final": time.monotonic() - t0,
            "server_first": re.search(r"first verdict after ([\d.]+) s", html)[1],
            "first_games": games[0], "final_games": games[-1],
            "verdict": unescape(re.search(r'id="verdict">([^<]*)<', html)[1]),
            "table": unescape(re.search(r'class="judged-by"[^>]*>([^<]*)<', html)[1]).strip(
                " \u2014")}


def measure(judge: str, args) -> float:
    folder = Path(tempfile.mkdtemp(prefix="simsym-loop-"))
    scenario = scenarios_copy(folder, judged=not args.own_table)
    base = load_scenario(scenario)
    env = {"NUMBA_CACHE_DIR": str(folder / "numba")} if args.cold else None
    t0 = time.monotonic()
    with serving(scenario, "--jobs", args.jobs, "--judge", judge, env=env,
                 timeout=600) as (_, url):
        up = time.monotonic() - t0
        ready = warm_up(url) if args.click_at == "warm" else {}
        warm = ready.get("all")
        tables = ", ".join(f"{t} {s:.1f} s" for t, s in ready.items())
        print(f"--judge {judge}: the server answered after {up:.1f} s"
              + (f"; then its tables were ready after: {tables}" if ready else
                 "; Run clicked at once (no wait for the warm-up)"), flush=True)
        firsts = []
        for card, text in CHANGES:
            form = {**base_fields(base), f"text-{base.cards.index(card)}": text,
                    "max_games": args.max_games, "judge": judge}
            m = first_verdict(url, form)
            firsts.append(m["first"])
            print(f"  {card}: {text!r}: first verdict {m['first']:.1f} s (server: "
                  f"{m['server_first']} s) after {m['first_games']} games each; final after "
                  f"{m['final']:.1f} s, {m['final_games']} games each: {m['verdict']} "
                  f"[{m['table']}]", flush=True)
    print(f"--judge {judge}: first verdict of the first one-card change {firsts[0]:.1f} s "
          f"after the Run click, which came {warm or 0:.1f} s after the server answered "
          f"({up:.1f} s after its start)", flush=True)
    return firsts[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--judge", action="append", choices=["strong", "fast"],
                    help="the judge to measure (repeatable) [default: strong, then fast]")
    ap.add_argument("--own-table", action="store_true",
                    help="a base of four greedy players of its own (no judges)")
    ap.add_argument("--cold", action="store_true",
                    help="an empty numba cache: the warm-up compiles every kernel")
    ap.add_argument("--click-at", choices=["warm", "up"], default="warm",
                    help="click Run once the tables are warm, or as soon as the server answers")
    ap.add_argument("--jobs", default="1")
    ap.add_argument("--max-games", default="20000")
    args = ap.parse_args()
    for judge in args.judge or ["strong", "fast"]:
        measure(judge, args)


if __name__ == "__main__":
    main()
