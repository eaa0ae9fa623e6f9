"""An exact branch and bound for runs whose only run rule is a best-route award (`BestRouteBonus`).

Such a run earns its routes' values plus, per award rule, the largest bonus among its routes
(`RunTerms.value`; the award always goes to the largest bonus, `award_is_max`). That is a plain
packing over more options: beside each option (route, classes) stand its "award twins", one per
set of award rules it may take, worth the option plus those bonuses. A twin holds the option's
track, so a route runs once, and one key per award rule it takes, so each award goes to one route.
Bonuses are never negative, so the best packing gives each award to the largest bonus it may: its
value is the run's. The plain branch and bound (`setpack.best_packing`) searches it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from solver.model.cancel import CancelToken
from solver.model.results import Status
from solver.modifiers.packing_terms import RunTerms
from solver.modifiers.settle import bonus_varies
from solver.packing.outcome import Choice, Packing
from solver.packing.setpack import MERGE_CLASSES, assign_trains, best_packing, option_keys, packing_options
from solver.routes.pricing import Candidate

MAX_AWARD_RULES = 2  # twins per option grow as 2 ** rules; more rules than this go to CP-SAT


def award_search_fits(terms: RunTerms | None) -> bool:
    """Whether `award_packing` prices this board's runs exactly: best-route awards are its only run
    rules, there are at most MAX_AWARD_RULES of them, and at most one goes to the last route with a
    bonus that differs between routes (with two, the run order may not give each its largest bonus:
    `settle.best_last_winners`), and winning changes no route's own price (`RunTerms.changes`: the
    winner is then the one the award's rule picks, which CP-SAT models)."""
    return (terms is not None and 0 < len(terms.best) <= MAX_AWARD_RULES and not (terms.required or terms.set_rules)
            and terms.units is None and terms.drop_at is None and not terms.changes
            and sum(1 for m in terms.best if bonus_varies(m)) <= 1)


def award_options(cands: Sequence[Candidate], groups: Sequence[str], terms: RunTerms, merge: bool = True
                  ) -> tuple[list[Choice], list[int], list[int], list[int]]:
    """The packing's options with their award twins: per option, (route, first class), value, the
    classes as bits and the keys it holds. With `merge`, classes that earn the same on a route, and
    the same awards, share one option (`setpack.packing_options`)."""
    awards_of: dict[tuple[int, int], tuple[int, ...]] = {}  # (id of the route, class) -> its bonus per award

    def awards(c: Candidate, ci: int) -> tuple[int, ...]:
        found = awards_of.get((id(c), ci))
        if found is None:
            found = awards_of[(id(c), ci)] = tuple(terms.awards(c, ci))
        return found

    base, values, fits = packing_options(cands, groups, merge, tag=awards)
    bonuses = [awards(cands[r], ci) for r, ci in base]
    keys = option_keys(cands, base, groups)
    award_bit = max((m.bit_length() for m in keys), default=0)  # one key per award rule, after the track
    options, out_values, out_fits, out_keys = list(base), list(values), list(fits), list(keys)
    for j, bonus in enumerate(bonuses):
        paying = [k for k, b in enumerate(bonus) if b > 0]
        for size in range(1, len(paying) + 1):
            for taken in combinations(paying, size):
                options.append(base[j])
                out_values.append(values[j] + sum(bonus[k] for k in taken))
                out_fits.append(fits[j])
                out_keys.append(keys[j] | sum(1 << (award_bit + k) for k in taken))
    return options, out_values, out_fits, out_keys


def award_packing(cands: Sequence[Candidate], counts: Sequence[int], groups: Sequence[str], terms: RunTerms,
                  lower: int, lower_pack: list[Choice], deadline: float, cancel: CancelToken | None = None
                  ) -> Packing:
    """The best run of the candidates under best-route awards (`award_search_fits` says when): OPTIMAL
    with the best choices (`lower_pack`, worth `lower`, when nothing beats it), else UNKNOWN with
    `lower_pack` and no bound (the deadline or `cancel` stopped it)."""
    options, values, fits, keys = award_options(cands, groups, terms, merge=len(counts) <= MERGE_CLASSES)
    result = best_packing(values, fits, keys, counts, lower, deadline, cancel)
    chosen = lower_pack
    if result.chosen is not None:
        classes = assign_trains([fits[i] for i in result.chosen], counts)
        chosen = [(options[i][0], ci) for i, ci in zip(result.chosen, classes, strict=True)]
    stats = {**result.stats, "award_options": float(len(options))}
    if result.finished:
        return Packing(Status.OPTIMAL, chosen, max(result.value, lower), stats)
    return Packing(Status.UNKNOWN, chosen, None, stats)
