"""Helpers the tests share: boards, brute-force solvers, cross-checks, fuzz strategies, clients."""
