"""Balance analysis: pure functions from a run directory (or its parsed files) to DataFrames.

No plotting here; simsym.report draws and writes.
"""

from simsym.analysis.cards import card_strength
from simsym.analysis.degenerate import degenerate_findings
from simsym.analysis.rundir import Run, load_run
from simsym.analysis.seats import compensation, seat_equality_test, seat_table

__all__ = ["Run", "load_run", "card_strength", "seat_table", "seat_equality_test",
           "compensation", "degenerate_findings"]
