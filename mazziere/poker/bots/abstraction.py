"""The abstract game ``hard`` is solved in (docs/bots.md "Poker hard"): hand buckets, draw
choices and the betting tree, written once for the solver (:mod:`mazziere.sim.poker_cfr`, which
compiles the bucket functions with numba) and for the bot (plain Python at play time).

* **Before the draw**, :data:`PRE_BUCKETS` buckets by category and draw shape: high card without
  a draw (king or ace high apart), an inside straight draw, an open-ended straight draw, a
  four-card flush; a pair by its rank (6 groups); two pair (top pair queens or better apart);
  trips; straight; flush; full house or better.
* **The draw** is a choice of how many cards to replace, 0 to 3 (:data:`DRAWS`); which cards
  :func:`discard_mask` decides: the odd card of the deck's better one-card draw, else the
  lowest cards outside groups (a pair keeps its top kicker when drawing two).
* **After the draw**, :data:`POST_BUCKETS` buckets by strength: the final hand's dense rank
  against cut-offs the solver stores with the strategy (quantiles of final hands). What the
  opponent replaced is part of the public history (0-3; four or five read as three).
* **Betting**: WAIT/check ``k``, call ``c`` (REPLACE or SEE), fold ``f``, and two sizes for an
  OPEN or RAISE: ``p`` the pot (after calling) and ``m`` the maximum (``max_bet``), each clamped
  to the table's limits; at most ``max_raises`` (3) raises a round, as the rules. The first
  actor never folds when nothing is owed (it can check or SEE for free).

Hands are sequences of five card numbers (``rank * 4 + suit``); ``cat`` is the category's index
in :data:`~mazziere.poker.eval_tables.CATEGORIES`; ``runs`` the deck's straight rank masks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

PRE_BUCKETS = 17
POST_BUCKETS = 12
DRAWS = 4
"""Draw choices: replace 0, 1, 2 or 3 cards."""
ACTIONS = "kcfpm"
"""Abstract betting actions: check, call, fold, pot-size bet, maximum bet."""
MAX_RAISES = 3
ANTE = 5
MAX_BET = 50


def pre_bucket(h: Sequence[int], cat: int, runs: Sequence[int], deck32: bool) -> int:
    """The hand's bucket before the draw, 0..16 (module docstring)."""
    if cat >= 6:
        return 16
    if cat >= 3:
        return 13 + (cat - 3)  # trips 13, straight 14, flush 15
    top_pair = -1
    top = 0
    for i in range(5):
        r = h[i] >> 2
        top = max(top, r)
        n = 0
        for j in range(5):
            if h[j] >> 2 == r:
                n += 1
        if n == 2 and r > top_pair:
            top_pair = r
    if cat == 2:
        return 12 if top_pair >= 10 else 11
    if cat == 1:
        r = top_pair
        if r >= 12:
            return 10
        if r >= 10:
            return r - 2  # queens 8, kings 9
        if r >= 8:
            return 7  # tens, jacks
        if deck32:
            return 5 if r <= 6 else 6  # sevens-eights, nines
        return 5 if r <= 4 else 6  # twos-sixes, sevens-nines
    suits = 0
    for i in range(5):
        suits += 1 << (4 * (h[i] & 3))
    flush4 = False
    for s in range(4):
        if (suits >> (4 * s)) & 15 == 4:
            flush4 = True
    open_end = False
    inside = False
    for i in range(5):
        bits = 0
        for j in range(5):
            if j != i:
                bits |= 1 << (h[j] >> 2)
        fits = 0
        for m in runs:
            if bits & m == bits:
                fits += 1
        if fits >= 2:
            open_end = True
        elif fits == 1:
            inside = True
    if flush4 and open_end:
        return 3 if deck32 else 4
    if flush4:
        return 4
    if open_end:
        return 3
    if inside:
        return 2
    return 1 if top >= 11 else 0


def discard_mask(h: Sequence[int], n: int, cat: int, runs: Sequence[int], deck32: bool) -> int:
    """The positions to replace when drawing ``n`` cards (module docstring)."""
    if n <= 0:
        return 0
    if n == 1 and cat == 0:
        straight_odd = -1
        for i in range(5):
            bits = 0
            for j in range(5):
                if j != i:
                    bits |= 1 << (h[j] >> 2)
            fits = 0
            for m in runs:
                if bits & m == bits:
                    fits += 1
            if fits >= 2:
                straight_odd = i
        suits = 0
        for i in range(5):
            suits += 1 << (4 * (h[i] & 3))
        flush_odd = -1
        for i in range(5):
            if (suits >> (4 * (h[i] & 3))) & 15 == 1 and (
                (suits >> (4 * (h[(i + 1) % 5] & 3))) & 15 == 4
            ):
                flush_odd = i
        first, second = (straight_odd, flush_odd) if deck32 else (flush_odd, straight_odd)
        if first >= 0:
            return 1 << first
        if second >= 0:
            return 1 << second
    mask = 0
    for _ in range(n):
        best = -1
        best_key = 1 << 30
        for i in range(5):
            if mask >> i & 1:
                continue
            r = h[i] >> 2
            count = 0
            for j in range(5):
                if h[j] >> 2 == r:
                    count += 1
            key = (count if count > 1 else 0) * 16 + r
            if key < best_key:
                best_key = key
                best = i
        mask |= 1 << best
    return mask


def post_bucket(rank: int, cutoffs: Sequence[int]) -> int:
    """The bucket of a final hand of dense rank ``rank``: how many cut-offs it reaches."""
    b = 0
    for c in cutoffs:
        if rank >= c:
            b += 1
    return b


# ---------------------------------------------------------------------- the betting tree
@dataclass(slots=True)
class Node:
    """A node of one betting round: a decision of ``player`` (0: the first actor), or a
    terminal (``kind`` ``fold`` by ``player``, or ``close``: the round ends, both equal)."""

    history: str
    kind: str
    player: int
    contrib: tuple[int, int]
    """Chips each side has put in this deal (antes included) at this node."""
    actions: str = ""
    children: list[int] = field(default_factory=list)


def bet_size(action: str, pot: int, owed: int, max_bet: int, min_bet: int) -> int:
    """The OPEN amount or RAISE increment of ``p`` (the pot after calling) or ``m``."""
    if action == "m":
        return max_bet
    return max(min_bet, min(max_bet, pot + owed))


def round_tree(
    round_no: int, contrib: tuple[int, int], max_bet: int = MAX_BET, min_bet: int = ANTE
) -> list[Node]:
    """Every node of a betting round from ``contrib`` (node 0 is the root), in depth-first
    order; the abstract actions of each node in :data:`ACTIONS` order."""
    nodes: list[Node] = []

    def grow(history: str, player: int, c: tuple[int, int], raises: int, bet_made: bool) -> int:
        idx = len(nodes)
        owed = c[1 - player] - c[player]
        if owed > 0 or bet_made:
            acts = "cf" + ("pm" if raises < MAX_RAISES else "")
        elif round_no == 1 and not history:
            acts = "kpm"
        elif round_no == 1:
            acts = "cpm"  # after a WAIT: check behind (REPLACE) or open
        else:
            acts = "cpm"  # round two's first action: SEE (show down) or open
        node = Node(history, "decide", player, c, "".join(a for a in ACTIONS if a in acts))
        nodes.append(node)
        for a in node.actions:
            h = history + a
            if a == "f":
                child = len(nodes)
                nodes.append(Node(h, "fold", player, c))
            elif a == "c":
                paid = (c[0] + owed, c[1]) if player == 0 else (c[0], c[1] + owed)
                child = len(nodes)
                nodes.append(Node(h, "close", player, paid))
            elif a == "k":
                child = grow(h, 1 - player, c, raises, False)
            else:
                pot = c[0] + c[1]
                size = bet_size(a, pot, owed, max_bet, min_bet)
                add = owed + size
                paid = (c[0] + add, c[1]) if player == 0 else (c[0], c[1] + add)
                child = grow(h, 1 - player, paid, raises + (1 if bet_made else 0), True)
            node.children.append(child)
        return idx

    grow("", 0, contrib, 0, False)
    return nodes


def closes(nodes: list[Node]) -> list[int]:
    """Indices of a round's ``close`` leaves, in tree order."""
    return [i for i, n in enumerate(nodes) if n.kind == "close"]


def decisions(nodes: list[Node]) -> list[int]:
    """Indices of a round's decision nodes, in tree order."""
    return [i for i, n in enumerate(nodes) if n.kind == "decide"]


# ---------------------------------------------------------------------- the strategy layout
@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of a solved strategy sits in the flat array the data file stores
    (row-major, every distribution over its node's actions):

    * round one: each decision node (tree order) x pre-draw bucket x action;
    * the first actor's draw: round-one close leaf x pre-draw bucket x draw;
    * the second actor's draw: close leaf x first actor's draw x pre-draw bucket x draw;
    * round two: each decision node (tree order) x draw pair (first * 4 + second) x close
      leaf x post-draw bucket x action.
    """

    tree1: tuple[Node, ...]
    tree2: tuple[Node, ...]
    """Round two's shape (its amounts differ with the pot each close leaf brings)."""
    leaves: tuple[int, ...]
    """Round one's close leaves (tree indices)."""
    offsets1: dict[int, int]
    draw0: int
    draw1: int
    offsets2: dict[int, int]
    size: int


def layout(ante: int = ANTE, max_bet: int = MAX_BET) -> Layout:
    """The layout of the abstract game for these limits."""
    t1 = round_tree(1, (ante, ante), max_bet, ante)
    t2 = round_tree(2, (ante, ante), max_bet, ante)
    leaves = tuple(closes(t1))
    n_leaves = len(leaves)
    off = 0
    o1: dict[int, int] = {}
    for i in decisions(t1):
        o1[i] = off
        off += PRE_BUCKETS * len(t1[i].actions)
    d0 = off
    off += n_leaves * PRE_BUCKETS * DRAWS
    d1 = off
    off += n_leaves * DRAWS * PRE_BUCKETS * DRAWS
    o2: dict[int, int] = {}
    for i in decisions(t2):
        o2[i] = off
        off += DRAWS * DRAWS * n_leaves * POST_BUCKETS * len(t2[i].actions)
    return Layout(tuple(t1), tuple(t2), leaves, o1, d0, d1, o2, off)
