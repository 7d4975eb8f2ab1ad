"""Choosing the dealer, dealing a hand and turning the first card (uno.md "A hand" 1-3)."""

from __future__ import annotations

from mazziere.cards.uno import FACE_COLOR, FULL_DECK, WILD4_FACE, WILD_FACE
from mazziere.uno import events as E
from mazziere.uno.core import Core
from mazziere.uno.matching import DRAW2_RANK, REVERSE_RANK, SKIP_RANK
from mazziere.uno.state import Phase


class Dealing(Core):
    """Dealer selection, dealing and first-card handling."""

    __slots__ = ()

    # ------------------------------------------------------------------ dealer and dealing
    def _choose_dealer(self) -> int:
        """``dealer_selection``: 003 highest number deals, 001 lowest, 004 random. Action and
        wild cards drawn are put aside and redrawn; tied seats draw again."""
        rules = self.rules
        if rules.dealer_selection == "random":
            seat = self.match_rng.randbelow(self.n)
            self.events.append(E.DealerChosen(seat))
            return seat
        deck = list(FULL_DECK)
        self.match_rng.shuffle(deck)
        contenders = list(range(self.n))
        while True:
            drawn: dict[int, int] = {}
            for seat in contenders:
                while True:
                    if not deck:  # cannot happen with <= 10 seats, but never loop forever
                        deck = list(FULL_DECK)
                        self.match_rng.shuffle(deck)
                    c = deck.pop()
                    self.events.append(E.DealerCard(seat, c))
                    if c < WILD_FACE and c % 13 <= 9:
                        drawn[seat] = c % 13
                        break
            best = (max if rules.dealer_selection == "highest" else min)(drawn.values())
            contenders = [s for s in contenders if drawn[s] == best]
            if len(contenders) == 1:
                self.events.append(E.DealerChosen(contenders[0]))
                return contenders[0]

    def _start_hand(self, first: bool = False) -> None:
        """Deal a fresh hand (uno.md "A hand" 1-3; 001 "qui abbiamo ripescato tutti")."""
        rules = self.rules
        self.hand_no += 1
        if not first:
            self.dealer = self._next_active(self.dealer)
        self.in_hand = (
            [s in self.tiebreak_seats() for s in range(self.n)]
            if self.tiebreak
            else list(self.active)
        )
        self.rng = self.match_rng.spawn()
        self.commitment = self.rng.commitment
        deck = list(FULL_DECK)
        self.removed = []
        if self.seats_in_hand() == 2 and rules.two_player_reverse == "removed":
            self.removed = [c for c in deck if c < WILD_FACE and c % 13 == REVERSE_RANK]
            deck = [c for c in deck if not (c < WILD_FACE and c % 13 == REVERSE_RANK)]
        self.rng.shuffle(deck)
        self.draw_pile = deck
        self.discard = []
        self.hands = [[] for _ in range(self.n)]
        self.direction = 1
        self.pending, self.stack_w4, self.stack_color = 0, False, -1
        self.w4_by, self.w4_legal, self.drawn = None, True, None
        self.uno_seat, self.uno_called, self.uno_ready = None, False, None
        self.passes, self.turns = 0, 0
        self.color = -1
        seats = [s for s in range(self.n) if self.in_hand[s]]
        self.events.append(E.HandStarted(self.hand_no, self.dealer, tuple(seats), self.commitment))
        first_seat = self.next_seat(self.dealer) if self.in_hand[self.dealer] else self.dealer
        if not self.in_hand[first_seat]:
            first_seat = self.next_seat(first_seat)
        order = [first_seat]
        while len(order) < len(seats):
            order.append(self.next_seat(order[-1]))
        sizes = rules.hand_sizes or (rules.hand_size,) * self.n
        for k in range(max(sizes[s] for s in order)):
            for seat in order:
                if k < sizes[seat]:
                    self.hands[seat].append(self.draw_pile.pop())
        for seat in order:
            h = self.hands[seat]
            self.events.append(E.Dealt(seat, tuple(h), len(h)))
        self._turn_first_card(first_seat)

    def _next_active(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if self.active[s]:
                return s
        return seat

    def tiebreak_seats(self) -> set[int]:
        return {s for s in range(self.n) if self.side(s) in self.tiebreak}

    def _turn_first_card(self, first_seat: int) -> None:
        """First-card handling, ``first_card`` = ``apply`` (003/004) or ``redraw_non_number``
        (000). A +4 is always returned and the pile reshuffled (003)."""
        rules, rng = self.rules, self.rng
        while True:
            c = self.draw_pile.pop()
            self.events.append(E.Turned(c))
            if rules.first_card == "redraw_non_number" and not (c < WILD_FACE and c % 13 <= 9):
                self.draw_pile.insert(rng.randbelow(len(self.draw_pile) + 1), c)
                self.events.append(E.Returned(c, "not_a_number"))
                continue
            if c == WILD4_FACE:
                self.draw_pile.append(c)
                rng.shuffle(self.draw_pile)
                self.events.append(E.Returned(c, "wild_draw_four"))
                continue
            break
        self.discard.append(c)
        self.current = first_seat
        self.phase = Phase.PLAY
        if c == WILD_FACE:
            self.phase = Phase.COLOR
            return
        self.color = FACE_COLOR[c]
        r = c % 13
        two = self.seats_in_hand() == 2
        if r == SKIP_RANK or (r == REVERSE_RANK and two and rules.two_player_reverse == "skip"):
            self.events.append(E.Skipped(first_seat))
            self.current = self.next_seat(first_seat)
        elif r == REVERSE_RANK:
            self.direction = -1
            self.events.append(E.Reversed(-1))
            self.current = self.dealer if self.in_hand[self.dealer] else self.next_seat(first_seat)
        elif r == DRAW2_RANK:
            self._hit_with_draw2(first_seat)
