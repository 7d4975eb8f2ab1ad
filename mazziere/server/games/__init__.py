"""Game sessions the table actors drive: one small adapter per game over its rules engine."""

from __future__ import annotations

from mazziere.server.games.base import GameSession
from mazziere.server.games.casino_game import CasinoGame
from mazziere.server.games.poker_game import PokerGame
from mazziere.server.games.uno_game import UnoGame

GAMES: dict[str, type[GameSession]] = {"uno": UnoGame, "casino": CasinoGame, "poker": PokerGame}
"""Every game a table can host, by name."""
