"""The model: the board and its track walked into legs, the answer types (`results`), errors,
the input limits, the strict JSON reader, the cancel token and the GC pause. Imports nothing else of
the solver."""
