"""Maps read off pictures: a picture opened within limits, its lattice of cells, each cell named by its nearest calibration cell."""
