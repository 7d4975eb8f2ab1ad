"""Choosing the dealer, dealing a hand and turning the first card (uno.md "A hand" 1-3):
functions over a :class:`~mazziere.uno.state.GameData`."""

from __future__ import annotations

from mazziere.cards.uno import COLORS, FACE_COLOR, FULL_DECK, WILD4_FACE, WILD_FACE, Card
from mazziere.uno import events as E
from mazziere.uno.matching import DRAW2_RANK, REVERSE_RANK, SKIP_RANK
from mazziere.uno.state import COLOR, PLAY, GameData

_NO_REVERSE: tuple[Card, ...] = tuple(
    c for c in FULL_DECK if not (c < WILD_FACE and c % 13 == REVERSE_RANK)
)
_REVERSES: tuple[Card, ...] = tuple(
    c for c in FULL_DECK if c < WILD_FACE and c % 13 == REVERSE_RANK
)


def choose_dealer(g: GameData) -> int:
    """``dealer_selection``: 003 highest number deals, 001 lowest, 004 random. Action and
    wild cards drawn are put aside and redrawn; tied seats draw again."""
    rules = g.rules
    if rules.dealer_selection == "random":
        seat = g.match_rng.randbelow(g.players)
        g.events.append(E.DealerChosen(seat))
        return seat
    deck = list(FULL_DECK)
    g.match_rng.shuffle(deck)
    contenders = list(range(g.players))
    while True:
        drawn: dict[int, int] = {}
        for seat in contenders:
            while True:
                if not deck:  # cannot happen with <= 10 seats, but never loop forever
                    deck = list(FULL_DECK)
                    g.match_rng.shuffle(deck)
                c = deck.pop()
                g.events.append(E.DealerCard(seat, c))
                if c < WILD_FACE and c % 13 <= 9:
                    drawn[seat] = c % 13
                    break
        best = (max if rules.dealer_selection == "highest" else min)(drawn.values())
        contenders = [s for s in contenders if drawn[s] == best]
        if len(contenders) == 1:
            g.events.append(E.DealerChosen(contenders[0]))
            return contenders[0]


def start_hand(g: GameData, first: bool = False) -> None:
    """Deal a fresh hand (uno.md "A hand" 1-3; 001 "qui abbiamo ripescato tutti")."""
    rules = g.rules
    n = g.players
    g.hand_no += 1
    if not first:
        g.dealer = next_active(g, g.dealer)
    if g.tiebreak:
        tied = tiebreak_seats(g)
        g.in_hand = tuple(s in tied for s in range(n))
    else:
        g.in_hand = g.active
    g.rng = g.match_rng.spawn()
    g.commitment = g.rng.commitment
    if sum(g.in_hand) == 2 and rules.two_player_reverse == "removed":
        g.removed = _REVERSES
        deck = list(_NO_REVERSE)
    else:
        g.removed = ()
        deck = list(FULL_DECK)
    g.rng.shuffle(deck)
    g.draw_pile = deck
    g.discard = []
    g.hands = [() for _ in range(n)]
    g.direction = 1
    g.pending, g.stack_w4, g.stack_color = 0, False, None
    g.w4_by, g.w4_legal, g.drawn = None, True, None
    g.uno_seat, g.uno_called, g.uno_ready = None, False, None
    g.passes, g.turns = 0, 0
    g.color = None
    seats = [s for s in range(n) if g.in_hand[s]]
    g.events.append(E.HandStarted(g.hand_no, g.dealer, tuple(seats), g.commitment))
    first_seat = g.next_seat(g.dealer) if g.in_hand[g.dealer] else g.dealer
    if not g.in_hand[first_seat]:
        first_seat = g.next_seat(first_seat)
    order = [first_seat]
    while len(order) < len(seats):
        order.append(g.next_seat(order[-1]))
    sizes = rules.hand_sizes or (rules.hand_size,) * n
    dealt: list[list[Card]] = [[] for _ in range(n)]
    for k in range(max(sizes[s] for s in order)):
        for seat in order:
            if k < sizes[seat]:
                dealt[seat].append(deck.pop())
    g.hands = [tuple(h) for h in dealt]
    for seat in order:
        h = g.hands[seat]
        g.events.append(E.Dealt(seat, h, len(h)))
    turn_first_card(g, first_seat)


def next_active(g: GameData, seat: int) -> int:
    for k in range(1, g.players + 1):
        s = (seat + k) % g.players
        if g.active[s]:
            return s
    return seat


def tiebreak_seats(g: GameData) -> set[int]:
    return {s for s in range(g.players) if g.side_of(s) in g.tiebreak}


def turn_first_card(g: GameData, first_seat: int) -> None:
    """First-card handling, ``first_card`` = ``apply`` (003/004) or ``redraw_non_number``
    (000: the card goes back at a random depth, or at the bottom with
    ``returned_first_card``). A +4 is always returned and the pile reshuffled (003)."""
    rules, rng = g.rules, g.rng
    while True:
        c = g.draw_pile.pop()
        g.events.append(E.Turned(c))
        if rules.first_card == "redraw_non_number" and not (c < WILD_FACE and c % 13 <= 9):
            if rules.returned_first_card == "bottom":  # cards are drawn from the list's end
                g.draw_pile.insert(0, c)
            else:
                g.draw_pile.insert(rng.randbelow(len(g.draw_pile) + 1), c)
            g.events.append(E.Returned(c, "not_a_number"))
            continue
        if c == WILD4_FACE:
            g.draw_pile.append(c)
            rng.shuffle(g.draw_pile)
            g.events.append(E.Returned(c, "wild_draw_four"))
            continue
        break
    g.discard.append(c)
    g.current = first_seat
    g.phase = PLAY
    if c == WILD_FACE:
        g.phase = COLOR
        return
    g.color = COLORS[FACE_COLOR[c]]
    r = c % 13
    two = g.seats_in_hand() == 2
    if r == SKIP_RANK or (r == REVERSE_RANK and two and rules.two_player_reverse == "skip"):
        g.events.append(E.Skipped(first_seat))
        g.current = g.next_seat(first_seat)
    elif r == REVERSE_RANK:
        g.direction = -1
        g.events.append(E.Reversed(-1))
        g.current = g.dealer if g.in_hand[g.dealer] else g.next_seat(first_seat)
    elif r == DRAW2_RANK:
        g.hit_with_draw2(first_seat)
