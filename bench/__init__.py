"""wirecore benchmarks: each ``bench/<name>.py`` prints a table and writes
``bench/results/<name>.json``; ``python -m bench.run_all`` runs them all."""
