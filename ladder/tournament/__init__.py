"""Fixed-schedule tournaments (issue 28, part 4): round robin, gauntlet and
Swiss schedules (schedule), committed before the first match (commitment),
planned into the ladder's store (plan), played exactly once on the ladder's
pool (run), and their final table (results)."""
