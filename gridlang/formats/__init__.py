"""Input and output formats: map files, layers, parameters, puzz.link URLs, answer files and screenshots."""
