"""The generic 18xx rules: what a train may run and earn (`train_rules`), what a route may be
(`route_rules`). The evaluator and the candidate generator both call them."""
