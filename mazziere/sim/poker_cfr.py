"""The solver behind poker ``hard``: CFR+ on the abstract game of
:mod:`mazziere.poker.bots.abstraction` (docs/bots.md "Poker hard").

1. **Chance, measured.** ``deals`` random deals are played through the abstraction with the
   engine's own evaluator tables (numba): each deal's pre-draw buckets, then for each of the 16
   pairs of draw counts the final hands (the first actor draws first from the top of the deck),
   their post-draw buckets and who wins. That gives, for each pair of draws, the joint
   probability of both players' (pre, post) buckets and the expected showdown result there
   (:class:`Chance`).
2. **CFR+, vectorised over the public tree.** The betting is public, so each public node holds
   one strategy row per private bucket and a pass over the tree updates them all with NumPy:
   regret matching+, simultaneous updates, averages weighted by the iteration (linear
   averaging). Round two plays from its post-draw bucket only (the bot cannot see its hand
   before the draw any more), so its regrets are summed over the pre-draw bucket.
3. **Exploitability**, in chips per deal: a best response with perfect recall in the abstract
   game against the average strategy, for each seat, averaged over the two seats (the first
   actor alternates every deal); reported every ``report_every`` iterations.

Run ``python -m mazziere.sim.poker_cfr --deck 52 --out mazziere/poker/bots/data/hard52.json``
(NumPy and numba: the ``sim`` extra). A tie at the showdown counts as a split pot here (the
game carries it into the next deal, which the abstraction does not model).
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
import zlib
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from mazziere.poker.bots import abstraction as ab
from mazziere.poker.bots.drawcalc import category_codes, reference, straight_masks
from mazziere.poker.cards import deck as full_deck
from mazziere.poker.eval_tables import table_arrays
from mazziere.poker.options import Rules

F = npt.NDArray[np.float64]
POST_QUANTILES = (0.2, 0.35, 0.5, 0.6, 0.7, 0.78, 0.85, 0.9, 0.94, 0.97, 0.99)
"""Post-draw cut-offs: shares of a plain player's final hands that each bucket edge beats."""
NP = ab.PRE_BUCKETS * ab.POST_BUCKETS
"""Private states of round two: (pre-draw bucket, post-draw bucket)."""
D2 = ab.DRAWS * ab.DRAWS

_pre: Any = numba.njit(cache=True)(ab.pre_bucket)
_discard: Any = numba.njit(cache=True)(ab.discard_mask)


@numba.njit(cache=True)
def _rank(h, packed, unsuited, flush):  # type: ignore[no-untyped-def]
    s = packed[h[0]] + packed[h[1]] + packed[h[2]] + packed[h[3]] + packed[h[4]]
    if ((s >> 40) + 0x3333) & 0x8888:
        return flush[(s >> 20) & 0x1FFF]
    return unsuited[s & 0x7FFFF]


@numba.njit(cache=True)
def _next(state):  # type: ignore[no-untyped-def]
    state[0] = state[0] + np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def _sample(cards, packed, unsuited, flush, cats, runs, deck32, post_of, deals, seed, cnt, sgn):  # type: ignore[no-untyped-def]
    n = cards.shape[0]
    state = np.array([seed], dtype=np.uint64)
    work = cards.copy()
    h0 = np.empty(5, np.int64)
    h1 = np.empty(5, np.int64)
    f0 = np.empty(5, np.int64)
    f1 = np.empty(5, np.int64)
    m0 = np.empty(4, np.int64)
    m1 = np.empty(4, np.int64)
    for _ in range(deals):
        for i in range(16):
            j = i + np.int64(((_next(state) >> np.uint64(32)) * np.uint64(n - i)) >> np.uint64(32))
            work[i], work[j] = work[j], work[i]
        for i in range(5):
            h0[i] = work[i]
            h1[i] = work[5 + i]
        c0 = cats[_rank(h0, packed, unsuited, flush)]
        c1 = cats[_rank(h1, packed, unsuited, flush)]
        b0 = _pre(h0, c0, runs, deck32)
        b1 = _pre(h1, c1, runs, deck32)
        for d in range(4):
            m0[d] = _discard(h0, d, c0, runs, deck32)
            m1[d] = _discard(h1, d, c1, runs, deck32)
        for d0 in range(4):
            nxt = 10
            for i in range(5):
                if m0[d0] >> i & 1:
                    f0[i] = work[nxt]
                    nxt += 1
                else:
                    f0[i] = h0[i]
            r0 = _rank(f0, packed, unsuited, flush)
            a = b0 * 12 + post_of[r0]
            for d1 in range(4):
                k = 10 + d0
                for i in range(5):
                    if m1[d1] >> i & 1:
                        f1[i] = work[k]
                        k += 1
                    else:
                        f1[i] = h1[i]
                r1 = _rank(f1, packed, unsuited, flush)
                b = b1 * 12 + post_of[r1]
                cnt[d0 * 4 + d1, a, b] += 1.0
                if r0 > r1:
                    sgn[d0 * 4 + d1, a, b] += 1.0
                elif r1 > r0:
                    sgn[d0 * 4 + d1, a, b] -= 1.0


@dataclass(frozen=True, slots=True)
class Chance:
    """The measured chance of the abstract game."""

    pre: F
    """[first's pre bucket, second's pre bucket] -> probability."""
    q: F
    """[draw pair, first's (pre, post), second's (pre, post)] -> probability."""
    w: F
    """The same, times the first actor's expected showdown result (+1 win, -1 loss)."""
    cutoffs: tuple[int, ...]


def post_cutoffs(rules: Rules) -> tuple[int, ...]:
    """Dense-rank cut-offs of the post-draw buckets (:data:`POST_QUANTILES`)."""
    worth = reference(rules).worth
    return tuple(int(np.searchsorted(worth, q)) for q in POST_QUANTILES)


def measure(rules: Rules, deals: int, seed: int = 0x5EED_CF01) -> Chance:
    """Sample ``deals`` deals through the abstraction (module docstring, step 1)."""
    t = table_arrays(rules.deck, rules.ace_low_straight, rules.flush_beats_full_house)
    cutoffs = post_cutoffs(rules)
    n_ranks = int(max(t.unsuited.max(), t.flush.max())) + 1
    post_of = np.array([ab.post_bucket(r, cutoffs) for r in range(n_ranks)], dtype=np.int64)
    cnt = np.zeros((D2, NP, NP))
    sgn = np.zeros((D2, NP, NP))
    cards = np.array(full_deck(rules.deck), dtype=np.int64)
    _sample(
        cards,
        t.packed,
        t.unsuited,
        t.flush,
        category_codes(rules),
        straight_masks(rules),
        rules.deck == 32,
        post_of,
        deals,
        np.uint64(seed),
        cnt,
        sgn,
    )
    q = cnt / deals
    pre = q[0].reshape(ab.PRE_BUCKETS, ab.POST_BUCKETS, ab.PRE_BUCKETS, ab.POST_BUCKETS)
    return Chance(pre.sum(axis=(1, 3)), q, sgn / deals, cutoffs)


def _rm(regret: F) -> F:
    pos = np.maximum(regret, 0.0)
    total = pos.sum(axis=-1, keepdims=True)
    n = regret.shape[-1]
    out: F = np.where(total > 0, pos / np.where(total > 0, total, 1.0), 1.0 / n)
    return out


def _norm(avg: F) -> F:
    total = avg.sum(axis=-1, keepdims=True)
    n = avg.shape[-1]
    out: F = np.where(total > 0, avg / np.where(total > 0, total, 1.0), 1.0 / n)
    return out


class Solver:
    """CFR+ over the abstract game (module docstring, step 2)."""

    def __init__(self, chance: Chance, rules: Rules) -> None:
        self.ch = chance
        self.lay = ab.layout(rules.min_bet_amount, rules.max_bet or ab.MAX_BET)
        lay = self.lay
        self.t1, self.t2 = lay.tree1, lay.tree2
        self.n_leaves = len(lay.leaves)
        r_count = self.n_leaves
        # round two's amounts for each round-one close leaf
        fold_u0 = np.zeros((len(self.t2), r_count), dtype=np.float32)
        show_c = np.zeros((len(self.t2), r_count), dtype=np.float32)
        for r, leaf in enumerate(lay.leaves):
            c = self.t1[leaf].contrib
            tree = ab.round_tree(2, c, rules.max_bet or ab.MAX_BET, rules.min_bet_amount)
            for n, node in enumerate(tree):
                if node.kind == "fold":
                    fold_u0[n, r] = node.contrib[1] if node.player == 1 else -node.contrib[0]
                elif node.kind == "close":
                    show_c[n, r] = node.contrib[0]
        self.fold_u0, self.show_c = fold_u0, show_c
        # round two's products run in single precision (they are most of the work)
        self.q32 = chance.q.astype(np.float32)
        self.w32 = chance.w.astype(np.float32)
        self.qt = np.ascontiguousarray(self.q32.transpose(0, 2, 1))
        self.wt = np.ascontiguousarray(self.w32.transpose(0, 2, 1))
        self.reg1 = {n: np.zeros((ab.PRE_BUCKETS, len(self.t1[n].actions))) for n in lay.offsets1}
        self.avg1 = {n: np.zeros_like(v) for n, v in self.reg1.items()}
        self.regd0 = np.zeros((r_count, ab.PRE_BUCKETS, ab.DRAWS))
        self.avgd0 = np.zeros_like(self.regd0)
        self.regd1 = np.zeros((r_count, ab.DRAWS, ab.PRE_BUCKETS, ab.DRAWS))
        self.avgd1 = np.zeros_like(self.regd1)
        shape2 = (D2, r_count, ab.POST_BUCKETS)
        self.reg2 = {n: np.zeros((*shape2, len(self.t2[n].actions))) for n in lay.offsets2}
        self.avg2 = {n: np.zeros_like(v) for n, v in self.reg2.items()}
        self.t = 0

    # ------------------------------------------------------------------ one pass
    def _strategies(self, average: bool) -> tuple[Any, Any, Any, Any]:
        if average:
            return (
                {n: _norm(a) for n, a in self.avg1.items()},
                _norm(self.avgd0),
                _norm(self.avgd1),
                {n: _norm(a) for n, a in self.avg2.items()},
            )
        return (
            {n: _rm(a) for n, a in self.reg1.items()},
            _rm(self.regd0),
            _rm(self.regd1),
            {n: _rm(a) for n, a in self.reg2.items()},
        )

    def run(self, update: bool, br: int | None = None, average: bool = False) -> tuple[F, F]:
        """One pass over the tree: both players' values at the root (each a vector over its
        pre-draw buckets, chance-weighted). ``update``: a CFR+ step; ``br``: that player best
        responds (perfect recall) to the others' strategy."""
        s1, sd0, sd1, s2 = self._strategies(average)
        self._s = (s1, sd0, sd1, s2)
        self._update, self._br = update, br
        w = float(self.t)
        self._w = w
        ones = np.ones(ab.PRE_BUCKETS)
        leaf_r0 = np.zeros((self.n_leaves, ab.PRE_BUCKETS))
        leaf_r1 = np.zeros((self.n_leaves, ab.PRE_BUCKETS))
        self._leaf_index = {leaf: i for i, leaf in enumerate(self.lay.leaves)}
        self._forward1(0, ones, ones, leaf_r0, leaf_r1)
        lv0, lv1 = self._draw_and_round2(leaf_r0, leaf_r1)
        return self._backward1(0, ones, ones, lv0, lv1)

    def _forward1(self, n: int, r0: F, r1: F, out0: F, out1: F) -> None:
        node = self.t1[n]
        if node.kind == "close":
            k = self._leaf_index[n]
            out0[k], out1[k] = r0, r1
            return
        if node.kind == "fold":
            return
        sig = self._s[0][n]
        for a, child in enumerate(node.children):
            if node.player == 0:
                self._forward1(child, r0 * sig[:, a], r1, out0, out1)
            else:
                self._forward1(child, r0, r1 * sig[:, a], out0, out1)

    def _backward1(self, n: int, r0: F, r1: F, lv0: F, lv1: F) -> tuple[F, F]:
        node = self.t1[n]
        pre = self.ch.pre
        if node.kind == "close":
            k = self._leaf_index[n]
            return lv0[k], lv1[k]
        if node.kind == "fold":
            u0 = node.contrib[1] if node.player == 1 else -node.contrib[0]
            return u0 * (pre @ r1), -u0 * (pre.T @ r0)
        q = node.player
        sig = self._s[0][n]
        vals = []
        for a, child in enumerate(node.children):
            if q == 0:
                vals.append(self._backward1(child, r0 * sig[:, a], r1, lv0, lv1))
            else:
                vals.append(self._backward1(child, r0, r1 * sig[:, a], lv0, lv1))
        mine = np.stack([v[q] for v in vals], axis=-1)  # [bucket, action]
        other: F = np.sum([v[1 - q] for v in vals], axis=0)
        value = mine.max(axis=-1) if self._br == q else (mine * sig).sum(axis=-1)
        if self._update:
            self.reg1[n] = np.maximum(self.reg1[n] + mine - value[:, None], 0.0)
            reach = r0 if q == 0 else r1
            self.avg1[n] += self._w * reach[:, None] * sig
        return (value, other) if q == 0 else (other, value)

    def _draw_and_round2(self, r0: F, r1: F) -> tuple[F, F]:
        _, sd0, sd1, _ = self._s
        pb, qb, rc = ab.PRE_BUCKETS, ab.POST_BUCKETS, self.n_leaves
        # reach at round two's root, [draw pair, leaf, (pre, post)]
        rr0 = np.zeros((D2, rc, pb, qb))
        rr1 = np.zeros((D2, rc, pb, qb))
        for d0 in range(ab.DRAWS):
            for d1 in range(ab.DRAWS):
                d = d0 * ab.DRAWS + d1
                rr0[d] = (r0 * sd0[:, :, d0])[:, :, None]
                rr1[d] = (r1 * sd1[:, d0, :, d1])[:, :, None]
        v0, v1 = self._round2(
            0,
            rr0.reshape(D2, rc, NP).astype(np.float32),
            rr1.reshape(D2, rc, NP).astype(np.float32),
        )
        v0 = v0.reshape(ab.DRAWS, ab.DRAWS, rc, pb, qb).sum(axis=4)  # [d0, d1, leaf, pre]
        v1 = v1.reshape(ab.DRAWS, ab.DRAWS, rc, pb, qb).sum(axis=4)
        # the second actor's draw: node (leaf, d0, pre), action d1
        mine1 = v1.transpose(2, 0, 3, 1)  # [leaf, d0, pre, d1]
        val1 = mine1.max(axis=-1) if self._br == 1 else (mine1 * sd1).sum(axis=-1)
        # the first actor's draw: node (leaf, pre), action d0
        mine0 = v0.sum(axis=1).transpose(1, 2, 0)  # [leaf, pre, d0]
        val0 = mine0.max(axis=-1) if self._br == 0 else (mine0 * sd0).sum(axis=-1)
        if self._update:
            self.regd1 = np.maximum(self.regd1 + mine1 - val1[..., None], 0.0)
            reach1 = r1[:, None, :] * np.ones((1, ab.DRAWS, 1))
            self.avgd1 += self._w * reach1[..., None] * sd1
            self.regd0 = np.maximum(self.regd0 + mine0 - val0[..., None], 0.0)
            self.avgd0 += self._w * r0[..., None] * sd0
        return val0, val1.sum(axis=1)

    def _round2(self, n: int, r0: F, r1: F) -> tuple[F, F]:
        node = self.t2[n]
        if node.kind == "fold":
            u = self.fold_u0[n][None, :, None]
            return u * np.matmul(r1, self.qt), -u * np.matmul(r0, self.q32)
        if node.kind == "close":
            c = self.show_c[n][None, :, None]
            return c * np.matmul(r1, self.wt), -c * np.matmul(r0, self.w32)
        q = node.player
        sig = self._s[3][n]  # [d, leaf, post, action]
        shape = (D2, self.n_leaves, ab.PRE_BUCKETS, ab.POST_BUCKETS)
        vals = []
        for a, child in enumerate(node.children):
            s = np.broadcast_to(sig[:, :, None, :, a], shape).reshape(D2, self.n_leaves, NP)
            if q == 0:
                vals.append(self._round2(child, r0 * s, r1))
            else:
                vals.append(self._round2(child, r0, r1 * s))
        mine = np.stack([v[q] for v in vals], axis=-1)  # [d, leaf, (pre, post), action]
        other: F = np.sum([v[1 - q] for v in vals], axis=0)
        full = np.broadcast_to(sig[:, :, None, :, :], (*shape, len(vals))).reshape(
            D2, self.n_leaves, NP, len(vals)
        )
        value = mine.max(axis=-1) if self._br == q else (mine * full).sum(axis=-1)
        if self._update:
            delta = (mine - value[..., None]).reshape(*shape, len(vals)).sum(axis=2)
            self.reg2[n] = np.maximum(self.reg2[n] + delta, 0.0)
            reach = (r0 if q == 0 else r1).reshape(shape).sum(axis=2)
            self.avg2[n] += self._w * reach[..., None] * sig
        return (value, other) if q == 0 else (other, value)

    # ------------------------------------------------------------------ driving it
    def iterate(self) -> None:
        self.t += 1
        self.run(update=True)

    def exploitability(self) -> tuple[float, float]:
        """(best response's chips per deal against the average strategy, averaged over the
        two seats; the first actor's value under the average strategy)."""
        br0 = float(self.run(update=False, br=0, average=True)[0].sum())
        br1 = float(self.run(update=False, br=1, average=True)[1].sum())
        v0 = float(self.run(update=False, average=True)[0].sum())
        return (br0 + br1) / 2, v0

    def flat(self) -> npt.NDArray[np.uint8]:
        """The average strategy in the layout's order, each probability in 1/255ths."""
        lay = self.lay
        out = np.zeros(lay.size, dtype=np.uint8)
        s1, sd0, sd1, s2 = self._strategies(average=True)

        def put(off: int, probs: F) -> None:
            flat = to_255ths(probs).ravel()
            out[off : off + flat.size] = flat

        for n, off in lay.offsets1.items():
            put(off, s1[n])
        put(lay.draw0, sd0)
        put(lay.draw1, sd1)
        for n, off in lay.offsets2.items():
            put(off, s2[n])
        return out


def to_255ths(probs: F) -> npt.NDArray[np.uint8]:
    """Probabilities (rows on the last axis, each summing to 1) in 1/255ths that sum to exactly
    255 a row: each is rounded down, and the units left go to the largest remainders (rounding
    each to the nearest leaves rows off by several units)."""
    scaled = np.asarray(probs, dtype=np.float64) * 255
    base = np.floor(scaled)
    short = np.rint(255 - base.sum(axis=-1)).astype(np.int64)
    rank = np.argsort(np.argsort(base - scaled, axis=-1, kind="stable"), axis=-1, kind="stable")
    out: npt.NDArray[np.uint8] = (base + (rank < short[..., None])).astype(np.uint8)
    return out


def solve(
    rules: Rules, deals: int, iterations: int, report_every: int, log: Any = None
) -> dict[str, Any]:
    """Measure chance, run CFR+, and return the data file's content."""
    start = time.perf_counter()
    chance = measure(rules, deals)
    solver = Solver(chance, rules)
    trend: list[list[float]] = []
    for _ in range(iterations):
        solver.iterate()
        if solver.t % report_every == 0 or solver.t == iterations:
            e, v0 = solver.exploitability()
            trend.append([solver.t, round(e, 4), round(v0, 4)])
            if log is not None:
                print(
                    f"deck {rules.deck} iteration {solver.t}: exploitability {e:.4f} chips/deal, "
                    f"first actor's value {v0:+.4f} ({time.perf_counter() - start:.0f} s)",
                    file=log,
                    flush=True,
                )
    data = solver.flat()
    return {
        "deck": rules.deck,
        "ante": rules.ante,
        "max_bet": rules.max_bet,
        "deals_sampled": deals,
        "iterations": iterations,
        "cutoffs": list(chance.cutoffs),
        "exploitability": trend,
        "exploitability_columns": ["iteration", "chips_per_deal", "first_actor_value"],
        "seconds": round(time.perf_counter() - start, 1),
        "size": int(data.size),
        "strategy": base64.b64encode(zlib.compress(data.tobytes(), 9)).decode("ascii"),
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deck", type=int, choices=(52, 32), default=52)
    p.add_argument("--deals", type=int, default=4_000_000)
    p.add_argument("--iterations", type=int, default=400)
    p.add_argument("--report-every", type=int, default=25)
    p.add_argument("--out", required=True)
    a = p.parse_args(argv)
    content = solve(Rules(deck=a.deck), a.deals, a.iterations, a.report_every, sys.stderr)
    with open(a.out, "w") as f:
        json.dump(content, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
