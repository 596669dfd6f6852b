"""Input formats: map files, layers, parameters, puzz.link URLs, screenshots, and the shipped specs and maps found by name."""
