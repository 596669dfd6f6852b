"""Pictures and text of a map and its answer: one canvas with a writer per format, looks, styles, text drawing and plots."""
