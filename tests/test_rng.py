"""platform.md "Fairness": per-hand 256-bit seeds, a cryptographic generator, Fisher-Yates
with rejection sampling; seeded sources repeat exactly."""

from collections import Counter

import pytest

from mazziere.rng import ShakeRng, SplitMixRng, make_rng, splitmix64


def test_seeded_source_repeats_exactly() -> None:
    a, b = ShakeRng.from_seed(42), ShakeRng.from_seed(42)
    la, lb = list(range(108)), list(range(108))
    a.shuffle(la)
    b.shuffle(lb)
    assert la == lb and la != list(range(108))


def test_os_seeded_sources_differ_and_seed_is_256_bits() -> None:
    a, b = ShakeRng.from_os(), ShakeRng.from_os()
    assert len(a.seed) == 32 and a.seed != b.seed
    assert a.commitment != b.commitment and len(a.commitment) == 64


def test_copy_continues_identically_and_independently() -> None:
    a = ShakeRng.from_seed(1)
    a.randbelow(10)
    c = a.copy()
    assert [a.randbelow(1000) for _ in range(50)] == [c.randbelow(1000) for _ in range(50)]


def test_spawned_hand_source_has_fresh_seed() -> None:
    a = ShakeRng.from_seed(1)
    h1, h2 = a.spawn(), a.spawn()
    assert h1.seed != h2.seed and len(h1.seed) == 32


@pytest.mark.parametrize("rng", [ShakeRng.from_seed(3), SplitMixRng(3)])
def test_randbelow_is_roughly_uniform(rng: ShakeRng | SplitMixRng) -> None:
    n, draws = 7, 70_000
    counts = Counter(rng.randbelow(n) for _ in range(draws))
    expected = draws / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    assert set(counts) == set(range(n))
    assert chi2 < 30  # df=6: p < 1e-4 only if biased


def test_shuffle_positions_are_unbiased() -> None:
    rng = SplitMixRng(9)
    first = Counter()
    for _ in range(30_000):
        items = [0, 1, 2]
        rng.shuffle(items)
        first[tuple(items)] += 1
    assert len(first) == 6
    assert max(first.values()) / min(first.values()) < 1.15


def test_splitmix_matches_reference_vector() -> None:
    # SplitMix64 from seed 0: first output 0xE220A8397B1DCDAF (Vigna's reference).
    _, out = splitmix64(0)
    assert out == 0xE220A8397B1DCDAF


def test_make_rng_accepts_seed_or_source() -> None:
    s = SplitMixRng(5)
    assert make_rng(s) is s
    assert isinstance(make_rng(5), ShakeRng)
    assert isinstance(make_rng(None), ShakeRng)


def test_shake_shuffle_is_fisher_yates_over_randbelow() -> None:
    """ShakeRng.shuffle reads its draws in bulk: the same order and stream position as the
    plain Fisher-Yates loop over randbelow, from any position in a block, at any length."""
    import random

    from mazziere.rng import _fisher_yates

    pick = random.Random(7)
    for _ in range(400):
        seed = pick.randrange(10**9)
        a, b = ShakeRng.from_seed(seed), ShakeRng.from_seed(seed)
        for _ in range(pick.randrange(0, 200)):  # vary the position inside a block
            if pick.random() < 0.5:
                assert a.randbytes(1) == b.randbytes(1)
            else:
                n = pick.randrange(1, 2000)
                assert a.randbelow(n) == b.randbelow(n)
        size = pick.choice([0, 1, 2, 3, 54, 108, 129, 255, 256, 300, 1000])
        la, lb = list(range(size)), list(range(size))
        a.shuffle(la)
        _fisher_yates(b, lb)
        assert la == lb and a == b and a.position == b.position
        assert a.randbelow(1 << 20) == b.randbelow(1 << 20)
