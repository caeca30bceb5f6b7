"""`pygen init`: find a project's node catalog, tsconfig and skills folder; write its config."""
