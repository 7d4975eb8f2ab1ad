"""A certification report of UNO CASINO for a testing laboratory: ``mazziere certify casino``
writes ``report.html``, the same figures as ``report.json``, and the charts, to a folder.

What it holds, and how each figure is obtained:

* **RTP** and its 95% interval: ``N`` rounds of the published strategies by the compiled
  kernel (:func:`mazziere.sim.rtp.run_rtp`, on local processes or a Ray cluster), stake 1 unit.
* **Rounds needed** for an interval of a given half-width: ``(z * sd / w)^2`` with the measured
  standard deviation of one round's payout.
* **The payout distribution** (x0, x1, x2, x3) with its chart, and **volatility**: the standard
  deviation of one round's result per unit staked.
* **A player's result over 100, 1,000 and 10,000 rounds**: the exact distribution of the sum of
  ``n`` independent rounds with the measured payout shares (the ``n``-fold convolution, by
  FFT), its 90/95/99% central ranges and the chance of being ahead. Written here because it is
  a few lines of NumPy; the figures assume the measured shares are the true ones.
* **The largest payout** (x3) and its odds, with GLI-11's rule that an advertised award be
  reachable at least once in 100 million games (``p >= 1e-8``), checked on the count observed.
* **The skill range**: the same measure with a careless player (random legal choices)
  on ``N`` rounds (at most :data:`CARELESS_ROUNDS`) and with the search player on
  ``search_rounds`` rounds.
* **The published RTP** (96.06%, seed 000): whether it lies inside the measured interval.
* **The readings of the rules**: every sentence of seed 000 whose reading changes the RTP
  (:data:`mazziere.casino.readings.CLAUSES`), each reading, the adopted one too, measured on
  ``readings_rounds`` rounds of the same seeds (equal work), beside the published figure; a
  run in sittings keeps each reading's chunks in a journal (``journal_dir``). With no
  ``readings_rounds`` the table holds the adopted row alone, the main run.
* **The Italian minimum** for card games against the house: the RTP's lower bound at 90% or more.
* **The random number generator**: the SplitMix64 stream every deal comes from
  (:class:`mazziere.rng.SplitMixRng`) tested for the uniformity of shuffles (each card's
  position over many 108-card shuffles, chi-square), of ``randbelow`` (chi-square), and for the
  serial correlation of consecutive outputs; p-values from SciPy. The seed commitment of the
  server's tables is described (platform.md: SHA-256 of each hand's seed published when the
  hand starts, the seed revealed in the hand history).
* The software version and the exact command.
"""

from __future__ import annotations

import base64
import html
import json
import math
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mazziere import __version__
from mazziere.casino.readings import CLAUSES, Readings, alternatives
from mazziere.casino.rules import PUBLISHED_RTP
from mazziere.rng import SplitMixRng
from mazziere.sim.rtp import ADOPTED, LEGAL_MINIMUM, RtpResult, run_rtp
from mazziere.sim.stats import z_quantile

HORIZONS = (100, 1_000, 10_000)
"""Rounds over which a player's result is described."""
RANGES = (0.90, 0.95, 0.99)
TARGET_WIDTHS = (0.01, 0.001, 0.0001)
"""Interval half-widths for which the rounds needed are given (1, 0.1 and 0.01 points)."""
GLI_GAMES = 100_000_000
"""GLI-11: an advertised award must be reachable at least once in this many games."""
CARELESS_ROUNDS = 10_000_000
"""Most rounds of the careless player (its interval is then about +-0.03 points)."""
SHUFFLES = 20_000
DRAWS = 200_000


@dataclass(frozen=True, slots=True)
class CertifyResult:
    """The report's data (``as_json`` is ``report.json``)."""

    data: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return self.data


def result_distribution(shares: Sequence[float], n: int) -> npt.NDArray[np.float64]:
    """P(total paid = k) for k = 0..3n over ``n`` independent rounds paying ``i`` units with
    probability ``shares[i]`` (the ``n``-fold convolution, computed by FFT)."""
    p = np.asarray(shares, dtype=np.float64)
    size = (len(p) - 1) * n + 1
    length = 1 << (size - 1).bit_length()
    f = np.fft.rfft(p, length) ** n
    out = np.fft.irfft(f, length)[:size]
    out = np.clip(out, 0.0, None)
    total: float = float(out.sum())
    return out / total


def central_range(dist: npt.NDArray[np.float64], n: int, level: float) -> tuple[int, int]:
    """The player's net result (paid - staked, in units) at the ``(1-level)/2`` and
    ``(1+level)/2`` quantiles of ``dist`` (the total paid over ``n`` rounds)."""
    cdf = np.cumsum(dist)
    lo = int(np.searchsorted(cdf, (1 - level) / 2))
    hi = int(np.searchsorted(cdf, (1 + level) / 2))
    return lo - n, hi - n


def rng_tests(seed: int, shuffles: int = SHUFFLES, draws: int = DRAWS) -> dict[str, Any]:
    """Statistical tests of :class:`~mazziere.rng.SplitMixRng` (module docstring)."""
    from scipy import stats

    g = SplitMixRng(seed)
    positions = np.zeros((108, 108), dtype=np.int64)
    deck = list(range(108))
    idx = np.arange(108)
    for _ in range(shuffles):
        cards = deck.copy()
        g.shuffle(cards)
        positions[np.asarray(cards), idx] += 1
    expected = shuffles / 108
    chi_shuffle = float(((positions - expected) ** 2 / expected).sum())
    df_shuffle = 107 * 107
    counts = np.bincount([g.randbelow(108) for _ in range(draws)], minlength=108)
    chi_draw, p_draw = stats.chisquare(counts)
    u = np.array([g.next64() for _ in range(draws)], dtype=np.float64) / 2.0**64
    r = float(np.corrcoef(u[:-1], u[1:])[0, 1])
    z = r * math.sqrt(len(u) - 1)
    return {
        "generator": "SplitMix64 (mazziere.rng.SplitMixRng), seeded per round from the run's "
        "master seed",
        "shuffle_uniformity": {
            "shuffles": shuffles,
            "cells": "108 cards x 108 positions",
            "chi_square": chi_shuffle,
            "df": df_shuffle,
            "p_value": float(stats.chi2.sf(chi_shuffle, df_shuffle)),
        },
        "randbelow_108": {
            "draws": draws,
            "chi_square": float(chi_draw),
            "df": 107,
            "p_value": float(p_draw),
        },
        "serial_correlation": {
            "outputs": draws,
            "lag1_r": r,
            "z": z,
            "p_value": float(2 * stats.norm.sf(abs(z))),
        },
        "seed_commitment": (
            "At a table, each hand's seed is drawn from the operating system's cryptographic "
            "source; the SHA-256 of the seed is published to every seat when the hand starts "
            "(hand_started note, 'commitment') and stored with the hand; the seed itself is "
            "shown in the hand history once the hand is over, so anyone can check that the deal "
            "followed from the committed seed (docs/rules/platform.md)."
        ),
    }


def certify_casino(
    rounds: int,
    seed: int = 1,
    workers: int | None = None,
    search_rounds: int = 20_000,
    cluster: Any = None,
    command: str = "",
    shuffles: int = SHUFFLES,
    draws: int = DRAWS,
    readings_rounds: int = 0,
    journal_dir: Path | None = None,
) -> CertifyResult:
    """Measure everything the report shows (module docstring); ``readings_rounds`` rounds of
    every reading of the rules (0: none), kept in ``journal_dir`` when one is given."""
    t0 = time.perf_counter()

    def run(n: int, r: Readings = ADOPTED, strategy: str = "default") -> RtpResult:
        at = None if journal_dir is None or strategy != "default" else journal_path(journal_dir, r)
        return run_rtp(n, seed, workers, readings=r, strategy=strategy, cluster=cluster, journal=at)

    main = run(rounds)
    # the readings table: every row on ``readings_rounds`` rounds (module docstring)
    same = {ADOPTED: main} if readings_rounds == rounds else {}
    readings = [main]
    if readings_rounds > 0:
        readings = [same.get(r) or run(readings_rounds, r) for r in alternatives()]
    careless = run(min(rounds, CARELESS_ROUNDS), strategy="random")
    skilled = run(min(search_rounds, rounds), strategy="search")
    rtp = main.rtp
    shares = [c / main.rounds for c in main.paid_counts]
    sd = math.sqrt(sum(s * (k - rtp.estimate) ** 2 for k, s in enumerate(shares)))
    z = z_quantile(0.95)
    horizons = {}
    for n in HORIZONS:
        dist = result_distribution(shares, n)
        ahead = float(dist[n + 1 :].sum())
        horizons[str(n)] = {
            "expected_net": n * (rtp.estimate - 1),
            "ranges": {f"{int(lv * 100)}%": central_range(dist, n, lv) for lv in RANGES},
            "chance_ahead": ahead,
        }
    top = main.paid_counts[-1]
    p_top = top / main.rounds
    data: dict[str, Any] = {
        "game": "UNO CASINO (docs/rules/casino.md)",
        "rounds": main.rounds,
        "seed": seed,
        "rtp": {"estimate": rtp.estimate, "ci95": [rtp.low, rtp.high]},
        "win_rate": main.win_rate.estimate,
        "payouts": {
            f"x{k}": {"rounds": c, "share": c / main.rounds} for k, c in enumerate(main.paid_counts)
        },
        "volatility": {"sd_per_unit_staked": sd},
        "rounds_needed": {f"+-{w:.2%}": math.ceil((z * sd / w) ** 2) for w in TARGET_WIDTHS},
        "player_result": horizons,
        "largest_payout": {
            "multiplier": len(main.paid_counts) - 1,
            "rounds": top,
            "probability": p_top,
            "odds_one_in": (1 / p_top) if p_top else None,
            "gli11_reachable_in_1e8": p_top >= 1 / GLI_GAMES,
            "expected_in_1e8": p_top * GLI_GAMES,
        },
        "skill_range": {
            name: _strategy(r)
            for name, r in (("random", careless), ("default", main), ("search", skilled))
        },
        "published": published_check(main),
        "readings": readings_table(readings),
        "readings_verdict": readings_verdict(readings_table(readings)),
        "legal_minimum": {
            "minimum": LEGAL_MINIMUM,
            "met": rtp.low >= LEGAL_MINIMUM,
            "rule": "Italy: card games against the house pay back at least 90%",
        },
        "rng": rng_tests(seed, shuffles, draws),
        "software": {
            "mazziere": __version__,
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "command": command,
        },
        "wall_seconds": time.perf_counter() - t0,
        "rounds_per_second": main.rounds_per_second,
        "ray": cluster is not None,
    }
    return CertifyResult(data)


def journal_path(folder: Path, readings: Readings) -> Path:
    """Where a reading's run keeps its chunks: ``FOLDER/<label>.jsonl`` (``adopted.jsonl``,
    ``skip_chain=played.jsonl``...), so that ``mazziere rtp --reading ... --journal`` on the
    same file serves the report."""
    return folder / f"{readings.label()}.jsonl"


def published_check(r: RtpResult) -> dict[str, Any]:
    """The published RTP against a run's interval: inside, or by how much outside."""
    i = r.rtp
    outside = max(i.low - PUBLISHED_RTP, PUBLISHED_RTP - i.high, 0.0)
    return {
        "rtp": PUBLISHED_RTP,
        "inside_ci95": outside == 0.0,
        "outside_by": outside,
        "difference": i.estimate - PUBLISHED_RTP,
    }


def readings_table(runs: Sequence[RtpResult]) -> list[dict[str, Any]]:
    """One row per run: the reading (the clause and the value read), the sentence of seed
    000 it rests on, the RTP with its interval, and the published RTP against it."""
    quote = {c.name: c for c in CLAUSES}
    rows = []
    for r in runs:
        changed = r.readings.changed()
        name, value = next(iter(changed.items()), ("", "adopted"))
        clause = quote.get(name)
        i = r.rtp
        rows.append(
            {
                "reading": r.readings.label(),
                "clause": name,
                "value": value,
                "meaning": clause.values[value] if clause else "every clause as adopted",
                "sentence": clause.quote if clause else "",
                "english": clause.english if clause else "",
                "rounds": r.rounds,
                "rtp": i.estimate,
                "ci95": [i.low, i.high],
                "published": published_check(r),
            }
        )
    return rows


def readings_verdict(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Which readings' intervals hold the published RTP, and the reading nearest to it."""
    inside = [r["reading"] for r in rows if r["published"]["inside_ci95"]]
    near = min(rows, key=lambda r: abs(r["rtp"] - PUBLISHED_RTP))
    return {
        "inside": inside,
        "closest": near["reading"],
        "closest_rtp": near["rtp"],
        "closest_outside_by": near["published"]["outside_by"],
    }


def _strategy(r: RtpResult) -> dict[str, Any]:
    i = r.rtp
    return {
        "strategy": r.strategy,
        "rounds": r.rounds,
        "rtp": i.estimate,
        "ci95": [i.low, i.high],
        "worlds": r.worlds if r.strategy == "search" else None,
    }


def payout_chart(result: CertifyResult, path: Path) -> Path:
    """A bar chart of the payout shares (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pays = result.data["payouts"]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    try:
        names = list(pays)
        shares = [pays[k]["share"] for k in names]
        bars = ax.bar(names, shares, color=["#999999", "#6a8fc7", "#4a6fb0", "#2a4f90"])
        for b, s in zip(bars, shares, strict=True):
            ax.annotate(f"{s:.2%}", (b.get_x() + b.get_width() / 2, s), ha="center", va="bottom")
        ax.set_ylabel("share of rounds")
        ax.set_xlabel("payout (multiple of the stake; x0: the bank won)")
        ax.set_title(f"UNO CASINO payouts over {result.data['rounds']:,} rounds")
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)
    return path


def write_report(result: CertifyResult, out: Path) -> list[Path]:
    """``report.json``, ``payouts.png`` and ``report.html`` (the chart embedded) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "report.json"
    json_path.write_text(json.dumps(result.data, indent=2))
    chart = payout_chart(result, out / "payouts.png")
    html_path = out / "report.html"
    html_path.write_text(render_html(result, base64.b64encode(chart.read_bytes()).decode()))
    return [html_path, json_path, chart]


def _pct(x: float) -> str:
    return f"{x:.4%}"


def render_html(result: CertifyResult, chart_b64: str) -> str:
    """The report as one self-contained HTML page."""
    d = result.data
    e = html.escape
    rtp = d["rtp"]
    rows_pay = "".join(
        f"<tr><td>{e(k)}</td><td>{v['rounds']:,}</td><td>{_pct(v['share'])}</td></tr>"
        for k, v in d["payouts"].items()
    )
    rows_need = "".join(
        f"<tr><td>{e(k)}</td><td>{v:,}</td></tr>" for k, v in d["rounds_needed"].items()
    )
    rows_hor = "".join(
        f"<tr><td>{int(n):,}</td><td>{h['expected_net']:+,.1f}</td>"
        + "".join(f"<td>{lo:+,} to {hi:+,}</td>" for lo, hi in h["ranges"].values())
        + f"<td>{_pct(h['chance_ahead'])}</td></tr>"
        for n, h in d["player_result"].items()
    )
    rows_skill = "".join(
        f"<tr><td>{e(s['strategy'])}</td><td>{s['rounds']:,}</td><td>{_pct(s['rtp'])}</td>"
        f"<td>{_pct(s['ci95'][0])} - {_pct(s['ci95'][1])}</td></tr>"
        for s in d["skill_range"].values()
    )
    top = d["largest_payout"]
    rng = d["rng"]
    sh, rb, sc = rng["shuffle_uniformity"], rng["randbelow_108"], rng["serial_correlation"]
    legal = d["legal_minimum"]
    pub = d["published"]
    verdict = (
        "lies inside the interval"
        if pub["inside_ci95"]
        else f"lies outside the interval, by {pub['outside_by'] * 100:.4f} points"
    )
    near = d["readings_verdict"]
    if near["inside"]:
        found = "Readings whose interval holds it: " + ", ".join(near["inside"]) + "."
    else:
        found = (
            f"No reading's interval holds it; the nearest is {near['closest']} "
            f"({_pct(near['closest_rtp'])}, outside by "
            f"{near['closest_outside_by'] * 100:.4f} points)."
        )
    rows_read = "".join(
        f"<tr><td>{e(r['reading'])}</td><td class=t>{e(r['meaning'])}</td>"
        f"<td class=t><i>{e(r['sentence'])}</i></td><td>{r['rounds']:,}</td>"
        f"<td>{_pct(r['rtp'])}</td><td>{_pct(r['ci95'][0])} - {_pct(r['ci95'][1])}</td>"
        f"<td>{'inside' if r['published']['inside_ci95'] else 'outside'}</td></tr>"
        for r in d["readings"]
    )
    n = {r["rounds"] for r in d["readings"]} - {d["rounds"]}  # the table's own length, if any
    equal_work = (
        f" Every row rests on {min(n):,} rounds, the adopted row too (equal work for every"
        f" reading); the RTP above rests on {d['rounds']:,}."
        if n
        else ""
    )
    odds = "never observed" if top["odds_one_in"] is None else f"1 in {top['odds_one_in']:,.1f}"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>UNO CASINO certification report</title>
<style>
body{{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
color:#222}} table{{border-collapse:collapse;margin:.5rem 0 1.5rem}}
td,th{{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}}
th{{background:#f1f1f1}} td:first-child,th:first-child,td.t{{text-align:left}}
.ok{{color:#176117;font-weight:600}} .bad{{color:#a11;font-weight:600}}
code{{background:#f4f4f4;padding:0 .2rem}}
</style></head><body>
<h1>UNO CASINO: certification report</h1>
<p>{e(d["game"])}. {d["rounds"]:,} rounds, master seed {d["seed"]}, stake 1 unit a round,
both sides on their published strategies. Rounds are independent; round <i>i</i> is dealt
from the <i>i</i>-th output of the master seed's SplitMix64 stream, so the run is
reproducible exactly.</p>
<h2>Return to player</h2>
<table><tr><th>Measure</th><th>Value</th></tr>
<tr><td>RTP</td><td>{_pct(rtp["estimate"])}</td></tr>
<tr><td>95% interval</td><td>{_pct(rtp["ci95"][0])} - {_pct(rtp["ci95"][1])}</td></tr>
<tr><td>Player win rate</td><td>{_pct(d["win_rate"])}</td></tr>
<tr><td>Volatility (sd of one round's result per unit staked)</td>
<td>{d["volatility"]["sd_per_unit_staked"]:.4f}</td></tr>
<tr><td>Italian minimum ({legal["minimum"]:.0%})</td>
<td class="{"ok" if legal["met"] else "bad"}">{"met" if legal["met"] else "NOT met"}</td></tr>
</table>
<h2>The published RTP</h2>
<p>The published rules give a theoretical RTP of {_pct(pub["rtp"])}. The measured RTP is
{_pct(rtp["estimate"])}: the published figure {verdict}.</p>
<h2>Readings of the rules</h2>
<p>The sentences of the published rules whose reading changes the RTP, each other reading
measured on the same seeds with every other sentence read as adopted (docs/rules/casino.md,
"Readings of the rules"). The published figure is {_pct(pub["rtp"])}.{e(equal_work)}</p>
<table><tr><th>reading</th><th>what it reads</th><th>sentence of the rules</th><th>rounds</th>
<th>RTP</th><th>95% interval</th><th>{_pct(pub["rtp"])}</th></tr>{rows_read}</table>
<p>{e(found)}</p>
<h2>Rounds needed for a given interval</h2>
<table><tr><th>95% interval half-width</th><th>rounds</th></tr>{rows_need}</table>
<h2>Payout distribution</h2>
<table><tr><th>Payout</th><th>rounds</th><th>share</th></tr>{rows_pay}</table>
<img alt="payout distribution" src="data:image/png;base64,{chart_b64}">
<h2>A player's result</h2>
<p>Net result in units (paid less staked) over a number of rounds: the exact distribution of a
sum of independent rounds with the measured payout shares.</p>
<table><tr><th>rounds</th><th>expected</th><th>90% range</th><th>95% range</th>
<th>99% range</th><th>chance of being ahead</th></tr>{rows_hor}</table>
<h2>Largest payout</h2>
<p>x{top["multiplier"]}: {top["rounds"]:,} rounds ({_pct(top["probability"])}), {odds}.
GLI-11 (reachable at least once in 100 million games):
<span class="{"ok" if top["gli11_reachable_in_1e8"] else "bad"}">
{"met" if top["gli11_reachable_in_1e8"] else "NOT met"}</span>
(about {top["expected_in_1e8"]:,.0f} expected in 10<sup>8</sup> games).</p>
<h2>Skill range</h2>
<p>The same measure with the player careless (random legal choices) and with a search that
sees only the player's view (it deals the unseen cards at random and plays each move out).
The bank's strategy is fixed and published, so a player helped by such a program can get back
more than it stakes: an operator should decide whether computer help is allowed and how it is
detected (docs/rules/casino.md, "The skill range").</p>
<table><tr><th>player</th><th>rounds</th><th>RTP</th><th>95% interval</th></tr>{rows_skill}
</table>
<h2>Random number generator</h2>
<p>{e(rng["generator"])}.</p>
<table><tr><th>Test</th><th>sample</th><th>statistic</th><th>p-value</th></tr>
<tr><td>Card positions after a shuffle (chi-square, {e(sh["cells"])})</td>
<td>{sh["shuffles"]:,} shuffles</td><td>{sh["chi_square"]:,.1f} (df {sh["df"]:,})</td>
<td>{sh["p_value"]:.4f}</td></tr>
<tr><td>randbelow(108) (chi-square)</td><td>{rb["draws"]:,} draws</td>
<td>{rb["chi_square"]:,.1f} (df {rb["df"]})</td><td>{rb["p_value"]:.4f}</td></tr>
<tr><td>Serial correlation of consecutive outputs (lag 1)</td><td>{sc["outputs"]:,} outputs</td>
<td>r = {sc["lag1_r"]:+.5f} (z = {sc["z"]:+.2f})</td><td>{sc["p_value"]:.4f}</td></tr>
</table>
<p>Seed commitment: {e(rng["seed_commitment"])}</p>
<h2>Software</h2>
<p>mazziere {e(d["software"]["mazziere"])}, Python {e(d["software"]["python"])},
{e(d["software"]["platform"])}; {"a Ray cluster" if d["ray"] else "local processes"};
{d["wall_seconds"]:,.1f} s. Command: <code>{e(d["software"]["command"])}</code></p>
</body></html>
"""
