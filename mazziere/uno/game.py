"""The UNO game: a :class:`Game` is played in place, action by action, like python-chess's
``Board``: ``legal_actions(seat)`` lists what a seat may do, ``push(action)`` applies one
(validated, atomic: a refused action raises a typed error and changes nothing) and returns its
events, ``copy()`` gives an independent game.

>>> from mazziere.uno import Game, find_preset
>>> g = Game.new(find_preset("mattel"), 2, rng=7)
>>> events = g.push(g.legal_actions()[0])
>>> g.clock
1

Legality is defined once, by :meth:`Game.legal_actions`: ``push`` accepts an action the list
holds and applies it directly. Anything else (an action from outside the list, a play of
several cards in another order, a server-only action) goes through the checked path, which
explains a refusal with a typed error, or applies the action to a copy that replaces this game
only when it succeeded. A property test holds the two together: the checked path accepts
exactly the listed actions (and the server-only ones).

Every rule of uno.md lives here once; the section it implements is named in each method's
docstring. Choices where the seeds and uno.md are silent (official Mattel rules, or the most
natural reading) are stated where they are made:

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

import functools

from mazziere.cards.uno import (
    COLORS,
    FACE_COLOR,
    WILD4_FACE,
    WILD_FACE,
    Card,
    Color,
    card,
)
from mazziere.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from mazziere.rng import make_rng
from mazziere.uno import actions as A
from mazziere.uno import events as E
from mazziere.uno.actions import Draw, Play
from mazziere.uno.autoplay import choose_autoplay
from mazziere.uno.dealing import choose_dealer, start_hand
from mazziere.uno.events import Played, passed, played_one, reversed_to
from mazziere.uno.matching import (
    DRAW2_RANK,
    REVERSE_RANK,
    SKIP_RANK,
    can_stack,
    matches,
    rank,
    wild4_legal,
    without_one,
)
from mazziere.uno.options import Rules
from mazziere.uno.scoring import abandon, end_hand
from mazziere.uno.state import COLOR, DRAWN, OVER, PENDING, PLAY, GameData, Phase

_W4 = card(WILD4_FACE)
_NUMBER: tuple[bool, ...] = tuple(f < WILD_FACE and f % 13 <= 9 for f in range(54))


def _match_table(reverse_skip_same: bool) -> tuple[tuple[tuple[bool, ...], ...], ...]:
    """``table[colour][top rank]`` -> for each face, whether it matches (:func:`matches`);
    the top rank 13 stands for a wild on top. Both wilds are marked (+4 legality is separate)."""
    rules = Rules(reverse_skip_same=reverse_skip_same)
    tops = [c * 13 + r for c in range(1) for r in range(13)] + [WILD_FACE]
    return tuple(
        tuple(
            tuple(matches(f, top, col, rules) for f in range(54))
            for top in tops  # the top's colour never matters: the current colour does
        )
        for col in range(4)
    )


_MATCH = (_match_table(False), _match_table(True))
_TOP_RANK: tuple[int, ...] = tuple(f % 13 if f < WILD_FACE else 13 for f in range(54))
_RANK: tuple[int, ...] = tuple(rank(f) for f in range(54))
_FACE_COLOR_OBJ: tuple[Color | None, ...] = tuple(
    None if FACE_COLOR[f] < 0 else COLORS[FACE_COLOR[f]] for f in range(54)
)


@functools.cache
def _variants_table(
    seven_swap: bool, zero_gives_four: bool
) -> tuple[tuple[A.Action, ...] | None, ...]:
    """The shared plays of each single card: a wild in each colour, a card alone; ``None``
    where the targets depend on the seats (7 swap, 0 gives four)."""
    out: list[tuple[A.Action, ...] | None] = []
    for f in range(54):
        c = card(f)
        if f >= WILD_FACE:
            out.append(tuple(A.play_of((c,), col) for col in Color))
        elif (f % 13 == 7 and seven_swap) or (f % 13 == 0 and zero_gives_four):
            out.append(None)
        else:
            out.append((A.play_of((c,)),))
    return tuple(out)


_COLOR_CHOICES: tuple[A.Action, ...] = tuple(A.ChooseColor(col) for col in Color)


class Game(GameData):
    """A match of UNO played in place (see module docstring)."""

    __slots__ = ("_variants",)

    _variants: tuple[tuple[A.Action, ...] | None, ...]

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
        g._variants = _variants_table(rules.seven_swap, rules.zero_gives_four)
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
    def playable(self, seat: int, card: int) -> bool:
        """Whether ``card`` from ``seat``'s hand may be played alone in PLAY/DRAWN phase."""
        hand = self.hands[seat]
        rules = self.rules
        if not rules.go_out_on_action and len(hand) == 1 and not _NUMBER[card]:
            return False
        if card == WILD4_FACE:
            return rules.wild4_bluff or wild4_legal(
                without_one(hand, card), self.discard[-1], self.color, rules
            )
        return matches(card, self.discard[-1], self.color, rules)

    def stack_playable(self, seat: int, card: int) -> bool:
        """Whether ``card`` may be stacked on the pending draw (PENDING phase)."""
        rules = self.rules
        hand = self.hands[seat]
        if not can_stack(card, self.discard[-1], rules):
            return False
        if not rules.go_out_on_action and len(hand) == 1:
            return False
        if card == WILD4_FACE and rules.stack_wild4_rule_applies and not rules.wild4_bluff:
            return self._stack_w4_legal(seat)
        return True

    def _stack_w4_legal(self, seat: int) -> bool:
        color = self.stack_color if self.stack_w4 else self.color
        return wild4_legal(
            without_one(self.hands[seat], WILD4_FACE), self.discard[-1], color, self.rules
        )

    def has_playable(self, seat: int) -> bool:
        return any(self.playable(seat, c) for c in set(self.hands[seat]))

    def _playable_cards(self, hand: tuple[Card, ...]) -> list[Card]:
        """The distinct cards of ``hand`` (the current seat's) playable alone now, sorted:
        :meth:`playable` for every card at once, from the match table."""
        rules = self.rules
        color = self.color
        assert color is not None
        row = _MATCH[rules.reverse_skip_same][color][_TOP_RANK[self.discard[-1]]]
        out = [c for c in set(hand) if row[c]]
        if _W4 in out:
            out.remove(_W4)
            mode = rules.wild4_rule
            if (
                rules.wild4_bluff
                or mode == "none"
                or (mode == "color" and not any(FACE_COLOR[c] == color for c in hand))
                or (mode == "any_playable" and not out)
            ):
                out.append(_W4)
        if not rules.go_out_on_action and len(hand) == 1:
            out = [c for c in out if _NUMBER[c]]
        out.sort()
        return out

    def legal_actions(self, seat: int | None = None) -> tuple[A.Action, ...]:
        """What ``seat`` (default: the seat to act) may do now, in a stable order: plays (by
        card, then colour/target), several-card plays, draw/pass/accept/challenge, then UNO
        call and catches. Out-of-turn actions (catch, jump-in, a third-party challenge) appear
        for seats whose turn it is not. Server-only actions (``timeout``, ``end_hand``) and
        ``leave`` are never listed. Computed once per position and seat."""
        if seat is None:
            seat = self.current
        if seat == self._legal_seat:
            return self._legal
        if self.phase is not OVER and 0 <= seat < self.players and self.in_hand[seat]:
            out = tuple(self._compute_legal(seat))
        else:
            out = ()
        self._legal, self._legal_seat = out, seat
        return out

    def _compute_legal(self, seat: int) -> list[A.Action]:
        out: list[A.Action] = []
        rules = self.rules
        hand = self.hands[seat]
        phase = self.phase
        variants = self._variants
        if seat == self.current:
            if phase is PLAY:
                # _playable_cards, inlined: this is the engine's hottest path
                color = self.color
                assert color is not None
                row = _MATCH[rules.reverse_skip_same][color][_TOP_RANK[self.discard[-1]]]
                playable = [c for c in hand if row[c]]
                if _W4 in playable:
                    playable = self._playable_cards(hand)
                else:
                    if len(playable) > 1:
                        playable = sorted(set(playable))
                    if not rules.go_out_on_action and len(hand) == 1:
                        playable = [c for c in playable if _NUMBER[c]]
                for c in playable:
                    v = variants[c]
                    if v is None:
                        out.extend(self._play_variants((c,), seat))
                    else:
                        out += v
                if rules.multi_play or rules.burn:
                    out.extend(self._multi_plays(seat, playable))
                if self.draw_pile or (rules.reshuffle and len(self.discard) > 1):
                    if rules.voluntary_draw or not playable:
                        out.append(A.DRAW)
                elif not playable:
                    out.append(A.DRAW)  # nothing to draw: the draw is a pass
            elif phase is DRAWN:
                drawn = self.drawn
                assert drawn is not None
                v = variants[drawn]
                out.extend(self._play_variants((drawn,), seat) if v is None else v)
                if rules.drawn_card == "may_play" or (
                    drawn == WILD4_FACE
                    and not wild4_legal(
                        without_one(hand, drawn), self.discard[-1], self.color, rules
                    )
                ):
                    out.append(A.PASS)
            elif phase is PENDING:
                for c in sorted(set(hand)):
                    if self.stack_playable(seat, c):
                        v = variants[c]
                        out.extend(self._play_variants((c,), seat) if v is None else v)
                if self.w4_by is not None:
                    out.append(A.CHALLENGE)
                out.append(A.ACCEPT)
            elif phase is COLOR:
                return list(_COLOR_CHOICES)
            if (
                rules.uno_call != "off"
                and self.uno_ready != seat
                and (phase is PLAY or phase is DRAWN)
                and self._may_precall(seat, out)
            ):
                out.append(A.CALL_UNO)
        else:
            top = self.discard[-1]
            if (
                rules.jump_in
                and phase is PLAY
                and top < WILD_FACE
                and top in hand
                and (rules.go_out_on_action or len(hand) > 1 or _NUMBER[top])
            ):
                out.extend(self._play_variants((top,), seat))
            if (
                phase is PENDING
                and self.w4_by is not None
                and rules.challenge_by == "any"
                and seat != self.w4_by
            ):
                out.append(A.CHALLENGE)
        if (
            rules.uno_call != "off"
            and self.uno_seat is not None
            and not self.uno_called
            and len(self.hands[self.uno_seat]) == 1
        ):
            if seat == self.uno_seat:
                if A.CALL_UNO not in out:
                    out.append(A.CALL_UNO)
            elif rules.uno_call == "catch":
                out.append(A.Catch(self.uno_seat))
        return out

    def _may_precall(self, seat: int, legal: list[A.Action]) -> bool:
        """UNO may be said before a play that leaves exactly one card: holding two cards with
        a card to play, or when a legal several-card play (multi-play, bruciata) would leave
        one. It is not offered when it cannot become due (two cards, neither playable)."""
        n = len(self.hands[seat])
        return n >= 2 and any(type(a) is Play and len(a.cards) == n - 1 for a in legal)

    def _play_variants(self, cards: tuple[Card, ...], seat: int) -> list[A.Action]:
        last = cards[-1]
        rules = self.rules
        if last >= WILD_FACE:
            return [A.play_of(cards, col) for col in Color]
        r = last % 13
        if r == 7 and rules.seven_swap:
            return [A.play_of(cards, None, t) for t in self._others(seat)]
        if r == 0 and rules.zero_gives_four:
            out: list[A.Action] = [A.play_of(cards)]
            out.extend(A.play_of(cards, None, t) for t in self._zero_targets(seat))
            return out
        return [A.play_of(cards)]

    def _others(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if s != seat and self.in_hand[s]]

    def _zero_targets(self, seat: int) -> list[int]:
        groups = self.rules.zero_groups
        if not groups:
            return self._others(seat)
        allowed = {s for g in groups if seat in g for s in g}
        return [s for s in self._others(seat) if s in allowed]

    def _multi_plays(self, seat: int, playable: list[Card]) -> list[A.Action]:
        """Bruciata pairs and multi-plays: one canonical order per outcome (first card, the
        middle sorted, last card), since only the first (it must match) and the last (it sets
        the colour and the effect) change anything."""
        rules = self.rules
        hand = self.hands[seat]
        out: list[A.Action] = []
        seen: set[tuple[Card, ...]] = set()
        for first in playable:
            if not _NUMBER[first]:
                continue
            num = first % 13
            same = without_one([c for c in hand if _NUMBER[c] and c % 13 == num], first)
            if not same:
                continue
            if rules.burn and first in same and (first, first) not in seen:
                seen.add((first, first))
                out.extend(self._play_variants((first, first), seat))
            if not rules.multi_play:
                continue
            for combo in _sub_multisets(sorted(same)):
                if not combo:
                    continue
                for li in sorted(set(range(len(combo))), key=lambda i: combo[i]):
                    last = combo[li]
                    middle = tuple(sorted(combo[:li] + combo[li + 1 :]))
                    seq = (first, *middle, last)
                    if seq in seen:
                        continue
                    if rules.burn and len(seq) == 2 and seq[0] == seq[1]:
                        continue  # that pair is a bruciata, listed above
                    seen.add(seq)
                    out.extend(self._play_variants(seq, seat))
        return out

    # ------------------------------------------------------------------ applying
    def push(self, action: A.Action | str, seat: object = None) -> list[E.Event]:
        """Apply ``seat``'s action (default: the seat to act; an :class:`Action` or its text
        form) and return its events. Raises :class:`~mazziere.errors.IllegalAction` (and
        subclasses) or ``MalformedAction``; a refused action leaves the game unchanged."""
        if seat is None:
            seat = self.current
        elif isinstance(seat, bool) or not isinstance(seat, int):
            return self._push_checked(action, seat)
        legal = self._legal if seat == self._legal_seat else self.legal_actions(seat)
        for listed in legal:  # by identity first: listed actions are shared objects
            if listed is action:
                return self._apply_listed(seat, action, legal)
        if action in legal:
            # equal to a listed action: a play carrying a bool seat or an int colour (they
            # compare equal to ints) is refused by the checked path below
            t = getattr(action, "target", None)
            c = getattr(action, "color", None)
            if (t is None or type(t) is int) and (c is None or type(c) is Color):
                return self._apply_listed(seat, action, legal)  # type: ignore[arg-type]
        if isinstance(action, str):
            return self.push(A.Action.parse(action), seat)
        return self._push_checked(action, seat)

    def _apply_listed(
        self, seat: int, action: A.Action, legal: tuple[A.Action, ...]
    ) -> list[E.Event]:
        ev: list[E.Event] = []
        self.events = ev
        self.clock += 1
        kind = type(action)
        if kind is Play:
            self._apply_play(seat, action)  # type: ignore[arg-type]
        elif kind is Draw:
            self._apply_draw(seat, type(legal[0]) is Play)
        else:
            self._dispatch(seat, action)
        self._legal_seat = -1
        if not self.halt:
            self.note(ev)
        return ev

    def _push_checked(self, action: object, seat: object) -> list[E.Event]:
        """The checked path of :meth:`push`: on a copy, swapped in only when it succeeded."""
        if isinstance(action, str):
            action = A.Action.parse(action)
        work = self.copy()
        work.events = []
        work._act(seat, action)
        self._assign(work)
        if not self.halt:
            self.note(self.events)
        return self.events

    def _act(self, seat: object, action: object) -> None:
        """The checked path: validate one action of ``seat`` (typed errors) and apply it.
        ``seat`` and ``action`` may be anything a caller sent: they are checked here."""
        self._legal_seat = -1
        if self.phase is OVER:
            raise GameOver("the match is over; no more actions are accepted")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise MalformedAction(f"seat {seat!r} does not exist at this {self.players}-seat table")
        if not isinstance(action, A.Action):
            raise MalformedAction(f"{action!r} is not an UNO action")
        self.clock += 1
        if isinstance(action, A.Timeout):
            self._timeout(seat)
        elif isinstance(action, A.Leave):
            self._leave(seat)
        elif isinstance(action, A.EndHand):
            self._close_uno_window()
            end_hand(self, None, "time_limit")
        elif not self.in_hand[seat]:
            raise NotYourTurn(f"seat {seat} is not playing this hand", "not_in_hand")
        elif isinstance(action, A.Play):
            self._check_play(seat, action)
            self._apply_play(seat, action)
        elif isinstance(action, A.Draw):
            self._check_draw(seat)
            self._apply_draw(seat, self.has_playable(seat))
        else:
            self._check_word(seat, action)
            self._dispatch(seat, action)
        self._legal_seat = -1

    def _dispatch(self, seat: int, action: A.Action) -> None:
        if isinstance(action, A.Pass):
            self._pass(seat)
        elif isinstance(action, A.Accept):
            self._close_uno_window()
            self.take_pending(seat)
        elif isinstance(action, A.Challenge):
            self._challenge(seat)
        elif isinstance(action, A.CallUno):
            self._call_uno(seat)
        elif isinstance(action, A.Catch):
            self._catch(seat, action.target)
        elif isinstance(action, A.ChooseColor):
            self.color = action.color
            self.events.append(E.ColorChosen(seat, action.color))
            self.phase = PLAY
        else:  # pragma: no cover - every listed Action subclass is handled above
            raise MalformedAction(f"unknown action {action!r}")

    def _require_turn(self, seat: int, *phases: Phase) -> None:
        if seat != self.current:
            raise NotYourTurn(f"it is seat {self.current}'s turn, not seat {seat}'s")
        if self.phase not in phases:
            raise IllegalAction(_PHASE_HINT[self.phase], f"wrong_phase_{self.phase.value}")

    def _close_uno_window(self) -> None:
        """uno.md 8: the next player starting a turn closes the UNO window; with ``auto`` a
        player who did not call draws ``uno_penalty`` cards now."""
        s = self.uno_seat
        if s is None:
            return
        self.uno_seat = None
        if (
            self.rules.uno_call == "auto"
            and not self.uno_called
            and len(self.hands[s]) == 1
            and self.phase is not OVER
        ):
            self.events.append(E.UnoMissed(s))
            self.draw_cards(s, self.rules.uno_penalty, "uno")
        self.uno_called = False

    def _check_play(self, seat: int, action: A.Play) -> None:
        """Every reason a play is refused (uno.md "A hand" 4, 6, 8, 9, the house rules)."""
        rules = self.rules
        cards = action.cards
        if not cards or not all(isinstance(c, int) and 0 <= c < 54 for c in cards):
            raise MalformedAction("a play names one or more cards")
        hand = self.hands[seat]
        jump = seat != self.current
        if jump:
            top = self.discard[-1]
            if not (
                rules.jump_in
                and self.phase is PLAY
                and len(cards) == 1
                and cards[0] == top
                and top < WILD_FACE
            ):
                if rules.jump_in:
                    raise NotYourTurn(
                        f"it is seat {self.current}'s turn; out of turn only a card identical "
                        f"to the {top} on the pile may jump in"
                    )
                raise NotYourTurn(f"it is seat {self.current}'s turn, not seat {seat}'s")
        elif self.phase not in (PLAY, DRAWN, PENDING):
            raise IllegalAction(_PHASE_HINT[self.phase], f"wrong_phase_{self.phase.value}")
        # the cards must be in the hand, counting copies
        remaining = list(hand)
        for c in cards:
            if c not in remaining:
                raise IllegalAction(f"{_fmt(cards)}: {Card(c)} is not in your hand", "not_in_hand")
            remaining.remove(c)
        last = cards[-1]
        if len(cards) > 1:
            if self.phase is not PLAY or jump:
                raise IllegalAction(
                    "several cards may only be played as a normal turn's play",
                    "multi_play_not_allowed",
                )
            if not all(_NUMBER[c] and c % 13 == cards[0] % 13 for c in cards):
                raise IllegalAction(
                    "cards played together must be number cards of one number",
                    "multi_play_mismatch",
                )
            burn = rules.burn and len(cards) == 2 and cards[0] == cards[1]
            if not burn and not rules.multi_play:
                raise IllegalAction(
                    "several cards at once need multi_play (or burn, for two identical cards)",
                    "multi_play_not_allowed",
                )
            if not self.playable(seat, cards[0]):
                raise IllegalAction(f"{Card(cards[0])} does not match the pile", "no_match")
        elif self.phase is DRAWN:
            if last != self.drawn:
                raise IllegalAction(
                    f"after drawing only the drawn card ({self.drawn}) may be played",
                    "only_drawn_card",
                )
            if not self.playable(seat, last):
                raise IllegalAction(f"{Card(last)} does not match the pile", "no_match")
        elif self.phase is PENDING:
            if not self.stack_playable(seat, last):
                raise IllegalAction(
                    f"{self.pending} cards are pending: accept them"
                    + (", challenge" if self.w4_by is not None else "")
                    + f"; {Card(last)} cannot be stacked here (stacking={rules.stacking})",
                    "must_answer_draw",
                )
        elif not self.playable(seat, last):
            if last == WILD4_FACE:
                raise IllegalAction(
                    "a Wild Draw Four is only legal with no other card of the current colour"
                    if rules.wild4_rule == "color"
                    else "a Wild Draw Four is only legal with no other playable card",
                    "wild4_not_allowed",
                )
            if not rules.go_out_on_action and len(hand) == 1:
                raise IllegalAction(
                    "the hand may not end on an action or wild card (go_out_on_action=false)",
                    "cannot_go_out_on_action",
                )
            raise IllegalAction(
                f"{Card(last)} does not match {self.discard[-1]} (colour {self.color})"
                if self.color is not None
                else f"{Card(last)} does not match the pile",
                "no_match",
            )
        # colour and target
        if last >= WILD_FACE:
            if not isinstance(action.color, Color):
                raise MalformedAction(
                    f"{Card(last)} needs a colour, e.g. '{Card(last)}:R'", "color_required"
                )
        elif action.color is not None:
            raise MalformedAction(
                "only a Wild or Wild Draw Four takes a colour", "color_not_allowed"
            )
        target = action.target
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise MalformedAction("a target is a seat number", "bad_target")
        r = rank(last)
        if r == 7 and rules.seven_swap:
            if target is None or target not in self._others(seat):
                raise MalformedAction(
                    "a 7 swaps hands: name another seat in the hand, e.g. R7>1", "target_required"
                )
        elif r == 0 and rules.zero_gives_four:
            if target is not None and target not in self._zero_targets(seat):
                raise IllegalAction(f"seat {target} may not be chosen to draw four", "bad_target")
        elif target is not None:
            raise MalformedAction(
                "only a 7 (seven_swap) or a 0 (zero_gives_four) takes a seat", "target_not_allowed"
            )

    def _apply_play(self, seat: int, action: A.Play) -> None:
        """Apply a legal play (uno.md "A hand" 4, 6, 8, 9 and the house-rule options)."""
        cards = action.cards
        last = cards[-1]
        target = action.target
        stacking_now = self.phase is PENDING
        if self.uno_seat is not None:
            self._close_uno_window()  # may hand this very seat its UNO penalty (auto)
        hand = self.hands[seat]
        if len(cards) == 1:
            i = hand.index(last)
            last = hand[i]  # the hand's own (interned) card, whatever the action holds
            hand = hand[:i] + hand[i + 1 :]
        else:
            rest = list(hand)
            for c in cards:
                rest.remove(c)
            hand = tuple(rest)
        if last < WILD_FACE:
            color_before = self.color = _FACE_COLOR_OBJ[last]
            was_legal_w4 = True
        else:
            color_before = self.color
            was_legal_w4 = True
            if last == WILD4_FACE:
                rules = self.rules
                if stacking_now:
                    was_legal_w4 = (not rules.stack_wild4_rule_applies) or self._stack_w4_legal(
                        seat
                    )
                else:
                    was_legal_w4 = wild4_legal(hand, self.discard[-1], color_before, rules)
            self.color = action.color
        self.hands[seat] = hand
        if len(cards) == 1:
            self.discard.append(last)
        else:
            self.discard.extend(cards)
        self.passes = 0
        jump = seat != self.current
        self.events.append(
            played_one(seat, last, action.color)
            if target is None and not jump and len(cards) == 1
            else Played(seat, cards, action.color, target, jump)
        )
        if jump:
            self.current = seat
        self.drawn = None
        self.phase = PLAY
        left = len(hand)
        if left == 1:
            self.uno_seat = seat
            self.uno_called = self.uno_ready == seat
        self.uno_ready = None
        if not left:
            self._go_out(seat, last, stacking_now)
            return
        # --- effects ----------------------------------------------------------------------
        rules = self.rules
        if len(cards) == 2 and rules.burn and cards[0] == cards[1]:  # bruciata
            self.skip_next(seat)
            return
        r = _RANK[last]
        if r <= 9 and not (r == 7 or r == 0):  # advance(), inlined for the commonest play
            n, d, in_hand = self.players, self.direction, self.in_hand
            seat = (seat + d) % n
            while not in_hand[seat]:
                seat = (seat + d) % n
            self.current = seat
            self.turns += 1
            self.total_turns += 1
        elif r <= 9:
            if r == 7 and rules.seven_swap and target is not None:
                self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
                self.events.append(E.Swapped(seat, target))
                self.uno_seat, self.uno_called = None, False
            elif r == 0 and rules.zero_rotate:
                self._rotate_hands()
            elif r == 0 and rules.zero_gives_four and target is not None:
                self.draw_cards(target, 4, "zero")
            self.advance(seat)
        elif r == SKIP_RANK:
            self.skip_next(seat)
        elif r == REVERSE_RANK:
            if self.seats_in_hand() == 2 and rules.two_player_reverse == "skip":
                self.skip_next(seat)
            else:
                self.direction = -self.direction
                self.events.append(reversed_to(self.direction))
                self.advance(seat)
        elif r == DRAW2_RANK:
            self.hit_with_draw2(self.next_seat(seat), stacked=stacking_now)
        elif r == 13:
            self.advance(seat)
        else:  # +4
            self.hit_with_wild4(seat, color_before, was_legal_w4, stacked=stacking_now)

    def _rotate_hands(self) -> None:
        seats = [s for s in range(self.players) if self.in_hand[s]]
        old = {s: self.hands[s] for s in seats}
        for s in seats:
            self.hands[self.next_seat(s)] = old[s]
        self.events.append(E.Rotated(self.direction))
        self.uno_seat, self.uno_called = None, False  # an open UNO window follows nobody

    def _go_out(self, seat: int, last: int, stacking_now: bool) -> None:
        """uno.md 9: the hand ends; a last +2/+4 (and any stack) is still drawn by the next
        player and counts in scoring."""
        r = rank(last)
        victim = self.next_seat(seat)
        count = self.pending + (2 if r == DRAW2_RANK else 4 if r == 14 else 0)
        self.clear_pending()
        if count:
            self.draw_cards(victim, count, "draw4" if r == 14 else "draw2")
        end_hand(self, seat, "out")

    def _check_draw(self, seat: int) -> None:
        self._require_turn(seat, PLAY)
        has_playable = self.has_playable(seat)
        if has_playable and not self.can_draw():
            raise IllegalAction(
                "nothing is left to draw and you hold a playable card: play it", "must_play"
            )
        if has_playable and not self.rules.voluntary_draw:
            raise IllegalAction("you hold a playable card and voluntary_draw is off", "must_play")

    def _apply_draw(self, seat: int, has_playable: bool) -> None:
        """uno.md 5 and 7: draw one card (by choice with ``voluntary_draw``, or for lack of a
        playable card); only the drawn card may then be played."""
        if self.uno_seat is not None:
            self._close_uno_window()
        self.uno_ready = None
        if not self.can_draw():
            self.events.append(E.Passed(seat, "nothing_to_draw"))
            self.passes += 1
            if self.passes >= self.seats_in_hand():
                end_hand(self, None, "blocked")
            else:
                self.advance(seat)
            return
        self.passes = 0
        c = self.draw_cards(seat, 1, "choice" if has_playable else "no_play")[0]
        if self.playable(seat, c):
            self.phase, self.drawn = DRAWN, c
        else:
            self.events.append(passed(seat, "kept"))
            self.advance(seat)

    def _check_word(self, seat: int, action: A.Action) -> None:
        """Every reason a word action (pass, accept, challenge, uno, catch, colour) is
        refused; the checks of uno.md's sections named in the methods that apply them."""
        rules = self.rules
        if isinstance(action, A.Pass):
            self._require_turn(seat, DRAWN)
            if A.PASS not in self.legal_actions(seat):
                raise IllegalAction(
                    f"the drawn card {self.drawn} is playable and must be played "
                    "(drawn_card=must_play)",
                    "must_play_drawn",
                )
        elif isinstance(action, A.Accept):
            self._require_turn(seat, PENDING)
        elif isinstance(action, A.Challenge):
            if self.phase is not PENDING or self.w4_by is None:
                raise IllegalAction(
                    "there is no Wild Draw Four to challenge now", "nothing_to_challenge"
                )
            if seat != self.current and (rules.challenge_by != "any" or seat == self.w4_by):
                if rules.challenge_by == "victim":
                    raise NotYourTurn(
                        "only the player who must draw may challenge (challenge_by=victim)",
                        "not_the_victim",
                    )
                raise IllegalAction("you cannot challenge your own Wild Draw Four", "own_wild4")
        elif isinstance(action, A.CallUno):
            if rules.uno_call == "off":
                raise IllegalAction(
                    "UNO calls are not used at this table (uno_call=off)", "uno_off"
                )
            if A.CALL_UNO not in self.legal_actions(seat):
                raise IllegalAction(
                    "UNO is called when playing your next-to-last card or while holding one card",
                    "uno_not_due",
                )
        elif isinstance(action, A.Catch):
            self._check_catch(seat, action.target)
        elif isinstance(action, A.ChooseColor):
            self._require_turn(seat, COLOR)
            if not isinstance(action.color, Color):
                raise MalformedAction("choose one of R, Y, G, B")

    def _pass(self, seat: int) -> None:
        if self.uno_seat is not None:
            self._close_uno_window()
        self.events.append(passed(seat, "kept"))
        self.drawn = None
        self.uno_ready = None
        self.advance(seat)

    def _challenge(self, seat: int) -> None:
        """uno.md "Wild Draw Four" challenge: the server checks the hand without showing it.
        Guilty: the challenged draws 4, the victim neither draws nor loses the turn. Innocent:
        the victim-challenger draws the pending cards + 2 and loses the turn."""
        rules = self.rules
        offender, victim = self.w4_by, self.current
        assert offender is not None
        self._close_uno_window()
        guilty = not self.w4_legal
        self.events.append(E.Challenged(seat, offender, guilty))
        if guilty:
            self.clear_pending()
            self.draw_cards(offender, rules.challenge_guilty_draw, "challenge")
            self.current, self.phase = victim, PLAY
            return
        if seat == victim:
            count = self.pending + rules.challenge_innocent_extra
            self.clear_pending()
            self.draw_cards(victim, count, "challenge")
            self.events.append(E.skipped(victim))
            self.advance(victim)
        else:
            self.w4_by = None
            self.draw_cards(seat, rules.challenge_innocent_extra, "challenge")

    def _call_uno(self, seat: int) -> None:
        if (
            seat == self.current
            and self.phase in (PLAY, DRAWN)
            and self.uno_ready != seat
            and self._may_precall(seat, list(self.legal_actions(seat)))
        ):
            self.uno_ready = seat
            self.events.append(E.UnoCalled(seat))
            return
        self.uno_called = True
        self.events.append(E.UnoCalled(seat))

    def _check_catch(self, seat: int, target: int) -> None:
        if self.rules.uno_call != "catch":
            raise IllegalAction(
                "catching is not used at this table (uno_call is not 'catch')", "catch_off"
            )
        if (
            not isinstance(target, int)
            or isinstance(target, bool)
            or not 0 <= target < self.players
        ):
            raise MalformedAction(f"seat {target!r} does not exist")
        if target == seat:
            raise IllegalAction("you cannot catch yourself", "catch_rejected")
        if len(self.hands[target]) != 1:
            raise IllegalAction(f"seat {target} holds more than one card", "catch_rejected")
        if self.uno_seat != target:
            raise IllegalAction(
                f"too late: seat {target} can no longer be caught", "catch_rejected"
            )
        if self.uno_called:
            raise IllegalAction(f"seat {target} called UNO", "catch_rejected")

    def _catch(self, seat: int, target: int) -> None:
        """uno.md 8 ``catch``: before the next player starts a turn, another player catches
        one who did not call UNO; the caught player draws ``uno_penalty`` cards."""
        self.uno_seat, self.uno_called = None, False
        self.events.append(E.Caught(seat, target))
        self.draw_cards(target, self.rules.uno_penalty, "uno")

    # ------------------------------------------------------------------ server actions
    def _timeout(self, seat: int) -> None:
        """004 auto-play: the lowest-value playable number card, never an action or a wild;
        else draw and pass. In a two-player table with ``abandonment`` it ends the match."""
        if seat != self.current:
            raise NotYourTurn(f"seat {seat} has no decision pending; seat {self.current} has")
        if self.rules.abandonment and self.players == 2:
            abandon(self, seat, "timeout")
            return
        self.events.append(E.AutoPlayed(seat))
        self.clock -= 1
        for _ in range(4):  # draw, then keep or play the drawn card: one decision at a time
            if self.current != seat or self.phase is OVER:
                return
            legal = [a for a in self.legal_actions(seat) if not isinstance(a, A.Catch)]
            if not legal:
                return
            phase = self.phase
            action = choose_autoplay(legal, self.hands[seat], phase)
            self._act(seat, action)
            if phase is PLAY and not isinstance(action, (A.Draw, A.CallUno)):
                return
            if phase is DRAWN or phase is PENDING:
                return

    def _leave(self, seat: int) -> None:
        if not (self.rules.abandonment and self.players == 2):
            raise IllegalAction(
                "only two-player tables with the abandonment rule can be left (at four players a "
                "table cannot be left)",
                "leave_not_allowed",
            )
        abandon(self, seat, "left")


def _fmt(cards: tuple[Card, ...]) -> str:
    return ",".join(str(Card(c)) for c in cards)


def _sub_multisets(items: list[Card]) -> list[tuple[Card, ...]]:
    """Every sub-multiset of a sorted list, each once."""
    out: list[tuple[Card, ...]] = [()]
    i = 0
    while i < len(items):
        j = i
        while j < len(items) and items[j] == items[i]:
            j += 1
        k = j - i
        out = [base + (items[i],) * m for base in out for m in range(k + 1)]
        i = j
    return out


_PHASE_HINT = {
    PLAY: "play a card or draw",
    DRAWN: "you drew a playable card: play it or pass",
    PENDING: "draw cards are pending: accept, stack or challenge",
    COLOR: "choose the colour of the first card (a Wild) first",
    OVER: "the match is over",
}
