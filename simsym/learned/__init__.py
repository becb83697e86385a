"""The `learned` player: its features and model file (docs/game-engine.md 6.7), and
`simsym train`, which learns it from the `lookahead` search."""
