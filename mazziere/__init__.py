"""Mazziere ("the dealer"): card-game rules engines and a game server.

Rules packages (``cards``, ``uno``, ``casino``, ``poker``) do no I/O: randomness comes in
through the :mod:`mazziere.rng` source the caller passes, and the state carries the deck order.
"""

__version__ = "0.1.0"
