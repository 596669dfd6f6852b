"""Many puzzles: a resumable batch on a pool or Dask, its workers and results file, and the benchmark."""
