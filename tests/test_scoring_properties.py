"""Properties of pass@k, pass^k and best-of-k (pytest_clawmark.scoring) for any n, c, k and scores.

tests/test_scoring.py pins a few worked examples; these say what must hold for all of them:
bounds, monotonicity in k, the k = 1 and c = 0 / c = n corners, and agreement with the
definition itself (count the k-subsets of the n trials) where n is small enough to enumerate.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from pytest_clawmark.scoring import avg_at_k, best_of_k, pass_at_k, pass_hat_k

ULP = 1e-15
"""pass@k is computed as ``1 - C(n-c,k)/C(n,k)``: one more rounding than pass^k's plain ratio, so
pass@1 = 1 - 4/5 comes out as 0.19999999999999996 where pass^1 = 1/5 is 0.2."""


@st.composite
def trials(draw: st.DrawFn, max_n: int = 40) -> tuple[int, int, int]:
    """(n trials, c successes, k drawn) with 0 <= c <= n and 1 <= k <= n."""
    n = draw(st.integers(1, max_n))
    return n, draw(st.integers(0, n)), draw(st.integers(1, n))


@st.composite
def trial_counts(draw: st.DrawFn, max_n: int = 40) -> tuple[int, int]:
    n = draw(st.integers(1, max_n))
    return n, draw(st.integers(0, n))


# -- pass@k and pass^k ---------------------------------------------------------------------------
@given(trials())
def test_both_are_probabilities_and_pass_at_k_bounds_pass_hat_k(nck: tuple[int, int, int]) -> None:
    n, c, k = nck
    at_k, hat_k = pass_at_k(n, c, k), pass_hat_k(n, c, k)
    assert 0.0 <= hat_k <= 1.0 and 0.0 <= at_k <= 1.0
    assert hat_k <= at_k + ULP  # all k succeed => at least one does (equal at k = 1, up to rounding)


@given(trial_counts())
def test_pass_at_k_never_falls_and_pass_hat_k_never_rises_with_k(nc: tuple[int, int]) -> None:
    n, c = nc
    at = [pass_at_k(n, c, k) for k in range(1, n + 1)]
    hat = [pass_hat_k(n, c, k) for k in range(1, n + 1)]
    assert all(a <= b for a, b in zip(at, at[1:])), at
    assert all(a >= b for a, b in zip(hat, hat[1:])), hat


@given(trial_counts())
def test_k_1_is_the_success_rate(nc: tuple[int, int]) -> None:
    n, c = nc
    assert pass_hat_k(n, c, 1) == c / n
    assert pass_at_k(n, c, 1) == c / n == pass_hat_k(n, c, 1)  # exact: integers are subtracted before dividing


@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))))
def test_no_success_is_0_and_all_successes_is_1(nk: tuple[int, int]) -> None:
    n, k = nk
    assert pass_at_k(n, 0, k) == pass_hat_k(n, 0, k) == 0.0
    assert pass_at_k(n, n, k) == pass_hat_k(n, n, k) == 1.0


@given(trials())
def test_at_least_one_success_is_not_all_failures(nck: tuple[int, int, int]) -> None:
    n, c, k = nck
    assert math.isclose(
        pass_at_k(n, c, k), 1.0 - pass_hat_k(n, n - c, k), rel_tol=1e-12, abs_tol=1e-15
    )  # complement: one rounding apart


def enumerated(n: int, c: int, k: int) -> tuple[Fraction, Fraction]:
    """The definition: over every way to pick k of the n trials (the first c succeeded), the
    share with at least one success, and the share with only successes."""
    picks = list(combinations(range(n), k))
    some = sum(1 for p in picks if any(i < c for i in p))
    every = sum(1 for p in picks if all(i < c for i in p))
    return Fraction(some, len(picks)), Fraction(every, len(picks))


@given(trials(max_n=9))
def test_agrees_with_counting_the_k_subsets(nck: tuple[int, int, int]) -> None:
    n, c, k = nck
    some, every = enumerated(n, c, k)
    assert math.isclose(pass_at_k(n, c, k), float(some), rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(pass_hat_k(n, c, k), float(every), rel_tol=1e-12, abs_tol=1e-15)


def test_enumeration_by_hand() -> None:
    """The enumeration itself, on a case small enough to check on paper: 4 trials, 2 successes,
    pick 2: 6 pairs, 5 hold a success, 1 holds only successes."""
    assert enumerated(4, 2, 2) == (Fraction(5, 6), Fraction(1, 6))
    assert math.isclose(pass_at_k(4, 2, 2), 5 / 6) and math.isclose(pass_hat_k(4, 2, 2), 1 / 6)


# -- best-of-k -----------------------------------------------------------------------------------
SCORE = st.floats(0.0, 1.0, allow_nan=False)
RUNS = st.dictionaries(
    st.text("abcdef", min_size=1, max_size=3), st.lists(SCORE, min_size=1, max_size=6), min_size=1, max_size=6
)


@given(RUNS, st.integers(1, 7))
def test_best_of_k_is_the_mean_best_of_the_first_k_over_tasks_that_reached_k(
    runs: dict[str, list[float]], k: int
) -> None:
    reached = [scores[:k] for _, scores in sorted(runs.items()) if len(scores) >= k]
    value = best_of_k(runs, k)
    assert 0.0 <= value <= 1.0
    if not reached:
        assert value == 0.0
    else:
        assert math.isclose(value, sum(max(r) for r in reached) / len(reached), rel_tol=1e-12, abs_tol=1e-15)
        assert value >= avg_at_k(runs, k) - 1e-12  # the best is never below the mean


@given(
    st.integers(1, 6).flatmap(
        lambda n: st.dictionaries(
            st.text("abc", min_size=1, max_size=2), st.lists(SCORE, min_size=n, max_size=n), min_size=1, max_size=5
        )
    )
)
def test_best_of_k_never_falls_with_k_when_every_task_has_the_trials(runs: dict[str, list[float]]) -> None:
    n = len(next(iter(runs.values())))
    values = [best_of_k(runs, k) for k in range(1, n + 1)]
    assert all(a <= b for a, b in zip(values, values[1:])), values
    assert values[0] == avg_at_k(runs, 1)  # best of one trial is that trial


@given(RUNS, st.integers(1, 6), st.randoms(use_true_random=False))
def test_best_of_k_ignores_the_order_tasks_come_in(runs: dict[str, list[float]], k: int, rnd: object) -> None:
    items = list(runs.items())
    rnd.shuffle(items)  # type: ignore[attr-defined]
    assert best_of_k(dict(items), k) == best_of_k(runs, k)


def test_best_of_k_corners() -> None:
    assert best_of_k({"a": [0.0, 0.0], "b": [0.0]}, 1) == 0.0
    assert best_of_k({"a": [1.0, 0.0], "b": [0.0, 1.0]}, 2) == 1.0
    assert best_of_k({"a": [0.5]}, 2) == 0.0  # no task reached a second trial
    assert best_of_k({"a": [0.2, 0.9], "b": [0.4]}, 2) == 0.9  # b never had a second trial: left out
