"""Batch simulation: many matches between bots, with confidence intervals (docs/architecture.md
"Layout")."""

from mazziere.sim.stats import Interval, MeanCI, mean_ci, wilson
from mazziere.sim.uno_sim import SimulationError, UnoSimResult, simulate_uno

__all__ = [
    "Interval",
    "MeanCI",
    "SimulationError",
    "UnoSimResult",
    "mean_ci",
    "simulate_uno",
    "wilson",
]
