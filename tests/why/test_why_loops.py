"""Random long loops for the answers of loop genres: one simple cycle, runs between turns as asked,
the same loop from the same seed; and the Masyu they make is not a 2x2 loop of four pearls."""

from __future__ import annotations

import random

import pytest

from gridlang.why.generation.loops import boundary, one_cycle, random_loop, runs
from processes import gridlang_process


def test_a_region_of_two_faces_has_a_boundary_of_six_edges_one_cycle():
    edges = boundary({(0, 0), (0, 1)})
    assert len(edges) == 6 and one_cycle(edges) and runs(edges) == (1, 2)


def test_two_faces_meeting_at_a_corner_alone_are_no_cycle():
    assert not one_cycle(boundary({(0, 0), (1, 1)}))  # the corner (1, 1) has four edges


@pytest.mark.parametrize("seed, least, most, length", [(0, 2, 4, 16), (0, 1, 0, 94)])
def test_a_loop_is_one_cycle_with_its_runs_between_turns_as_asked(seed, least, most, length):
    size = 10 if least > 1 else 11
    edges = random_loop(size, size, random.Random(seed), least, most)
    assert one_cycle(edges) and len(edges) == length
    low, high = runs(edges)
    assert low >= least and (not most or high <= most)
    assert all(0 <= r < size and 0 <= c < size for e in edges for r, c in e)
    assert edges == random_loop(size, size, random.Random(seed), least, most)


def test_a_lattice_smaller_than_two_by_two_is_refused():
    with pytest.raises(ValueError, match="2x2 nodes at least, not 1x5"):
        random_loop(1, 5, random.Random(0))



def test_a_one_row_masyu_is_refused_in_a_sentence_where_no_loop_fits():
    done = gridlang_process("generate", "masyu", "--size", "1x6", "--seed", "1", "--time-limit", "30")
    assert done.returncode == 1
    line = done.stderr.strip()
    assert line.startswith("error: a blank 1x6 map of ") and "Traceback" not in done.stderr
    assert line.endswith("masyu.grid has no answer, even with the rules about clues left out")
