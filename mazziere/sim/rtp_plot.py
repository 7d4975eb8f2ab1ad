"""The running RTP estimate of a run and its 95% band, converging as rounds accumulate, against
the 90% legal minimum (docs/rules/casino.md "Return to player (RTP)"). Needs matplotlib
(Agg)."""

from __future__ import annotations

from pathlib import Path

from mazziere.sim.rtp import LEGAL_MINIMUM, RtpResult


def plot_rtp(result: RtpResult, path: str | Path) -> Path:
    """Draw the checkpoints of ``result`` (log-scaled rounds) to ``path``; returns it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    pts = result.checkpoints
    x = [p.rounds for p in pts]
    fig, ax = plt.subplots(figsize=(9, 5), dpi=120)
    try:
        ax.fill_between(
            x, [p.low for p in pts], [p.high for p in pts], alpha=0.25, label="95% interval"
        )
        ax.plot(x, [p.rtp for p in pts], lw=1.6, label="running RTP")
        ax.axhline(LEGAL_MINIMUM, color="crimson", ls="--", lw=1.2, label="90% legal minimum")
        final = result.rtp
        ax.axhline(final.estimate, color="grey", ls=":", lw=1, label=f"final {final.estimate:.3%}")
        ax.set_xscale("log")
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        low = min(LEGAL_MINIMUM, min(p.low for p in pts[len(pts) // 3 :]))
        high = max(p.high for p in pts[len(pts) // 3 :])
        pad = (high - low) * 0.15 + 0.005
        ax.set_ylim(max(0.0, low - pad), high + pad)
        ax.set_xlabel("rounds played (stake 1 unit each)")
        ax.set_ylabel("return to player")
        ax.set_title(
            f"UNO CASINO RTP: {result.rounds:,} rounds, seed {result.seed}, "
            f"{final.estimate:.3%} (95% CI {final.low:.3%} – {final.high:.3%})"
        )
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(loc="upper right")
        fig.tight_layout()
        out = Path(path)
        fig.savefig(out)
    finally:
        plt.close(fig)
    return out
