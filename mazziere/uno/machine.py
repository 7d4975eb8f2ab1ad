"""The UNO rules as one mutable machine over a copy of a :class:`State`.

The pure API (:mod:`mazziere.uno.engine`) copies a state into a :class:`Machine`, lets it
validate and apply one action, and freezes the result; a refused action raises before the
caller's state could change, because the caller's state is never touched. Every rule of uno.md
lives here once; the section it implements is named in each method's docstring.

Choices where the seeds and uno.md are silent (official Mattel rules, or the most natural
reading) are stated where they are made:

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
"""

from __future__ import annotations

from mazziere.cards.uno import (
    FACE_COLOR,
    WILD4_FACE,
    WILD_FACE,
    Card,
    Color,
)
from mazziere.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from mazziere.rng import Rng
from mazziere.uno import actions as A
from mazziere.uno import events as E
from mazziere.uno.autoplay import choose_autoplay
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
from mazziere.uno.scoring import Scoring
from mazziere.uno.state import Phase


class Machine(Scoring):
    """Legal actions and applying them (see module docstring)."""

    __slots__ = ()

    # ------------------------------------------------------------------ construction / copy
    @classmethod
    def start(cls, rules: Rules, players: int, match_rng: Rng) -> Machine:
        """A new match: choose the dealer (uno.md "Scoring and matches") and deal hand 1."""
        rules.check_players(players)
        m = cls()
        m.rules, m.n, m.match_rng = rules, players, match_rng
        m.events = []
        m.hand_no = -1
        m.active = [True] * players
        sides = 2 if rules.teams else players
        m.scores = [0] * sides
        m.hands_won = [0] * sides
        m.seat_points = [0] * players
        m.last_draw = [-1] * players
        m.last_hand_cards = [0] * players
        m.eliminated_order = []
        m.tiebreak = ()
        m.total_turns = 0
        m.clock = 0
        m.result = None
        m.dealer = m._choose_dealer() if rules.first_dealer is None else rules.first_dealer
        m._start_hand(first=True)
        return m

    # ------------------------------------------------------------------ legality
    def playable(self, seat: int, card: int) -> bool:
        """Whether ``card`` from ``seat``'s hand may be played alone in PLAY/DRAWN phase."""
        hand = self.hands[seat]
        if not self.rules.go_out_on_action and len(hand) == 1 and not _is_number(card):
            return False
        top = self.discard[-1]
        if card == WILD4_FACE:
            return self.rules.wild4_bluff or wild4_legal(
                without_one(hand, card), top, self.color, self.rules
            )
        return matches(card, top, self.color, self.rules)

    def stack_playable(self, seat: int, card: int) -> bool:
        """Whether ``card`` may be stacked on the pending draw (PENDING phase)."""
        rules = self.rules
        hand = self.hands[seat]
        top = self.discard[-1]
        if not can_stack(card, top, rules):
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

    def legal(self, seat: int) -> list[A.Action]:
        """Legal actions of ``seat`` now, in a stable order (see engine.legal_actions)."""
        if self.phase is Phase.OVER or not self.in_hand[seat]:
            return []
        out: list[A.Action] = []
        rules = self.rules
        hand = self.hands[seat]
        phase = self.phase
        if seat == self.current:
            if phase is Phase.PLAY:
                playable = sorted(c for c in set(hand) if self.playable(seat, c))
                for c in playable:
                    out.extend(self._play_variants((c,), seat))
                if rules.multi_play or rules.burn:
                    out.extend(self._multi_plays(seat, playable))
                if self.can_draw():
                    if rules.voluntary_draw or not playable:
                        out.append(A.DRAW)
                elif not playable:
                    out.append(A.DRAW)  # nothing to draw: the draw is a pass
            elif phase is Phase.DRAWN:
                assert self.drawn is not None
                out.extend(self._play_variants((self.drawn,), seat))
                if rules.drawn_card == "may_play":
                    out.append(A.PASS)
            elif phase is Phase.PENDING:
                for c in sorted(set(hand)):
                    if self.stack_playable(seat, c):
                        out.extend(self._play_variants((c,), seat))
                if self.w4_by is not None:
                    out.append(A.CHALLENGE)
                out.append(A.ACCEPT)
            elif phase is Phase.COLOR:
                out.extend(A.ChooseColor(col) for col in Color)
                return out
            if (
                rules.uno_call != "off"
                and self.uno_ready != seat
                and phase in (Phase.PLAY, Phase.DRAWN)
                and self._may_precall(seat, out)
            ):
                out.append(A.CALL_UNO)
        else:
            if (
                rules.jump_in
                and phase is Phase.PLAY
                and self.discard[-1] < WILD_FACE
                and self.discard[-1] in hand
                and (rules.go_out_on_action or len(hand) > 1 or _is_number(self.discard[-1]))
            ):
                out.extend(self._play_variants((self.discard[-1],), seat))
            if (
                phase is Phase.PENDING
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
        """UNO may be said before playing: holding two cards, or when a legal several-card
        play (multi-play, bruciata) would leave exactly one."""
        n = len(self.hands[seat])
        if n == 2:
            return True
        return n > 2 and any(isinstance(a, A.Play) and len(a.cards) == n - 1 for a in legal)

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
        return [s for s in range(self.n) if s != seat and self.in_hand[s]]

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
            if not _is_number(first):
                continue
            num = first % 13
            same = without_one([c for c in hand if _is_number(c) and c % 13 == num], first)
            if not same:
                continue
            if not rules.go_out_on_action and len(same) + 1 == len(hand):
                pass  # number cards: going out on them is always allowed
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
    def act(self, seat: int, action: A.Action) -> None:
        """Validate and apply one action of ``seat`` (raises typed errors, see engine.apply)."""
        if self.phase is Phase.OVER:
            raise GameOver("the match is over; no more actions are accepted")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n:
            raise MalformedAction(f"seat {seat!r} does not exist at this {self.n}-seat table")
        if not isinstance(action, A.Action):
            raise MalformedAction(f"{action!r} is not an UNO action")
        self.clock += 1
        if isinstance(action, A.Timeout):
            self._timeout(seat)
        elif isinstance(action, A.Leave):
            self._leave(seat)
        elif isinstance(action, A.EndHand):
            self._close_uno_window()
            self._end_hand(None, "time_limit")
        elif not self.in_hand[seat]:
            raise NotYourTurn(f"seat {seat} is not playing this hand", "not_in_hand")
        elif isinstance(action, A.Play):
            self._play(seat, action)
        elif isinstance(action, A.Draw):
            self._draw(seat)
        elif isinstance(action, A.Pass):
            self._pass(seat)
        elif isinstance(action, A.Accept):
            self._accept(seat)
        elif isinstance(action, A.Challenge):
            self._challenge(seat)
        elif isinstance(action, A.CallUno):
            self._call_uno(seat)
        elif isinstance(action, A.Catch):
            self._catch(seat, action.target)
        elif isinstance(action, A.ChooseColor):
            self._choose_color(seat, action.color)
        else:  # pragma: no cover - every Action subclass is handled above
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
            and self.phase is not Phase.OVER
        ):
            self.events.append(E.UnoMissed(s))
            self._draw_cards(s, self.rules.uno_penalty, "uno")
        self.uno_called = False

    def _play(self, seat: int, action: A.Play) -> None:
        """uno.md "A hand" 4, 6, 8, 9 and the house-rule options; validation first."""
        rules = self.rules
        cards = action.cards
        if not cards or not all(isinstance(c, int) and 0 <= c < 54 for c in cards):
            raise MalformedAction("a play names one or more cards")
        hand = self.hands[seat]
        jump = False
        if seat != self.current:
            top = self.discard[-1]
            if not (
                rules.jump_in
                and self.phase is Phase.PLAY
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
            jump = True
        elif self.phase not in (Phase.PLAY, Phase.DRAWN, Phase.PENDING):
            raise IllegalAction(_PHASE_HINT[self.phase], f"wrong_phase_{self.phase.value}")
        # the cards must be in the hand, counting copies
        remaining = list(hand)
        for c in cards:
            if c not in remaining:
                raise IllegalAction(f"{_fmt(cards)}: {Card(c)} is not in your hand", "not_in_hand")
            remaining.remove(c)
        last = cards[-1]
        burn = False
        if len(cards) > 1:
            if self.phase is not Phase.PLAY or jump:
                raise IllegalAction(
                    "several cards may only be played as a normal turn's play",
                    "multi_play_not_allowed",
                )
            if not all(_is_number(c) and c % 13 == cards[0] % 13 for c in cards):
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
        elif self.phase is Phase.DRAWN:
            if last != self.drawn:
                raise IllegalAction(
                    f"after drawing only the drawn card ({self.drawn}) may be played",
                    "only_drawn_card",
                )
            if not self.playable(seat, last):
                raise IllegalAction(f"{Card(last)} does not match the pile", "no_match")
        elif self.phase is Phase.PENDING:
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
                f"{Card(last)} does not match {self.discard[-1]} (colour {Color(self.color)})"
                if self.color >= 0
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

        # --- the play is legal: apply it --------------------------------------------------
        color_before = self.color
        stacking_now = self.phase is Phase.PENDING
        self._close_uno_window()  # may hand this very seat its UNO penalty (auto)
        remaining = list(self.hands[seat])
        for c in cards:
            remaining.remove(c)
        was_legal_w4 = True
        if last == WILD4_FACE:
            if self.phase is Phase.PENDING:
                was_legal_w4 = (not rules.stack_wild4_rule_applies) or self._stack_w4_legal(seat)
            else:
                was_legal_w4 = wild4_legal(remaining, self.discard[-1], self.color, rules)
        self.passes = 0
        self.hands[seat] = remaining
        self.discard.extend(cards)
        self.color = int(action.color) if last >= WILD_FACE else FACE_COLOR[last]  # type: ignore[arg-type]
        self.events.append(E.Played(seat, tuple(cards), action.color, target, jump))
        if jump:
            self.current = seat
        self.drawn = None
        self.phase = Phase.PLAY
        if len(remaining) == 1:
            self.uno_seat = seat
            self.uno_called = self.uno_ready == seat
        self.uno_ready = None
        if not remaining:
            self._go_out(seat, last, stacking_now)
            return
        # --- effects ----------------------------------------------------------------------
        if burn:
            self._skip_next(seat)
            return
        if r <= 9:
            if r == 7 and rules.seven_swap and target is not None:
                self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
                self.events.append(E.Swapped(seat, target))
                self._fix_uno_after_move()
            elif r == 0 and rules.zero_rotate:
                self._rotate_hands()
            elif r == 0 and rules.zero_gives_four and target is not None:
                self._draw_cards(target, 4, "zero")
            self._advance(seat)
        elif r == SKIP_RANK:
            self._skip_next(seat)
        elif r == REVERSE_RANK:
            if self.seats_in_hand() == 2 and rules.two_player_reverse == "skip":
                self._skip_next(seat)
            else:
                self.direction = -self.direction
                self.events.append(E.Reversed(self.direction))
                self._advance(seat)
        elif r == DRAW2_RANK:
            self._hit_with_draw2(self.next_seat(seat), stacked=stacking_now)
        elif r == 13:
            self._advance(seat)
        else:  # +4
            self._hit_with_wild4(seat, color_before, was_legal_w4, stacked=stacking_now)

    def _fix_uno_after_move(self) -> None:
        """After hands move (7 swap, 0 rotation) an open UNO window follows nobody."""
        self.uno_seat, self.uno_called = None, False

    def _rotate_hands(self) -> None:
        seats = [s for s in range(self.n) if self.in_hand[s]]
        old = {s: self.hands[s] for s in seats}
        for s in seats:
            self.hands[self.next_seat(s)] = old[s]
        self.events.append(E.Rotated(self.direction))
        self._fix_uno_after_move()

    def _go_out(self, seat: int, last: int, stacking_now: bool) -> None:
        """uno.md 9: the hand ends; a last +2/+4 (and any stack) is still drawn by the next
        player and counts in scoring."""
        r = rank(last)
        victim = self.next_seat(seat)
        count = self.pending + (2 if r == DRAW2_RANK else 4 if r == 14 else 0)
        self._clear_pending()
        if count:
            self._draw_cards(victim, count, "draw4" if r == 14 else "draw2")
        self._end_hand(seat, "out")

    def _draw(self, seat: int) -> None:
        """uno.md 5 and 7: draw one card (by choice with ``voluntary_draw``, or for lack of a
        playable card); only the drawn card may then be played."""
        self._require_turn(seat, Phase.PLAY)
        rules = self.rules
        has_playable = self.has_playable(seat)
        if has_playable and not self.can_draw():
            raise IllegalAction(
                "nothing is left to draw and you hold a playable card: play it", "must_play"
            )
        if has_playable and not rules.voluntary_draw:
            raise IllegalAction("you hold a playable card and voluntary_draw is off", "must_play")
        self._close_uno_window()
        self.uno_ready = None
        if not self.can_draw():
            self.events.append(E.Passed(seat, "nothing_to_draw"))
            self.passes += 1
            if self.passes >= self.seats_in_hand():
                self._end_hand(None, "blocked")
            else:
                self._advance(seat)
            return
        self.passes = 0
        c = self._draw_cards(seat, 1, "choice" if has_playable else "no_play")[0]
        if self.playable(seat, c):
            self.phase, self.drawn = Phase.DRAWN, c
        else:
            self.events.append(E.Passed(seat, "kept"))
            self._advance(seat)

    def _pass(self, seat: int) -> None:
        self._require_turn(seat, Phase.DRAWN)
        if self.rules.drawn_card == "must_play":
            raise IllegalAction(
                f"the drawn card {self.drawn} is playable and must be played "
                "(drawn_card=must_play)",
                "must_play_drawn",
            )
        self._close_uno_window()
        self.events.append(E.Passed(seat, "kept"))
        self.drawn = None
        self.uno_ready = None
        self._advance(seat)

    def _accept(self, seat: int) -> None:
        self._require_turn(seat, Phase.PENDING)
        self._close_uno_window()
        self._take_pending(seat)

    def _challenge(self, seat: int) -> None:
        """uno.md "Wild Draw Four" challenge: the server checks the hand without showing it.
        Guilty: the challenged draws 4, the victim neither draws nor loses the turn. Innocent:
        the victim-challenger draws the pending cards + 2 and loses the turn."""
        rules = self.rules
        if self.phase is not Phase.PENDING or self.w4_by is None:
            raise IllegalAction(
                "there is no Wild Draw Four to challenge now", "nothing_to_challenge"
            )
        offender, victim = self.w4_by, self.current
        if seat != victim and (rules.challenge_by != "any" or seat == offender):
            if rules.challenge_by == "victim":
                raise NotYourTurn(
                    "only the player who must draw may challenge (challenge_by=victim)",
                    "not_the_victim",
                )
            raise IllegalAction("you cannot challenge your own Wild Draw Four", "own_wild4")
        self._close_uno_window()
        guilty = not self.w4_legal
        self.events.append(E.Challenged(seat, offender, guilty))
        if guilty:
            self._clear_pending()
            self._draw_cards(offender, rules.challenge_guilty_draw, "challenge")
            self.current, self.phase = victim, Phase.PLAY
            return
        if seat == victim:
            count = self.pending + rules.challenge_innocent_extra
            self._clear_pending()
            self._draw_cards(victim, count, "challenge")
            self.events.append(E.Skipped(victim))
            self._advance(victim)
        else:
            self.w4_by = None
            self._draw_cards(seat, rules.challenge_innocent_extra, "challenge")

    def _call_uno(self, seat: int) -> None:
        rules = self.rules
        if rules.uno_call == "off":
            raise IllegalAction("UNO calls are not used at this table (uno_call=off)", "uno_off")
        hand = self.hands[seat]
        if (
            seat == self.current
            and self.phase in (Phase.PLAY, Phase.DRAWN)
            and self.uno_ready != seat
            and self._may_precall(seat, self.legal(seat))
        ):
            self.uno_ready = seat
            self.events.append(E.UnoCalled(seat))
            return
        if self.uno_seat == seat and not self.uno_called and len(hand) == 1:
            self.uno_called = True
            self.events.append(E.UnoCalled(seat))
            return
        raise IllegalAction(
            "UNO is called when playing your next-to-last card or while holding one card",
            "uno_not_due",
        )

    def _catch(self, seat: int, target: int) -> None:
        """uno.md 8 ``catch``: before the next player starts a turn, another player catches
        one who did not call UNO; the caught player draws ``uno_penalty`` cards."""
        if self.rules.uno_call != "catch":
            raise IllegalAction(
                "catching is not used at this table (uno_call is not 'catch')", "catch_off"
            )
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < self.n:
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
        self.uno_seat, self.uno_called = None, False
        self.events.append(E.Caught(seat, target))
        self._draw_cards(target, self.rules.uno_penalty, "uno")

    def _choose_color(self, seat: int, color: Color) -> None:
        self._require_turn(seat, Phase.COLOR)
        if not isinstance(color, Color):
            raise MalformedAction("choose one of R, Y, G, B")
        self.color = int(color)
        self.events.append(E.ColorChosen(seat, color))
        self.phase = Phase.PLAY

    # ------------------------------------------------------------------ server actions
    def _timeout(self, seat: int) -> None:
        """004 auto-play: the lowest-value playable number card, never an action or a wild;
        else draw and pass. In a two-player table with ``abandonment`` it ends the match."""
        if seat != self.current:
            raise NotYourTurn(f"seat {seat} has no decision pending; seat {self.current} has")
        if self.rules.abandonment and self.n == 2:
            self._abandon(seat, "timeout")
            return
        self.events.append(E.AutoPlayed(seat))
        self.clock -= 1
        for _ in range(4):  # draw, then keep or play the drawn card: one decision at a time
            if self.current != seat or self.phase is Phase.OVER:
                return
            legal = [a for a in self.legal(seat) if not isinstance(a, A.Catch)]
            if not legal:
                return
            phase = self.phase
            action = choose_autoplay(legal, self.hands[seat], phase)
            self.act(seat, action)
            if phase is Phase.PLAY and not isinstance(action, (A.Draw, A.CallUno)):
                return
            if phase in (Phase.DRAWN, Phase.PENDING):
                return

    def _leave(self, seat: int) -> None:
        if not (self.rules.abandonment and self.n == 2):
            raise IllegalAction(
                "only two-player tables with the abandonment rule can be left (004: four-player "
                "tables cannot be left)",
                "leave_not_allowed",
            )
        self._abandon(seat, "left")


def _is_number(card: int) -> bool:
    return card < WILD_FACE and card % 13 <= 9


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
    Phase.PLAY: "play a card or draw",
    Phase.DRAWN: "you drew a playable card: play it or pass",
    Phase.PENDING: "draw cards are pending: accept, stack or challenge",
    Phase.COLOR: "choose the colour of the first card (a Wild) first",
    Phase.OVER: "the match is over",
}
