"""UNO legality, defined once: what each seat may do in a position (:func:`compute_legal`,
which :meth:`mazziere.uno.game.Game.legal_actions` lists and caches), and the canonical form
of an action (:func:`canonical`), by which ``push`` looks an action up in that list.

``push`` accepts an action exactly when its canonical form is listed, so nothing else decides
whether an action is legal; the refusals (:mod:`mazziere.uno.refusals`) only explain, after the
fact, why an action that is not listed was refused. Every function here reads the game and
changes nothing. Compiled with mypyc (:mod:`mazziere._compiled`): listing the legal actions
is the engine's hottest path, so the match of every card against the top card comes from
tables built once (:data:`MATCH`).
"""

from __future__ import annotations

import functools

from mazziere.cards.uno import FACE_COLOR, WILD4_FACE, WILD_FACE, Card, Color, card
from mazziere.uno import actions as A
from mazziere.uno.actions import Play
from mazziere.uno.matching import can_stack, matches, wild4_legal, without_one
from mazziere.uno.options import Rules
from mazziere.uno.state import COLOR, DRAWN, OVER, PENDING, PLAY, GameData

_W4 = card(WILD4_FACE)
NUMBER: tuple[bool, ...] = tuple(f < WILD_FACE and f % 13 <= 9 for f in range(54))
"""Whether each face is a number card (0-9)."""

Variants = tuple[tuple[A.Action, ...] | None, ...]
"""Per face, the shared plays of that card alone (:func:`variants_table`)."""


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


MATCH = (_match_table(False), _match_table(True))
"""``MATCH[reverse_skip_same][colour][top rank]``: :func:`_match_table`."""
_TOP_RANK: tuple[int, ...] = tuple(f % 13 if f < WILD_FACE else 13 for f in range(54))


@functools.cache
def variants_table(seven_swap: bool, zero_gives_four: bool) -> Variants:
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


# ---------------------------------------------------------------------- playability
def playable(g: GameData, seat: int, face: int) -> bool:
    """Whether the card ``face`` from ``seat``'s hand may be played alone in PLAY/DRAWN
    phase."""
    hand = g.hands[seat]
    rules = g.rules
    if not rules.go_out_on_action and len(hand) == 1 and not NUMBER[face]:
        return False
    if face == WILD4_FACE:
        return rules.wild4_bluff or wild4_legal(
            without_one(hand, face), g.discard[-1], g.color, rules
        )
    return matches(face, g.discard[-1], g.color, rules)


def stack_playable(g: GameData, seat: int, face: int) -> bool:
    """Whether the card ``face`` may be stacked on the pending draw (PENDING phase)."""
    rules = g.rules
    hand = g.hands[seat]
    if not can_stack(face, g.discard[-1], rules):
        return False
    if not rules.go_out_on_action and len(hand) == 1:
        return False
    if face == WILD4_FACE and rules.stack_wild4_rule_applies and not rules.wild4_bluff:
        return stack_w4_legal(g, seat)
    return True


def stack_w4_legal(g: GameData, seat: int) -> bool:
    """Whether a +4 stacked by ``seat`` now is legal under ``wild4_rule`` (against the colour
    before the first +4 of the stack)."""
    color = g.stack_color if g.stack_w4 else g.color
    return wild4_legal(without_one(g.hands[seat], WILD4_FACE), g.discard[-1], color, g.rules)


def has_playable(g: GameData, seat: int) -> bool:
    """Whether ``seat`` holds a card it may play alone (:func:`playable`)."""
    return any(playable(g, seat, c) for c in set(g.hands[seat]))


def _playable_cards(g: GameData, hand: tuple[Card, ...]) -> list[Card]:
    """The distinct cards of ``hand`` (the current seat's) playable alone now, sorted:
    :func:`playable` for every card at once, from the match table."""
    rules = g.rules
    color = g.color
    assert color is not None
    row = MATCH[rules.reverse_skip_same][color][_TOP_RANK[g.discard[-1]]]
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
        out = [c for c in out if NUMBER[c]]
    out.sort()
    return out


# ---------------------------------------------------------------------- the legal actions
def compute_legal(g: GameData, seat: int, variants: Variants) -> list[A.Action]:
    """What ``seat`` (in the hand, the match not over) may do now, in the order
    :meth:`~mazziere.uno.game.Game.legal_actions` documents; ``variants`` is the rules'
    :func:`variants_table`."""
    out: list[A.Action] = []
    rules = g.rules
    hand = g.hands[seat]
    phase = g.phase
    if seat == g.current:
        if phase is PLAY:
            # _playable_cards, inlined: this is the engine's hottest path
            color = g.color
            assert color is not None
            row = MATCH[rules.reverse_skip_same][color][_TOP_RANK[g.discard[-1]]]
            playable_now = [c for c in hand if row[c]]
            if _W4 in playable_now:
                playable_now = _playable_cards(g, hand)
            else:
                if len(playable_now) > 1:
                    playable_now = sorted(set(playable_now))
                if not rules.go_out_on_action and len(hand) == 1:
                    playable_now = [c for c in playable_now if NUMBER[c]]
            for c in playable_now:
                v = variants[c]
                if v is None:
                    out.extend(play_variants(g, (c,), seat))
                else:
                    out += v
            if rules.multi_play or rules.burn:
                out.extend(_multi_plays(g, seat, playable_now))
            if g.draw_pile or (rules.reshuffle and len(g.discard) > 1):
                if rules.voluntary_draw or not playable_now:
                    out.append(A.DRAW)
            elif not playable_now:
                out.append(A.DRAW)  # nothing to draw: the draw is a pass
        elif phase is DRAWN:
            drawn = g.drawn
            assert drawn is not None
            v = variants[drawn]
            out.extend(play_variants(g, (drawn,), seat) if v is None else v)
            if rules.drawn_card == "may_play" or (
                drawn == WILD4_FACE
                and not wild4_legal(without_one(hand, drawn), g.discard[-1], g.color, rules)
            ):
                out.append(A.PASS)
        elif phase is PENDING:
            for c in sorted(set(hand)):
                if stack_playable(g, seat, c):
                    v = variants[c]
                    out.extend(play_variants(g, (c,), seat) if v is None else v)
            if g.w4_by is not None:
                out.append(A.CHALLENGE)
            out.append(A.ACCEPT)
        elif phase is COLOR:
            return list(_COLOR_CHOICES)
        if (
            rules.uno_call != "off"
            and g.uno_ready != seat
            and (phase is PLAY or phase is DRAWN)
            and may_precall(g, seat, out)
        ):
            out.append(A.CALL_UNO)
    else:
        top = g.discard[-1]
        if (
            rules.jump_in
            and phase is PLAY
            and top < WILD_FACE
            and top in hand
            and (rules.go_out_on_action or len(hand) > 1 or NUMBER[top])
        ):
            out.extend(play_variants(g, (top,), seat))
        if (
            phase is PENDING
            and g.w4_by is not None
            and rules.challenge_by == "any"
            and seat != g.w4_by
        ):
            out.append(A.CHALLENGE)
    if (
        rules.uno_call != "off"
        and g.uno_seat is not None
        and not g.uno_called
        and len(g.hands[g.uno_seat]) == 1
    ):
        if seat == g.uno_seat:
            if A.CALL_UNO not in out:
                out.append(A.CALL_UNO)
        elif rules.uno_call == "catch":
            out.append(A.Catch(g.uno_seat))
    return out


def may_precall(g: GameData, seat: int, legal: list[A.Action]) -> bool:
    """UNO may be said before a play that leaves exactly one card: holding two cards with
    a card to play, or when a legal several-card play (multi-play, bruciata) would leave
    one. It is not offered when it cannot become due (two cards, neither playable)."""
    n = len(g.hands[seat])
    return n >= 2 and any(type(a) is Play and len(a.cards) == n - 1 for a in legal)


def play_variants(g: GameData, cards: tuple[Card, ...], seat: int) -> list[A.Action]:
    """The plays of ``cards`` by ``seat``: a wild in each colour, a 7 onto each other seat
    (``seven_swap``), a 0 alone and onto each seat it may name (``zero_gives_four``)."""
    last = cards[-1]
    rules = g.rules
    if last >= WILD_FACE:
        return [A.play_of(cards, col) for col in Color]
    r = last % 13
    if r == 7 and rules.seven_swap:
        return [A.play_of(cards, None, t) for t in others(g, seat)]
    if r == 0 and rules.zero_gives_four:
        out: list[A.Action] = [A.play_of(cards)]
        out.extend(A.play_of(cards, None, t) for t in zero_targets(g, seat))
        return out
    return [A.play_of(cards)]


def others(g: GameData, seat: int) -> list[int]:
    """The other seats in the hand."""
    return [s for s in range(g.players) if s != seat and g.in_hand[s]]


def zero_targets(g: GameData, seat: int) -> list[int]:
    """The seats a 0 of ``seat``'s may make draw four (``zero_groups`` limit them)."""
    groups = g.rules.zero_groups
    if not groups:
        return others(g, seat)
    allowed = {s for grp in groups if seat in grp for s in grp}
    return [s for s in others(g, seat) if s in allowed]


def _multi_plays(g: GameData, seat: int, playable_now: list[Card]) -> list[A.Action]:
    """Bruciata pairs and multi-plays: one canonical order per outcome (first card, the
    middle sorted, last card), since only the first (it must match) and the last (it sets
    the colour and the effect) change anything."""
    rules = g.rules
    hand = g.hands[seat]
    out: list[A.Action] = []
    seen: set[tuple[Card, ...]] = set()
    for first in playable_now:
        if not NUMBER[first]:
            continue
        num = first % 13
        same = without_one([c for c in hand if NUMBER[c] and c % 13 == num], first)
        if not same:
            continue
        if rules.burn and first in same and (first, first) not in seen:
            seen.add((first, first))
            out.extend(play_variants(g, (first, first), seat))
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
                out.extend(play_variants(g, seq, seat))
    return out


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


# ---------------------------------------------------------------------- canonical form
def canonical(action: object) -> A.Action | None:
    """``action`` in the form :func:`compute_legal` lists it, or ``None`` when no listed
    action can be it (not an action, a card that is no face, a colour that is no
    :class:`~mazziere.cards.uno.Color`, a seat that is no ``int``). The cards become the
    interned ones and a several-card play takes its listed order: the first card, the middle
    ones sorted, the last card (only the first and the last change anything). A value that
    merely compares equal is not enough (``True == 1``, ``Color.RED == 0``): such an action
    is refused, with the reason :mod:`mazziere.uno.refusals` gives."""
    if isinstance(action, Play):
        cards = action.cards
        if not isinstance(cards, (tuple, list)) or not cards:
            return None
        faces: list[Card] = []
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < 54:
                return None
            faces.append(card(c))
        if len(faces) > 2:
            faces = [faces[0], *sorted(faces[1:-1]), faces[-1]]
        color = action.color
        if color is not None and not isinstance(color, Color):
            return None
        target = action.target
        if target is not None:
            if not isinstance(target, int) or isinstance(target, bool):
                return None
            target = int(target)
        return Play(tuple(faces), color, target)
    if isinstance(action, A.Draw):
        return A.DRAW
    if isinstance(action, A.Pass):
        return A.PASS
    if isinstance(action, A.Accept):
        return A.ACCEPT
    if isinstance(action, A.Challenge):
        return A.CHALLENGE
    if isinstance(action, A.CallUno):
        return A.CALL_UNO
    if isinstance(action, A.Catch):
        target = action.target
        if not isinstance(target, int) or isinstance(target, bool):
            return None
        return A.Catch(int(target))
    if isinstance(action, A.ChooseColor):
        return A.ChooseColor(action.color) if isinstance(action.color, Color) else None
    return None


def find_listed(legal: tuple[A.Action, ...], action: object) -> A.Action | None:
    """The action of ``legal`` that ``action`` is (the very object, or its canonical form),
    else ``None``: legal exactly when found."""
    for listed in legal:  # by identity first: listed actions are shared objects
        if listed is action:
            return listed
    canon = canonical(action)
    if canon is None:
        return None
    for listed in legal:
        if listed == canon:
            return listed
    return None


def legal_seat(g: GameData, seat: int) -> bool:
    """Whether ``seat`` may have legal actions at all: the match goes on and it plays this
    hand."""
    return g.phase is not OVER and 0 <= seat < g.players and g.in_hand[seat]
