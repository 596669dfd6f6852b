"""Data files installed with gridlang: the colours for reading the game's screenshots
(``horse_colours.json``, rebuilt by ``gridlang calibrate-image``)."""
