"""Reports of a run: the terminal summary (the results JSON lives in ``results``)."""
