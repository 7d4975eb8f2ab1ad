"""The online operator's auto-play rule (seed 004 "Gioco Automatico"), one function for the
engine's ``timeout`` action and for the ``autoplay`` bot.

On time-out the system plays the playable card of lowest value, never an action or wild
card; otherwise it draws and passes. Where 004 is silent: playing the next-to-last card, it
first says UNO for the player (an automatic penalty for the system's own play would punish the
player twice); a pending +2/+4 is accepted (never
challenged or stacked); a drawn card is kept, unless ``drawn_card='must_play'`` forces it; the
first card's colour is the one the hand holds most (ties in R, Y, G, B order); a 7 swap or a 0
give-four takes the first seat offered.
"""

from __future__ import annotations

from collections.abc import Sequence

from mazziere.cards.uno import FACE_COLOR, Card, Color
from mazziere.uno import actions as A
from mazziere.uno.state import Phase


def choose_autoplay(legal: Sequence[A.Action], hand: Sequence[Card], phase: Phase) -> A.Action:
    """The auto-play decision among ``legal`` (which must not be empty)."""
    if phase is Phase.COLOR:
        counts = [0, 0, 0, 0]
        for c in hand:
            if FACE_COLOR[c] >= 0:
                counts[FACE_COLOR[c]] += 1
        best = max(range(4), key=lambda i: (counts[i], -i))
        return A.ChooseColor(Color(best))
    if phase is Phase.PENDING:
        return A.ACCEPT
    plays = [
        a for a in legal if isinstance(a, A.Play) and len(a.cards) == 1 and a.cards[0].is_number
    ]
    if phase is Phase.PLAY:
        if plays:
            if A.CALL_UNO in legal and len(hand) == 2:
                return A.CALL_UNO  # the system says UNO for the player it plays for
            return min(plays, key=lambda a: (a.cards[0].points, int(a.cards[0])))
        if A.DRAW in legal:
            return A.DRAW
    if phase is Phase.DRAWN and A.PASS in legal:
        return A.PASS
    real = [a for a in legal if not isinstance(a, (A.CallUno, A.Catch, A.Challenge))]
    return (real or list(legal))[0]
