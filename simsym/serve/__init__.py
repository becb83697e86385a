"""`simsym serve`: the balance workbench in the browser (docs/workbench.md)."""
