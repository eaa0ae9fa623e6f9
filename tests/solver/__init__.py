"""Tests of the pure library `solver/`, one module per part of it."""
