"""The schema model, between stages 2 and 3: each node's data schema and the schema document
of all of them, which skills render from and validation checks against."""
