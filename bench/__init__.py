"""Benchmarks: `python -m bench.<name>`, each printing its figures."""
