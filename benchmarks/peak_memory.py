"""A command's wall time and the peak memory of its whole process tree, sampled from outside.

Usage::

    python benchmarks/peak_memory.py gridlang batch puzzles/horse.grid tests/data/horse --out r.jsonl
    python benchmarks/peak_memory.py python benchmarks/clingo_peer.py --batch 2 --maps '*'

Every 50 ms the command's process and all its descendants are read with
psutil, and their proportional set sizes (PSS: a page shared by n
processes counts 1/n in each, so the sum is what the tree holds) are
added up; the largest sum is the peak. Where PSS cannot be read (another
user's process, a system without it), the resident size (RSS) is used
instead, which counts shared pages once per process. Prints the wall
seconds, the peak in MiB and the command's exit code.
"""

from __future__ import annotations

import subprocess
import sys
import time

import psutil


def tree_memory(root: psutil.Process) -> int:
    """Bytes held by ``root`` and its descendants now (PSS, else RSS); 0 once they are gone."""
    total = 0
    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    for proc in processes:
        try:
            try:
                total += proc.memory_full_info().pss
            except (psutil.AccessDenied, AttributeError):
                total += proc.memory_info().rss
        except psutil.Error:
            continue  # ended between the listing and the reading
    return total


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    child = subprocess.Popen(argv)
    root = psutil.Process(child.pid)
    peak = 0
    while child.poll() is None:
        peak = max(peak, tree_memory(root))
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    print(f"wall {wall:.1f} s  peak memory {peak / 2**20:.0f} MiB (PSS of the process tree)  exit {child.returncode}",
          file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
