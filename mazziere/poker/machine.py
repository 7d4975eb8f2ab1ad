"""The draw-poker rules as one mutable machine over a copy of a :class:`State` (draw-poker.md
"A deal"; seed 002's betting flow).

The pure API (:mod:`mazziere.poker.engine`) copies a state into a :class:`Machine`, lets it
check and apply one action, and freezes the result; a refused action raises a typed error
before anything moves. Readings where the rules are silent, stated where they are made:

* Deal 1 is opened by ``first_actor`` (default seat 0); the first actor alternates every deal,
  tied deals included. Cards are dealt one at a time, first actor first.
* Round one: the first actor may OPEN, WAIT or FOLD; after a WAIT the second may OPEN,
  REPLACE (check behind) or FOLD -- WAIT is the round's first action only, so two WAITs cannot
  loop. Facing a bet: RAISE, REPLACE (call) or FOLD. REPLACE closes the round.
* Round two: the first actor may OPEN, SEE (show down at once) or FOLD; facing a bet: RAISE,
  SEE or FOLD.
* A bet or raise is between ``min_bet`` and ``max_bet``, and never above what the other side
  can cover (bankroll, plus the computer's unpledged items) nor what the bettor can pay after
  calling. When that cap is below ``min_bet`` the only bet allowed is the cap itself.
* ``max_raises`` counts RAISEs per round; the OPEN bet is not a raise.
* The draw replaces the chosen cards in place with cards from the top of the deck.
"""

from __future__ import annotations

import itertools

from mazziere.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from mazziere.poker import actions as A
from mazziere.poker import events as E
from mazziere.poker.cards import Card, deck
from mazziere.poker.evaluator import hand_classes, rank_of, tables_for
from mazziere.poker.options import Rules
from mazziere.poker.pledges import Purse
from mazziere.poker.state import COMPUTER, HUMAN, GameResult, ItemStatus, Move, Phase, State
from mazziere.rng import Rng


class Machine(Purse):
    """Legal actions and applying them (see the module docstring)."""

    __slots__ = (
        "acts",
        "bankrolls",
        "commitment",
        "committed",
        "current",
        "deal_no",
        "deck",
        "drawn",
        "events",
        "first",
        "hands",
        "history",
        "items",
        "phase",
        "pledge_stack",
        "pot",
        "raises",
        "result",
        "rng",
        "rules",
    )

    rng: Rng
    commitment: str
    deal_no: int
    first: int
    phase: Phase
    current: int
    hands: list[list[Card]]
    deck: list[Card]
    committed: list[int]
    raises: int
    acts: int
    drawn: list[int]
    history: list[Move]
    result: GameResult | None

    # ------------------------------------------------------------------ construction / copy
    @classmethod
    def start(cls, rules: Rules, rng: Rng, first_actor: int = 0) -> Machine:
        """A new game: both bankrolls full, every item worn, deal 1 started."""
        if first_actor not in (0, 1):
            raise MalformedAction("first_actor is seat 0 or 1", "bad_seat")
        m = cls()
        m.rules, m.rng, m.events = rules, rng, []
        m.bankrolls = [rules.bankroll, rules.bankroll]
        m.pot, m.deal_no, m.first = 0, 0, 1 - first_actor
        m.items = [ItemStatus.WORN] * len(rules.items)
        m.pledge_stack, m.result, m.commitment = [], None, ""
        m.hands, m.deck, m.history = [[], []], [], []
        m._start_deal()
        return m

    @classmethod
    def thaw(cls, s: State) -> Machine:
        m = cls()
        m.rules, m.rng, m.commitment, m.events = s.rules, s.rng, s.commitment, []
        m.deal_no, m.first, m.phase, m.current = s.deal_no, s.first, s.phase, s.current
        m.hands = [list(s.hands[0]), list(s.hands[1])]
        m.deck = list(s.deck)
        m.pot, m.bankrolls, m.committed = s.pot, list(s.bankrolls), list(s.committed)
        m.raises, m.acts, m.drawn = s.raises, s.acts, list(s.drawn)
        m.items, m.pledge_stack = list(s.items), list(s.pledge_stack)
        m.history, m.result = list(s.history), s.result
        return m

    def freeze(self) -> State:
        return State(
            rules=self.rules,
            rng=self.rng,
            commitment=self.commitment,
            deal_no=self.deal_no,
            first=self.first,
            phase=self.phase,
            current=self.current,
            hands=(tuple(self.hands[0]), tuple(self.hands[1])),
            deck=tuple(self.deck),
            pot=self.pot,
            bankrolls=(self.bankrolls[0], self.bankrolls[1]),
            committed=(self.committed[0], self.committed[1]),
            raises=self.raises,
            acts=self.acts,
            drawn=(self.drawn[0], self.drawn[1]),
            items=tuple(self.items),
            pledge_stack=tuple(self.pledge_stack),
            history=tuple(self.history),
            result=self.result,
        )

    # ------------------------------------------------------------------ a deal
    def _start_deal(self) -> None:
        """Antes (with pledges), the deal's own random source, five cards each."""
        ante = self.rules.ante
        if self.bankrolls[HUMAN] < ante:
            self._end_game(COMPUTER, "seat 0 cannot pay the ante")
            return
        if not self.can_pay(COMPUTER, ante):
            self._end_game(HUMAN, "seat 1 has no items left to pledge and cannot pay the ante")
            return
        self.deal_no += 1
        self.first = 1 - self.first
        rng = self.rng.copy()
        deal_rng = rng.spawn()
        self.rng = rng
        self.commitment = deal_rng.commitment
        self.events.append(E.DealStarted(self.deal_no, self.first, self.commitment, self.pot))
        for seat in (self.first, 1 - self.first):
            self.pay(seat, ante)
            self.events.append(E.AntePaid(seat, ante))
        cards = list(deck(self.rules.deck))
        deal_rng.shuffle(cards)
        order = (self.first, 1 - self.first)
        self.hands = [[], []]
        for k in range(10):
            self.hands[order[k % 2]].append(cards[k])
        self.deck = cards[10:]
        for seat in order:
            self.events.append(E.Dealt(seat, tuple(self.hands[seat])))
        self.drawn, self.history = [-1, -1], []
        self._new_round(Phase.BET1)

    def _new_round(self, phase: Phase) -> None:
        self.phase, self.current = phase, self.first
        self.committed, self.raises, self.acts = [0, 0], 0, 0

    def _end_deal(self, winner: int | None, reason: str) -> None:
        if winner is None:
            self.events.append(E.PotCarried(self.pot))
        else:
            self.award_pot(winner, reason)
            self.redeem()
        self._start_deal()

    def _end_game(self, winner: int, reason: str) -> None:
        """A side cannot pay the ante: the game ends, and a pot carried from a tie goes to the
        other side (:mod:`mazziere.poker.pledges`: never split)."""
        if self.pot:
            self.award_pot(winner, "no_ante")
        self.phase, self.result = Phase.OVER, GameResult(winner, reason)
        self.events.append(E.GameEnded(winner, reason))

    # ------------------------------------------------------------------ what may be done
    def bet_range(self, seat: int) -> tuple[int, int] | None:
        """Smallest and largest bet (OPEN) or raise increment ``seat`` may make now."""
        cap = min(self.cover(seat) - self._owed(seat), self.cover(1 - seat))
        if self.rules.max_bet is not None:
            cap = min(cap, self.rules.max_bet)
        if cap <= 0:
            return None
        return min(self.rules.min_bet_amount, cap), cap

    def _owed(self, seat: int) -> int:
        return max(0, self.committed[1 - seat] - self.committed[seat])

    def words(self, seat: int) -> tuple[str, ...]:
        """The kinds of action ``seat`` may take now, in a stable order."""
        if self.phase is Phase.OVER or seat != self.current:
            return ()
        if self.phase is Phase.DRAW:
            return ("draw",)
        bet = self.bet_range(seat) is not None
        close = "replace" if self.phase is Phase.BET1 else "see"
        if self._owed(seat) == 0 and self.committed[1 - seat] == 0:
            if self.acts == 0:
                first = "wait" if self.phase is Phase.BET1 else "see"
                return ("open", first, "fold") if bet else (first, "fold")
            return ("open", close, "fold") if bet else (close, "fold")
        can_raise = bet and self.raises < self.rules.max_raises
        return ("raise", close, "fold") if can_raise else (close, "fold")

    def legal(self, seat: int) -> list[A.Action]:
        """Every action ``seat`` may take now: bets by amount, draws by card subset."""
        out: list[A.Action] = []
        rng = self.bet_range(seat)
        for word in self.words(seat):
            if word in ("open", "raise") and rng is not None:
                kind = A.Open if word == "open" else A.Raise
                out.extend(kind(a) for a in range(rng[0], rng[1] + 1))
            elif word == "draw":
                hand = self.hands[seat]
                for n in range(self.rules.max_replace + 1):
                    out.extend(A.Draw(c) for c in itertools.combinations(hand, n))
            else:
                out.append(A.Action.parse(word))
        return out

    def allows(self, seat: int, action: A.Action) -> bool:
        """Whether ``action`` is one of :meth:`legal`'s actions for ``seat``, tested without
        listing them: its word is one of :meth:`words`, a bet's amount lies in
        :meth:`bet_range`, a draw names at most ``max_replace`` distinct cards of the hand (in
        any order: :meth:`legal` lists each set of cards once, in hand order)."""
        if action.word not in self.words(seat):
            return False
        if isinstance(action, (A.Open, A.Raise)):
            rng = self.bet_range(seat)
            return rng is not None and rng[0] <= action.amount <= rng[1]
        if isinstance(action, A.Draw):
            cards, hand = action.cards, self.hands[seat]
            return (
                len(cards) <= self.rules.max_replace
                and len(set(cards)) == len(cards)
                and all(c in hand for c in cards)
            )
        return True

    def refusal(self, seat: int, action: A.Action) -> tuple[str, str]:
        """The code and message of the first rule ``action`` breaks, for an action
        :meth:`allows` refuses to ``seat`` (whose turn it is, in a game not over)."""
        word, rules, owed = action.word, self.rules, self._owed(seat)
        allowed = self.words(seat)
        if word not in allowed:
            if word == "wait":
                reason = "WAIT is only the round's first action, when nothing has been bet"
                if self.phase is not Phase.BET1:
                    code = "wrong_phase"
                elif owed or self.committed[1 - seat]:
                    code = "wait_after_bet"
                else:
                    code = "wait_not_first"
            elif word == "open" and owed:
                code = "already_bet"
                reason = "OPEN only when nothing has been bet: pay and RAISE instead"
            elif word in ("open", "raise") and self.bet_range(seat) is None:
                code = "bet_above_cover"
                reason = "no bet is possible: the other side cannot cover any more"
            elif word == "raise" and owed and self.raises >= rules.max_raises:
                code = "max_raises"
                reason = f"max_raises: at most {rules.max_raises} raises per round"
            elif word == "raise":
                code = "nothing_to_raise"
                reason = "RAISE needs a bet to raise: OPEN instead"
            else:
                code = "wrong_phase"
                reason = f"'{word}' is not an action of the {self.phase} phase now"
            return code, f"{reason} (allowed now: {', '.join(allowed)})"
        if isinstance(action, A.Draw):
            cards = action.cards
            if len(cards) > rules.max_replace:
                return (
                    "max_replace",
                    f"max_replace: at most {rules.max_replace} cards may be replaced",
                )
            if len(set(cards)) != len(cards):
                return "card_not_in_hand", "the same card cannot be replaced twice"
            missing = " ".join(str(c) for c in cards if c not in self.hands[seat])
            return "card_not_in_hand", f"only cards in the hand can be replaced, not {missing}"
        assert isinstance(action, (A.Open, A.Raise)), f"{action} is legal now"
        amount, rng = action.amount, self.bet_range(seat)
        assert rng is not None
        if amount < rng[0]:
            return (
                "bet_below_minimum",
                f"a bet or raise is at least min_bet = {rng[0]} chips, not {amount}",
            )
        if rules.max_bet is not None and amount > rules.max_bet:
            return "bet_above_max", f"a bet or raise is at most max_bet = {rules.max_bet} chips"
        other = self.cover(1 - seat)
        if amount > other:
            return (
                "bet_above_cover",
                f"a bet can never exceed what the other side can cover ({other} chips)",
            )
        return (
            "bet_above_bankroll",
            f"seat {seat} can pay at most {self.cover(seat)} chips, {owed} of them owed",
        )

    # ------------------------------------------------------------------ applying an action
    def act(self, seat: int, action: A.Action) -> None:
        """Apply ``action`` when it is legal (:meth:`allows`, the test of :meth:`legal`);
        otherwise raise with :meth:`refusal`'s code and message, and nothing moves."""
        if self.phase is Phase.OVER:
            raise GameOver("the game is over: no more actions")
        if seat not in (0, 1):
            raise MalformedAction(f"seat {seat} does not exist (seats are 0 and 1)", "bad_seat")
        if seat != self.current:
            raise NotYourTurn(f"it is seat {self.current}'s turn, not seat {seat}'s")
        if not self.allows(seat, action):
            code, message = self.refusal(seat, action)
            raise IllegalAction(message, code)
        if isinstance(action, A.Draw):
            self._draw(seat, action.cards)
        elif isinstance(action, (A.Open, A.Raise)):
            self._bet(seat, action)
        elif isinstance(action, A.Fold):
            self.history.append(Move(seat, "fold", 0))
            self.events.append(E.Folded(seat))
            self._end_deal(1 - seat, "fold")
        else:
            self._call(seat, action.word)

    def _bet(self, seat: int, action: A.Open | A.Raise) -> None:
        owed = self._owed(seat)
        self.pay(seat, owed + action.amount)
        self.committed[seat] += owed + action.amount
        self.acts += 1
        self.history.append(Move(seat, action.word, action.amount))
        if isinstance(action, A.Raise):
            self.raises += 1
            self.events.append(E.Raised(seat, owed, action.amount))
        else:
            self.events.append(E.Opened(seat, action.amount))
        self.current = 1 - seat

    def _call(self, seat: int, word: str) -> None:
        owed = self._owed(seat)
        self.acts += 1
        self.history.append(Move(seat, word, owed))
        if word == "wait":
            self.events.append(E.Waited(seat))
            self.current = 1 - seat
            return
        if owed:
            self.pay(seat, owed)
            self.committed[seat] += owed
        if word == "replace":
            self.events.append(E.Replaced(seat, owed))
            self.phase, self.current = Phase.DRAW, self.first
            return
        self.events.append(E.Saw(seat, owed))
        self._showdown()

    def _draw(self, seat: int, cards: tuple[Card, ...]) -> None:
        hand = self.hands[seat]
        received = self.deck[: len(cards)]
        del self.deck[: len(cards)]
        for old, new in zip(cards, received, strict=True):
            hand[hand.index(old)] = new
        self.drawn[seat] = len(cards)
        self.history.append(Move(seat, "draw", len(cards)))
        self.events.append(E.Drew(seat, len(cards), tuple(cards), tuple(received)))
        if seat == self.first:
            self.current = 1 - seat
        else:
            self._new_round(Phase.BET2)

    def _showdown(self) -> None:
        t = tables_for(self.rules)
        classes = hand_classes(self.rules)
        ranks = [rank_of(self.hands[s], t) for s in (0, 1)]
        for s in (self.first, 1 - self.first):
            c = classes[ranks[s]]
            self.events.append(
                E.Shown(s, tuple(self.hands[s]), c.description, c.category.value, c.ranks)
            )
        if ranks[0] == ranks[1]:
            self._end_deal(None, "tie")
        else:
            self._end_deal(0 if ranks[0] > ranks[1] else 1, "showdown")
