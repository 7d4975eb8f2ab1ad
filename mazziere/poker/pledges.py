"""Money and pledges (draw-poker.md "Money and pledges"; seed 002's pawned clothes).

The computer (seat 1) holds named items, each appraised at ``item_value``. Readings where the
rules are silent:

* Whenever the computer must pay (ante, call, its own bet or raise) more than its bankroll, it
  pledges its next worn item, in the table's order, and receives the item's value in chips,
  until it can pay. With nothing left to pledge it cannot pay: at an ante the human wins the
  game; calls cannot fall short because no bet may exceed what the other side can cover.
* An item is pledged for the deal being played (a tie carries the pot, and the items pledged
  for it, into the next deal). When the computer loses that deal (folds or loses the showdown)
  the items pledged for it are forfeited; when it wins, it buys them back at once for their
  value (the pot it won always covers them: it holds every chip it put in, the pledged ones
  included); a tie settles nothing.
* After every decided deal, while the computer's bankroll is at least an item's value plus the
  next ante, it buys back the most recently forfeited item for that value.
* The human (seat 0) never pledges: unable to pay an ante, the human loses the game.
* A tied pot always stays on the table for the next deal (seed 002: "la posta resta intatta e
  comincia un'altra distribuzione"), whatever either side has left. When that next deal cannot
  start because a side cannot pay the ante, the game ends and that side gives up the pot, as a
  fold does (seed 002: who passes loses what it paid into the pot, which goes to the other;
  standard practice: a player who cannot post the ante is out, and the chips it already put in
  go to the player still in). The pot is never split. So the human out of chips after a tie
  loses the game and the pot, and the computer buys back the items pledged for it, as after a
  won deal; the computer out of chips with nothing left to pledge -- its last item pledged on
  the tied pot -- loses the game, the pot and that item, forfeited as after a lost deal (our
  reading: the human wins when the computer has forfeited every item and cannot pay).

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
        """The computer lost the deal: the items pledged for it are forfeited."""
        for i in self.pledge_stack:
            if self.items[i] is ItemStatus.PLEDGED:
                self.items[i] = ItemStatus.FORFEITED
                self.events.append(E.Forfeited(COMPUTER, self.rules.items[i]))

    def release_pledged(self) -> None:
        """The computer took the pot the items were pledged for: it buys them back, most recent
        first. The pledged items are always the
        top of the stack (pledged after every forfeit), and the chips always cover them."""
        value = self.rules.item_value
        while self.pledge_stack and self.items[self.pledge_stack[-1]] is ItemStatus.PLEDGED:
            if self.bankrolls[COMPUTER] < value:
                raise AssertionError("a won deal always covers the items pledged for it")
            self._buy_back(self.pledge_stack.pop())

    def redeem(self) -> None:
        """Buy back the most recently forfeited items while value + ante is covered."""
        value = self.rules.item_value
        while (
            self.pledge_stack
            and self.items[self.pledge_stack[-1]] is ItemStatus.FORFEITED
            and self.bankrolls[COMPUTER] >= value + self.rules.ante
        ):
            self._buy_back(self.pledge_stack.pop())

    def _buy_back(self, i: int) -> None:
        value = self.rules.item_value
        self.items[i] = ItemStatus.WORN
        self.bankrolls[COMPUTER] -= value
        self.events.append(E.Redeemed(COMPUTER, self.rules.items[i], value))

    def award_pot(self, winner: int, reason: str) -> None:
        """``winner`` takes the whole pot; the items pledged for it are forfeited when that is
        the human, bought back when it is the computer (see the module docstring)."""
        self.events.append(E.PotWon(winner, self.pot, reason))
        self.bankrolls[winner] += self.pot
        self.pot = 0
        if winner == COMPUTER:
            self.release_pledged()
        else:
            self.forfeit_pledged()
