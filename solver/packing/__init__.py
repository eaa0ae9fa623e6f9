"""The search: the packing model and its greedy bound (`pack`), the exact set-packing branch and
bound (`setpack`), the race against the compact circuit model (`portfolio`, `compact_model`), the
evaluator's re-check of an answer (`recheck`), CP-SAT under a deadline (`cpsat`) and the time
budget of a solve (`budget`)."""
