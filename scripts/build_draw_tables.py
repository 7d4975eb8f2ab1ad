"""Build the poker bots' best-discard tables (mazziere/poker/bots/data/draw*.npz) for the
default rules of each deck: every canonical hand's best discard and its expected win
probability, computed by mazziere.poker.bots.drawcalc (about a millisecond a hand; 204,087
hands with 52 cards, 20,216 with 32). The result is a pure function of the rules (the
simulations are seeded), so the tables are the same on every machine.

    python scripts/build_draw_tables.py [--workers 2] [--deck 52 --deck 32]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from mazziere.poker.bots import drawcalc
from mazziere.poker.options import Rules


def _part(args: tuple[int, list[tuple[int, ...]]]) -> tuple[list[int], list[float]]:
    deck_size, keys = args
    return drawcalc.build_table(Rules(deck=deck_size), keys)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--deck", type=int, action="append", choices=(32, 52))
    a = ap.parse_args()
    for deck_size in a.deck or [32, 52]:
        started = time.perf_counter()
        rules = Rules(deck=deck_size)
        keys = drawcalc.canonical_keys(deck_size)
        n = max(1, len(keys) // (a.workers * 16))
        parts = [keys[i : i + n] for i in range(0, len(keys), n)]
        masks: list[int] = []
        values: list[float] = []
        with ProcessPoolExecutor(a.workers) as pool:
            for m, v in pool.map(_part, [(deck_size, p) for p in parts]):
                masks += m
                values += v
        path = Path(drawcalc.__file__).resolve().parent / "data" / drawcalc.table_name(rules)
        np.savez_compressed(
            path,
            codes=np.array([drawcalc.key_code(k) for k in keys], dtype=np.int64),
            masks=np.array(masks, dtype=np.uint8),
            values=np.array(values, dtype=np.float64),
        )
        took = time.perf_counter() - started
        print(f"{path.name}: {len(keys)} hands in {took:.0f} s, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
