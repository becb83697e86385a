"""Running many games: seeding, chunking, executors, aggregation and the run directory."""
