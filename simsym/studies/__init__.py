"""Studies of many runs judged together: paired comparisons, sequential tests, sweeps, the
ladder, tunes, the learned player's training, and the pages that report them."""
