"""Card values and decks: the 108-card UNO deck (``uno``); the French decks live with poker."""

from mazziere.cards.uno import (
    COLORS,
    FULL_DECK,
    Card,
    Color,
    Kind,
    card_points,
    parse_card,
    parse_cards,
)

__all__ = [
    "COLORS",
    "FULL_DECK",
    "Card",
    "Color",
    "Kind",
    "card_points",
    "parse_card",
    "parse_cards",
]
