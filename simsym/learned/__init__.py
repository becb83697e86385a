"""The `learned` player: its features and model file (docs/game-engine.md 6.7), read by the
kernels and the reference engine alike. `simsym train` learns it (simsym.studies.train)."""
