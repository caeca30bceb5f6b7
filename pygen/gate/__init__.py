"""Stage 4, gate: what `check` and `doctor` report for a person (drift, hand edits, stale prose)."""
