"""Money and pledges (draw-poker.md "Money and pledges"; seed 002's pawned clothes).

The computer (seat 1) holds named items, each appraised at ``item_value``. Readings where the
rules are silent:

* Whenever the computer must pay (ante, call, its own bet or raise) more than its bankroll, it
  pledges its next worn item, in the table's order, and receives the item's value in chips,
  until it can pay. With nothing left to pledge it cannot pay: at an ante the human wins the
  game; calls cannot fall short because no bet may exceed what the other side can cover.
* When the computer loses a deal (folds or loses the showdown) every item still pledged is
  forfeited. A won deal leaves pledged items pledged; a tie settles nothing.
* After every deal, while the computer's bankroll is at least an item's value plus the next
  ante, it buys back the most recent pledged or forfeited item for that value.
* The human (seat 0) never pledges: unable to pay an ante, the human loses the game.

Every movement conserves ``bankrolls + pot + value of worn items`` (:attr:`State.money`): a
pledge turns an item into chips, a redemption chips back into the item, a forfeit moves
nothing (the chips were already at stake).
"""

from __future__ import annotations

from mazziere.poker import events as E
from mazziere.poker.options import Rules
from mazziere.poker.state import COMPUTER, ItemStatus


class Purse:
    """Bankrolls, pot and items of a game in progress (mixed into the machine)."""

    rules: Rules
    bankrolls: list[int]
    pot: int
    items: list[ItemStatus]
    pledge_stack: list[int]
    events: list[E.Event]

    def worn(self) -> list[int]:
        """Indices of the computer's items that can still be pledged, in pledge order."""
        return [i for i, s in enumerate(self.items) if s is ItemStatus.WORN]

    def cover(self, seat: int) -> int:
        """All ``seat`` could still pay: its bankroll, plus for the computer its worn items."""
        extra = self.rules.item_value * self.items.count(ItemStatus.WORN) if seat == COMPUTER else 0
        return self.bankrolls[seat] + extra

    def can_pay(self, seat: int, amount: int) -> bool:
        return self.cover(seat) >= amount

    def pay(self, seat: int, amount: int) -> None:
        """Move ``amount`` from ``seat`` into the pot, pledging items first if needed."""
        if seat == COMPUTER:
            for i in self.worn():
                if self.bankrolls[seat] >= amount:
                    break
                self.items[i] = ItemStatus.PLEDGED
                self.pledge_stack.append(i)
                self.bankrolls[seat] += self.rules.item_value
                self.events.append(E.Pledged(seat, self.rules.items[i], self.rules.item_value))
        if self.bankrolls[seat] < amount:
            raise AssertionError("pay() called for more than the seat can cover")
        self.bankrolls[seat] -= amount
        self.pot += amount

    def forfeit_pledged(self) -> None:
        """The computer lost a deal: every item it has pledged is forfeited."""
        for i in self.pledge_stack:
            if self.items[i] is ItemStatus.PLEDGED:
                self.items[i] = ItemStatus.FORFEITED
                self.events.append(E.Forfeited(COMPUTER, self.rules.items[i]))

    def redeem(self) -> None:
        """Buy back the most recent pledged/forfeited items while value + ante is covered."""
        value = self.rules.item_value
        while self.pledge_stack and self.bankrolls[COMPUTER] >= value + self.rules.ante:
            i = self.pledge_stack.pop()
            self.items[i] = ItemStatus.WORN
            self.bankrolls[COMPUTER] -= value
            self.events.append(E.Redeemed(COMPUTER, self.rules.items[i], value))
