"""The core: records, errors, limits, the deadline, the grid and shapes; it imports nothing else of gridlang."""
