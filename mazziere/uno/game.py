"""The UNO game: a :class:`Game` is played in place, action by action, like python-chess's
``Board``: ``legal_actions(seat)`` lists what a seat may do, ``push(action)`` applies one
(validated, atomic: a refused action raises a typed error and changes nothing) and returns its
events, ``copy()`` gives an independent game.

>>> from mazziere.uno import Game, find_preset
>>> g = Game.new(find_preset("mattel"), 2, rng=7)
>>> events = g.push(g.legal_actions()[0])
>>> g.clock
1

Legality is defined once, by :meth:`Game.legal_actions` (:mod:`mazziere.uno.legal`):
``push`` puts an action in its canonical form (the listed objects, a several-card play in the
listed order) and accepts it exactly when the list holds it; :mod:`mazziere.uno.effects` then
applies it. An action that is not listed is refused with the typed error
:mod:`mazziere.uno.refusals` explains, computed only then, so an explanation can never accept
what the list refuses. The server-only actions (``timeout``, ``end_hand``) and ``leave`` are
never listed: this module accepts them where they apply.

Every rule of uno.md lives once, in this module and those three; the section it implements is
named in each function's docstring. Choices where the seeds and uno.md are silent (official
Mattel rules, or the most natural reading) are stated here, and made in those modules:

* A +4 stacked onto +2s that is challenged and found guilty frees the victim of the whole
  pending stack; found innocent, the victim draws the whole stack plus the extra 2.
* With ``challenge_by='any'`` a third player who challenges an innocent +4 draws the extra 2
  and the victim still owes the +4; a guilty finding frees the victim as usual.
* Multi-play and bruciata take number cards only; with both options on, two identical cards
  are a bruciata (the next player is skipped).
* Going out on a 7 or a 0 ends the hand before the swap/rotation/give-four takes effect.
* ``go_out_on_action=False``: a last card that is an action or a wild cannot be played; the
  player draws instead.
* When nothing is left to draw (pile and discards exhausted) a player without a playable card
  passes; when every player in the hand passes in a row, the hand ends with no winner.
* ``drawn_card='must_play'`` never forces a +4 that would be a bluff (illegal under
  ``wild4_rule``): such a drawn +4 may be kept (``pass``), or played as a bluff where
  ``wild4_bluff`` allows it.
"""

from __future__ import annotations

from mazziere.errors import MalformedAction
from mazziere.rng import make_rng
from mazziere.uno import actions as A
from mazziere.uno import events as E
from mazziere.uno.actions import Draw, Play
from mazziere.uno.autoplay import choose_autoplay
from mazziere.uno.dealing import choose_dealer, start_hand
from mazziere.uno.effects import apply_draw, apply_play, apply_word, close_uno_window
from mazziere.uno.legal import Variants, compute_legal, find_listed, legal_seat, variants_table
from mazziere.uno.options import Rules
from mazziere.uno.refusals import explain_refusal
from mazziere.uno.scoring import abandon, end_hand
from mazziere.uno.state import DRAWN, OVER, PENDING, PLAY, GameData


class Game(GameData):
    """A match of UNO played in place (see module docstring)."""

    __slots__ = ("_variants",)

    _variants: Variants

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, rules: object, players: object, rng: object = None) -> Game:
        """A new match: choose the dealer (uno.md "Scoring and matches") and deal hand 1.
        ``rng``: a seed for a reproducible game, a :class:`~mazziere.rng.Rng` (copied), or
        ``None`` for a fresh OS-seeded cryptographic source. ``events`` holds the start's.
        The arguments are typed ``object`` because they are checked here, with typed errors
        (the compiled module would otherwise refuse a wrong type with a bare TypeError)."""
        if not isinstance(rules, Rules):
            raise MalformedAction("rules must be a mazziere.uno.Rules (see find_preset)")
        rules.check_players(players)  # type: ignore[arg-type]  # it refuses non-integers
        assert isinstance(players, int)
        if rng is not None and not isinstance(rng, (int, str, bytes)) and not hasattr(rng, "spawn"):
            raise MalformedAction("rng must be a seed (int, str, bytes), an Rng or None", "bad_rng")
        g = cls()
        g.rules, g.players, g.match_rng = rules, players, make_rng(rng).copy()  # type: ignore[arg-type]
        g._variants = variants_table(rules.seven_swap, rules.zero_gives_four)
        g._legal, g._legal_seat = (), -1
        g.events = []
        g.halt = False
        g.log, g.log_hand, g._seen, g._seen_n = [], -1, (), 0
        g.hand_no = -1
        g.active = (True,) * players
        sides = 2 if rules.teams else players
        g.scores = (0,) * sides
        g.hands_won = (0,) * sides
        g.seat_points = (0,) * players
        g.last_draw = [-1] * players
        g.last_hand_cards = (0,) * players
        g.eliminated_order = ()
        g.tiebreak = ()
        g.total_turns = 0
        g.clock = 0
        g.result = None
        g.dealer = choose_dealer(g) if rules.first_dealer is None else rules.first_dealer
        start_hand(g, first=True)
        g.note(g.events)
        return g

    def copy(self) -> Game:
        c = GameData.copy(self)
        c._variants = self._variants
        return c

    # ------------------------------------------------------------------ legality
    def legal_actions(self, seat: int | None = None) -> tuple[A.Action, ...]:
        """What ``seat`` (default: the seat to act) may do now, in a stable order: plays (by
        card, then colour/target), several-card plays, draw/pass/accept/challenge, then UNO
        call and catches. Out-of-turn actions (catch, jump-in, a third-party challenge) appear
        for seats whose turn it is not. Server-only actions (``timeout``, ``end_hand``) and
        ``leave`` are never listed. Computed once per position and seat
        (:func:`~mazziere.uno.legal.compute_legal`)."""
        if seat is None:
            seat = self.current
        if seat == self._legal_seat and seat >= 0:
            return self._legal
        out = tuple(compute_legal(self, seat, self._variants)) if legal_seat(self, seat) else ()
        self._legal, self._legal_seat = out, seat
        return out

    # ------------------------------------------------------------------ applying
    def push(self, action: A.Action | str, seat: object = None) -> list[E.Event]:
        """Apply ``seat``'s action (default: the seat to act; an :class:`Action` or its text
        form) and return its events. Raises :class:`~mazziere.errors.IllegalAction` (and
        subclasses) or ``MalformedAction``; a refused action leaves the game unchanged."""
        if seat is None:
            seat = self.current
        elif isinstance(seat, bool) or not isinstance(seat, int):
            return self._push(seat, action)
        legal: tuple[A.Action, ...] = (
            self._legal if seat == self._legal_seat and seat >= 0 else self.legal_actions(seat)
        )
        for listed in legal:  # by identity first: listed actions are shared objects
            if listed is action:
                return self._apply_listed(seat, listed, legal)
        return self._push(seat, action)

    def _push(self, seat: object, action: object) -> list[E.Event]:
        """:meth:`push` for exactly ``seat`` (no default; anything a caller sent, checked):
        the action in canonical form, applied when it is listed (or a server-only action
        that applies), else refused with the error :mod:`mazziere.uno.refusals` explains."""
        if isinstance(action, str):
            action = A.Action.parse(action)
        legal: tuple[A.Action, ...] = ()
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.players:
            seat = int(seat)
            legal = self.legal_actions(seat)
            listed = find_listed(legal, action)
            if listed is not None:
                return self._apply_listed(seat, listed, legal)
            if isinstance(action, A.Action) and self._server_action_applies(seat, action):
                return self._push_server(seat, action)
        explain_refusal(self, seat, action, legal)

    def _apply_listed(
        self, seat: int, action: A.Action, legal: tuple[A.Action, ...]
    ) -> list[E.Event]:
        ev: list[E.Event] = []
        self.events = ev
        self.clock += 1
        self._apply(seat, action, legal)
        self._legal_seat = -1
        if not self.halt:
            self.note(ev)
        return ev

    def _apply(self, seat: int, action: A.Action, legal: tuple[A.Action, ...]) -> None:
        """Apply ``action``, one of ``legal`` (``seat``'s legal actions now)."""
        kind = type(action)
        if kind is Play:
            apply_play(self, seat, action)  # type: ignore[arg-type]
        elif kind is Draw:
            apply_draw(self, seat, type(legal[0]) is Play)
        else:
            apply_word(self, seat, action, legal)

    # ------------------------------------------------------------------ server actions
    def _server_action_applies(self, seat: int, action: A.Action) -> bool:
        """Whether ``seat`` may send this server-only action (or ``leave``) now: a
        ``timeout`` for the seat to act, ``leave`` at a two-player table with the
        ``abandonment`` rule, ``end_hand`` at any time before the match is over."""
        if self.phase is OVER:
            return False
        if isinstance(action, A.Timeout):
            return seat == self.current
        if isinstance(action, A.Leave):
            return self.rules.abandonment and self.players == 2
        return isinstance(action, A.EndHand)

    def _push_server(self, seat: int, action: A.Action) -> list[E.Event]:
        """Apply a server-only action (or ``leave``) that applies now."""
        ev: list[E.Event] = []
        self.events = ev
        if isinstance(action, A.Timeout):
            self._timeout(seat)
        else:
            self.clock += 1
            if isinstance(action, A.Leave):
                abandon(self, seat, "left")
            else:
                close_uno_window(self)
                end_hand(self, None, "time_limit")
        self._legal_seat = -1
        if not self.halt:
            self.note(ev)
        return ev

    def _timeout(self, seat: int) -> None:
        """004 auto-play: the lowest-value playable number card, never an action or a wild;
        else draw and pass. In a two-player table with ``abandonment`` it ends the match.
        Each decision played counts on the clock."""
        if self.rules.abandonment and self.players == 2:
            self.clock += 1
            abandon(self, seat, "timeout")
            return
        self.events.append(E.AutoPlayed(seat))
        for _ in range(4):  # draw, then keep or play the drawn card: one decision at a time
            if self.current != seat or self.phase is OVER:
                return
            legal = self.legal_actions(seat)
            choices = [a for a in legal if not isinstance(a, A.Catch)]
            if not choices:
                return
            phase = self.phase
            action = find_listed(legal, choose_autoplay(choices, self.hands[seat], phase))
            assert action is not None  # choose_autoplay picks one of the choices
            self.clock += 1
            self._apply(seat, action, legal)
            self._legal_seat = -1
            if phase is PLAY and not isinstance(action, (A.Draw, A.CallUno)):
                return
            if phase is DRAWN or phase is PENDING:
                return
