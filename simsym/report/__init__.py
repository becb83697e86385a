"""The balance report of a run directory: report.md, cards_strength.csv and PNG figures."""

from simsym.report.build import build_report

__all__ = ["build_report"]
