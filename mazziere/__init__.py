"""Mazziere ("the dealer"): card-game rules engines and a game server.

Rules packages (``cards``, ``uno``, ``casino``, ``poker``) do no I/O: randomness comes in
through the :mod:`mazziere.rng` source the caller passes, and the state carries the deck order.
"""

__version__ = "0.1.0"

from mazziere._compiled import install_guard as _install_guard

_install_guard()
