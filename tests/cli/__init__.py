"""Tests of the command line `routemax_cli/`: commands, errors, the batch audit and its report."""
