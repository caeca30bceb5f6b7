"""Stage 1, extract: run the bundled Node script (ts-morph) and read its reply into the model."""
