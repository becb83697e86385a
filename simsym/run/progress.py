"""The progress display on stderr, drawn with rich: units done (games, trials), their rate
and the time left, and for work made of steps (a sweep's values, an ablation's cards, a
tune's trials, a ladder's pairings) an overall bar of the steps above the bar of the step
under way.

Drawn only on a terminal (the commands pass ``enabled``; ``--quiet`` turns it off). It is
redrawn from the caller's own updates, with no thread of its own, and does not take over
stdout or stderr: the runs fork worker processes while it shows, and a thread holding a
lock at a fork would leave that lock held in the child.
"""

from __future__ import annotations

import time

REFRESH_S = 0.2  # at most five redraws a second
LABEL = 28  # a step's label is cut to this many characters: the bars fit 80 columns


class Progress:
    """One bar of ``total`` units; :meth:`update` gives the units done so far (``start_at``
    of them before this process began: a resumed run).

    Nested: ``steps`` as a list of labels splits ``total`` in equal steps, and the overall
    bar follows :meth:`update`'s count ("value 2/5: 4I; IO"); ``steps`` as a number of steps
    leaves them to :meth:`stage`, each of its own size, and :meth:`update` then counts the
    units of the step under way.
    """

    def __init__(self, total: int, enabled: bool, stream=None, start_at: int = 0,
                 unit: str = "games", steps: list[str] | int | None = None,
                 step_word: str = "step"):
        self.total, self.enabled, self.unit = total, enabled, unit
        self.start_at = self.done = start_at
        self.labels = steps if isinstance(steps, list) and steps else None
        self.n_steps = len(steps) if isinstance(steps, list) else steps
        self.step_word = step_word
        self.last = 0.0
        self.step = -1  # the step under way, -1 before the first
        self.offset = 0  # units done before the step under way (labelled steps)
        self.size = total  # units of the step under way
        self.bars = None
        if not enabled:
            return
        import sys

        from rich.console import Console
        from rich.progress import BarColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as Bars

        console = Console(file=stream or sys.stderr, force_terminal=True, highlight=False)
        self.bars = Bars(TextColumn("{task.description}"), BarColumn(bar_width=30),
                         TextColumn("{task.fields[count]}"), TextColumn("{task.fields[rate]}"),
                         TextColumn("{task.fields[eta]}"), TimeRemainingColumn(),
                         console=console, auto_refresh=False, redirect_stdout=False,
                         redirect_stderr=False)
        self.outer = None
        if self.n_steps:
            self.outer = self.bars.add_task("", total=self.n_steps, count="", rate="", eta="")
        self.inner = self.bars.add_task("", total=total, completed=start_at,
                                        count=self._count(start_at, total), rate="",
                                        eta="ETA")
        self.t0 = time.perf_counter()
        if self.labels:
            self._enter(0, total // len(self.labels), self.labels[0])
        if self.labels or not self.n_steps:
            self.bars.start()  # steps by hand: from the first

    def _count(self, done, total) -> str:
        return f"{done:,}/{total:,} {self.unit}"

    def _enter(self, k: int, size: int, label: str, word: str | None = None):
        """Step k (0-based) begins, ``size`` units long."""
        self.step, self.size, self.t0 = k, size, time.perf_counter()
        n = self.n_steps
        if len(label) > LABEL:
            label = label[:LABEL - 1] + "…"
        self.bars.update(self.outer, completed=k, total=n,
                         description=f"{word or self.step_word} {k + 1}/{n}: {label}",
                         count=f"{k}/{n} done")
        self.bars.reset(self.inner, total=size, completed=0, count=self._count(0, size),
                        rate="", eta="ETA")
        if not self.bars.live.is_started:
            self.bars.start()
        self.bars.refresh()

    def stage(self, label: str, size: int, k: int | None = None, of: int | None = None,
              word: str | None = None):
        """A step begins (``steps`` given as a number): step ``k`` (0-based; default the
        next) of ``of`` (default as announced), shown as "{word} k+1/of: label", ``size``
        units long; :meth:`update` counts its units from 0. A long job may go through
        several series of steps (a tune's trials, then its finalists)."""
        self.done = 0
        if self.enabled:
            k = self.step + 1 if k is None else k
            self.n_steps = of or max(self.n_steps, k + 1)
            self._enter(k, size, label, word)

    def update(self, done: int, force: bool = False):
        self.done = done
        if not self.enabled:
            return
        if self.labels:
            each = self.total // len(self.labels)
            k = min(done // max(each, 1), len(self.labels) - 1)
            if k != self.step:
                self._enter(k, each if k < len(self.labels) - 1 else self.total - k * each,
                            self.labels[k])
                self.offset = k * each
        now = time.perf_counter()
        within = done - self.offset
        if not force and now - self.last < REFRESH_S and within < self.size:
            return
        self.last = now
        before = self.start_at if self.step <= 0 and not self.n_steps else 0
        rate = (within - before) / max(now - self.t0, 1e-9)
        self.bars.update(self.inner, completed=within, count=self._count(within, self.size),
                         rate=f"{rate:,.0f} {self.unit}/s")
        self.bars.refresh()

    def note(self, text: str):
        """A line of its own above the bars."""
        if self.enabled:
            self.bars.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def close(self):
        if not self.enabled:
            return
        if self.outer is not None and (self.done >= self.total if self.labels else
                                       self.step == self.n_steps - 1 and self.done >= self.size):
            n = self.bars.tasks[self.outer].total
            self.bars.update(self.outer, completed=n, count=f"{int(n)}/{int(n)} done")
        self.bars.refresh()
        self.bars.stop()
        self.enabled = False
