"""Studies built on runs: paired comparisons, sweeps, ladders, tunes, the
learned player's training, and the pages that report them."""
