"""UNO positions as one line of text, like a chess FEN: :func:`format_position` writes every
field of a :class:`~mazziere.uno.game.Game` (hidden cards and the random sources included) and
:func:`parse_position` reads it back, validated, so that
``parse_position(format_position(g), g.rules) == g`` and the game continues identically
(docs/positions.md; tests/uno/test_position.py). The rules are not in the text: they are the
``rules`` argument.

>>> from mazziere.uno import Game, find_preset
>>> g = Game.new(find_preset("casino"), 2, rng=1)
>>> parse_position(format_position(g), g.rules) == g
True
>>> p = parse_position("uno hands=R1,R2/G5 discard=R7 turn=0", find_preset("casino"))
>>> [str(a) for a in p.legal_actions()]
['R1', 'R2', 'draw']

Grammar: the word ``uno``, then ``key=value`` fields separated by single spaces, in the order
below (the parser takes any order, each key at most once). No value contains a space. A
*card list* is cards in their text form (``R7``, ``GD2``, ``W``, ``W4``) joined by commas, or
``-`` when empty; an *int list* is integers joined by commas, or ``-``; a *flag list* is one
``0``/``1`` per seat (``1101``); ``-`` stands for "none" wherever a value may be missing.

=============  =====================  ===========================================  ==========
key            field                  value                                        default
=============  =====================  ===========================================  ==========
seats          players                seat count (checked against the rules)       hands
hand           hand_no                the hand number, from 0                      0
dealer         dealer                 seat                                         0
turn           current                the seat to act                              0
phase          phase                  play, drawn, pending, color, over            play
color          color                  R, Y, G, B, or - (before the first colour)   top card's
dir            direction              1 (clockwise, seat numbers up) or -1         1
hands          hands                  card lists, one per seat, joined by ``/``    required
discard        discard                card list, the top card first                required
draw           draw_pile              card list, the next card drawn first; a      ``*``
                                      last element ``*`` (parser only) stands for
                                      every card not placed elsewhere, highest
                                      face first (face order from the bottom)
removed        removed                card list (the 8 Reverses when two play with  per rules
                                      ``two_player_reverse=removed``)
pending        pending                cards owed by the seat to act                0
stackw4        stack_w4               0/1: a +4 is in the pending stack            0
stackcolor     stack_color            colour before the stack's first +4, or -     -
w4by           w4_by                  seat that may be challenged, or -            -
w4legal        w4_legal               0/1: the pending +4 was legal                1
drawn          drawn                  the card just drawn (phase drawn), or -      -
unoseat        uno_seat               seat whose UNO window is open, or -          -
unocalled      uno_called             0/1                                          0
unoready       uno_ready              seat that said UNO before playing, or -      -
active         active                 flag list: seats still in the match          all 1
inhand         in_hand                flag list: seats playing this hand           all 1
scores         scores                 int list, one per side (teams: 2)            zeros
won            hands_won              int list, one per side                       zeros
seatpoints     seat_points            int list, one per seat                       zeros
lastdraw       last_draw              int list, one per seat (-1: never drew)      all -1
lastcards      last_hand_cards        int list, one per seat                       zeros
eliminated     eliminated_order       int list of seats                            -
tiebreak       tiebreak               int list of sides                            -
passes         passes                 int                                          0
turns          turns                  int (this hand)                              0
totalturns     total_turns            int (the match)                              0
clock          clock                  int (actions applied)                        0
result         result                 - or winner:ranking:scores:match_points:     -
                                      victory_points:reason (int lists, then a
                                      word); required in phase over
matchrng       match_rng              a random source (below)                      splitmix:0:0
rng            rng                    the hand's random source                     splitmix:0:0
=============  =====================  ===========================================  ==========

A random source is ``splitmix:SEED:STATE`` (:class:`~mazziere.rng.SplitMixRng`, decimal) or
``shake:SEED:BLOCK:POS`` (:class:`~mazziere.rng.ShakeRng`: the 64 hex digits of the seed, the
blocks expanded, the bytes used of the last one). ``commitment`` is not written: it is the
hand source's commitment. Defaults exist so that hand-written positions stay short; the
formatter always writes every field.

Validation raises :class:`~mazziere.errors.BadPosition` with a code: ``bad_position`` (syntax,
unknown, repeated or missing key, bad number), ``bad_card``, ``cards_not_conserved`` (the
hands, draw pile, discards and removed cards are the 108 cards, each once; removed cards only
the 8 Reverses, exactly when the rules remove them), ``bad_count`` (a per-seat or per-side list
of the wrong length, a hand held by a seat out of the hand, an empty hand before the end),
``bad_seat`` (a seat out of range, the seat to act out of the hand, ``w4by`` the seat to act),
``bad_phase`` (``drawn`` set exactly in phase drawn and held by the seat to act; ``pending >
0`` exactly in phase pending, with stack fields and ``w4by`` only there; phase color only with
a Wild on top and no colour; phase over exactly when a result is given) and ``bad_rng``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from mazziere.cards.uno import FULL_DECK, WILD_FACE, Card, Color, parse_card
from mazziere.errors import BadPosition, OptionError
from mazziere.position_text import (
    format_rng,
    parse_card_list,
    parse_rng,
    split_fields,
)
from mazziere.position_text import parse_bool as _bool
from mazziere.position_text import parse_int as _int
from mazziere.position_text import parse_int_list as _int_list
from mazziere.uno.game import Game
from mazziere.uno.legal import variants_table
from mazziere.uno.matching import REVERSE_RANK
from mazziere.uno.options import Rules
from mazziere.uno.state import COLOR, DRAWN, OVER, PENDING, MatchResult, Phase

__all__ = ["KEYS", "diff_positions", "format_position", "format_rng", "parse_position", "parse_rng"]

KEYS: tuple[str, ...] = (
    "seats",
    "hand",
    "dealer",
    "turn",
    "phase",
    "color",
    "dir",
    "hands",
    "discard",
    "draw",
    "removed",
    "pending",
    "stackw4",
    "stackcolor",
    "w4by",
    "w4legal",
    "drawn",
    "unoseat",
    "unocalled",
    "unoready",
    "active",
    "inhand",
    "scores",
    "won",
    "seatpoints",
    "lastdraw",
    "lastcards",
    "eliminated",
    "tiebreak",
    "passes",
    "turns",
    "totalturns",
    "clock",
    "result",
    "matchrng",
    "rng",
)
"""Every key of the grammar, in the order :func:`format_position` writes them."""

PREFIX = "uno"
_REVERSES: tuple[Card, ...] = tuple(
    c for c in FULL_DECK if c < WILD_FACE and c % 13 == REVERSE_RANK
)
_DECK = Counter(FULL_DECK)


# ---------------------------------------------------------------------- writing
def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return ",".join(str(c) for c in cards) if cards else "-"


def _ints(values: tuple[int, ...] | list[int]) -> str:
    return ",".join(str(v) for v in values) if values else "-"


def _opt(value: object) -> str:
    return "-" if value is None else str(value)


def _flags(values: tuple[bool, ...]) -> str:
    return "".join("1" if v else "0" for v in values)


def _result(r: MatchResult | None) -> str:
    if r is None:
        return "-"
    parts = (r.ranking, r.scores, r.match_points, r.victory_points)
    return ":".join([str(r.winner), *(_ints(p) for p in parts), r.reason])


def format_position(g: Game) -> str:
    """The one-line text of a game (module docstring), every field written."""
    fields = {
        "seats": str(g.players),
        "hand": str(g.hand_no),
        "dealer": str(g.dealer),
        "turn": str(g.current),
        "phase": g.phase.value,
        "color": _opt(g.color),
        "dir": str(g.direction),
        "hands": "/".join(_cards(h) for h in g.hands),
        "discard": _cards(g.discard[::-1]),
        "draw": _cards(g.draw_pile[::-1]),
        "removed": _cards(g.removed),
        "pending": str(g.pending),
        "stackw4": str(int(g.stack_w4)),
        "stackcolor": _opt(g.stack_color),
        "w4by": _opt(g.w4_by),
        "w4legal": str(int(g.w4_legal)),
        "drawn": _opt(g.drawn),
        "unoseat": _opt(g.uno_seat),
        "unocalled": str(int(g.uno_called)),
        "unoready": _opt(g.uno_ready),
        "active": _flags(g.active),
        "inhand": _flags(g.in_hand),
        "scores": _ints(g.scores),
        "won": _ints(g.hands_won),
        "seatpoints": _ints(g.seat_points),
        "lastdraw": _ints(g.last_draw),
        "lastcards": _ints(g.last_hand_cards),
        "eliminated": _ints(g.eliminated_order),
        "tiebreak": _ints(g.tiebreak),
        "passes": str(g.passes),
        "turns": str(g.turns),
        "totalturns": str(g.total_turns),
        "clock": str(g.clock),
        "result": _result(g.result),
        "matchrng": format_rng(g.match_rng),
        "rng": format_rng(g.rng),
    }
    return " ".join([PREFIX, *(f"{k}={fields[k]}" for k in KEYS)])


def diff_positions(a: Game, b: Game) -> list[str]:
    """The fields in which two games differ, as ``key: A != B`` from their texts (for error
    reports and test failures; empty when the games are equal).

    >>> from mazziere.uno import find_preset
    >>> r = find_preset("classic")
    >>> a = parse_position("uno hands=R1/G5 discard=R7", r)
    >>> diff_positions(a, parse_position("uno hands=R1/G5 discard=R7 turn=1 clock=3", r))
    ['turn: 0 != 1', 'clock: 0 != 3']
    """
    fa, fb = (dict(t.split("=", 1) for t in format_position(g).split()[1:]) for g in (a, b))
    return [f"{k}: {fa[k]} != {fb[k]}" for k in KEYS if fa[k] != fb[k]]


# ---------------------------------------------------------------------- reading
def _card_list(key: str, text: str) -> list[Card]:
    return parse_card_list(key, text, parse_card)


def _color(key: str, text: str) -> Color | None:
    if text == "-":
        return None
    if len(text) != 1 or text not in "RYGB":
        raise BadPosition(f"{key} is R, Y, G, B or -, not {text!r}")
    return Color.parse(text)


def _seat(key: str, text: str, players: int) -> int | None:
    if text == "-":
        return None
    s = _int(key, text, None)
    if not 0 <= s < players:
        raise BadPosition(f"{key}: no seat {s} at a {players}-seat table", "bad_seat")
    return s


def _flag_list(key: str, text: str, players: int) -> tuple[bool, ...]:
    if any(ch not in "01" for ch in text):
        raise BadPosition(f"{key} is one 0 or 1 per seat, not {text!r}")
    if len(text) != players:
        raise BadPosition(f"{key} has {len(text)} flags for {players} seats", "bad_count")
    return tuple(ch == "1" for ch in text)


def _sized(key: str, values: tuple[int, ...], n: int, what: str) -> tuple[int, ...]:
    if len(values) != n:
        raise BadPosition(f"{key} has {len(values)} values for {n} {what}", "bad_count")
    return values


def _parse_result(text: str, players: int, sides: int) -> MatchResult | None:
    if text == "-":
        return None
    parts = text.split(":")
    if len(parts) != 6 or not parts[5]:
        raise BadPosition(
            f"result is winner:ranking:scores:match_points:victory_points:reason, not {text!r}"
        )
    winner = _int("result winner", parts[0])
    ranking = _int_list("result ranking", parts[1])
    scores = _int_list("result scores", parts[2], None)
    mp = _int_list("result match points", parts[3], None)
    vp = _int_list("result victory points", parts[4])
    if winner >= sides or any(s >= sides for s in ranking):
        raise BadPosition(f"result names a side beyond {sides - 1}", "bad_seat")
    _sized("result scores", scores, sides, "sides")
    if vp:
        _sized("result victory points", vp, players, "seats")
    return MatchResult(winner, ranking, scores, mp, vp, parts[5])


def parse_position(text: str, rules: Rules) -> Game:
    """The game a position text describes under ``rules`` (module docstring), validated;
    a mistake raises :class:`~mazziere.errors.BadPosition` naming it."""
    if not isinstance(rules, Rules):
        raise BadPosition("rules must be a mazziere.uno.Rules (see find_preset)")
    f = split_fields(text, PREFIX, KEYS)
    if "hands" not in f or "discard" not in f:
        raise BadPosition("a position needs at least hands= and discard=")
    hand_texts = f["hands"].split("/")
    players = _int("seats", f.get("seats", str(len(hand_texts))))
    try:
        rules.check_players(players)
    except OptionError as e:
        raise BadPosition(e.message, "bad_count") from None
    if len(hand_texts) != players:
        raise BadPosition(f"hands lists {len(hand_texts)} seats for {players}", "bad_count")
    sides = 2 if rules.teams else players

    def get(key: str, default: str | Callable[[], str]) -> str:
        v = f.get(key)
        if v is not None:
            return v
        return default if isinstance(default, str) else default()

    g = Game()
    g.rules, g.players = rules, players
    g._variants = variants_table(rules.seven_swap, rules.zero_gives_four)
    g._legal, g._legal_seat, g.events = (), -1, []
    g.halt = False
    g.hand_no = _int("hand", get("hand", "0"))
    g.log, g.log_hand, g._seen, g._seen_n = [], g.hand_no, (), 0
    g.dealer = _req_seat("dealer", get("dealer", "0"), players)
    g.current = _req_seat("turn", get("turn", "0"), players)
    try:
        g.phase = Phase(get("phase", "play"))
    except ValueError:
        raise BadPosition(
            f"phase is one of {', '.join(p.value for p in Phase)}, not {f['phase']!r}", "bad_phase"
        ) from None
    g.hands = [tuple(_card_list("hands", h)) for h in hand_texts]
    discard = _card_list("discard", f["discard"])
    if not discard:
        raise BadPosition("the discard pile holds at least the top card", "bad_count")
    g.discard = discard[::-1]
    top = g.discard[-1]
    g.color = _color("color", get("color", lambda: _opt(top.color)))
    direction = _int("dir", get("dir", "1"), None)
    if direction not in (1, -1):
        raise BadPosition(f"dir is 1 or -1, not {direction}")
    g.direction = direction
    g.active = _flag_list("active", get("active", "1" * players), players)
    g.in_hand = _flag_list("inhand", get("inhand", "1" * players), players)
    two_removed = sum(g.in_hand) == 2 and rules.two_player_reverse == "removed"
    g.removed = tuple(
        _card_list("removed", get("removed", lambda: _cards(_REVERSES if two_removed else ())))
    )
    draw_text = get("draw", "*")
    fill = draw_text.endswith("*")
    draw = _card_list("draw", (draw_text[:-1].rstrip(",") or "-") if fill else draw_text)
    if fill:
        placed = Counter(draw) + Counter(discard) + Counter(g.removed)
        for h in g.hands:
            placed.update(h)
        rest = _DECK - placed
        draw += sorted(rest.elements(), reverse=True)
    g.draw_pile = draw[::-1]
    g.pending = _int("pending", get("pending", "0"))
    g.stack_w4 = _bool("stackw4", get("stackw4", "0"))
    g.stack_color = _color("stackcolor", get("stackcolor", "-"))
    g.w4_by = _seat("w4by", get("w4by", "-"), players)
    g.w4_legal = _bool("w4legal", get("w4legal", "1"))
    drawn = get("drawn", "-")
    if "," in drawn:
        raise BadPosition("drawn is one card", "bad_card")
    g.drawn = None if drawn == "-" else _card_list("drawn", drawn)[0]
    g.uno_seat = _seat("unoseat", get("unoseat", "-"), players)
    g.uno_called = _bool("unocalled", get("unocalled", "0"))
    g.uno_ready = _seat("unoready", get("unoready", "-"), players)
    g.scores = _sized(
        "scores", _int_list("scores", get("scores", _zeros(sides)), None), sides, "sides"
    )
    g.hands_won = _sized("won", _int_list("won", get("won", _zeros(sides))), sides, "sides")
    g.seat_points = _sized(
        "seatpoints", _int_list("seatpoints", get("seatpoints", _zeros(players))), players, "seats"
    )
    g.last_draw = list(
        _sized(
            "lastdraw",
            _int_list("lastdraw", get("lastdraw", ",".join(["-1"] * players)), -1),
            players,
            "seats",
        )
    )
    g.last_hand_cards = _sized(
        "lastcards", _int_list("lastcards", get("lastcards", _zeros(players))), players, "seats"
    )
    g.eliminated_order = _int_list("eliminated", get("eliminated", "-"))
    if any(s >= players for s in g.eliminated_order):
        raise BadPosition("eliminated names a seat beyond the table", "bad_seat")
    g.tiebreak = _int_list("tiebreak", get("tiebreak", "-"))
    if any(s >= sides for s in g.tiebreak):
        raise BadPosition("tiebreak names a side beyond the table", "bad_seat")
    g.passes = _int("passes", get("passes", "0"))
    g.turns = _int("turns", get("turns", "0"))
    g.total_turns = _int("totalturns", get("totalturns", "0"))
    g.clock = _int("clock", get("clock", "0"))
    g.result = _parse_result(get("result", "-"), players, sides)
    g.match_rng = parse_rng(get("matchrng", "splitmix:0:0"))
    g.rng = parse_rng(get("rng", "splitmix:0:0"))
    g.commitment = g.rng.commitment
    _validate(g, two_removed)
    return g


def _zeros(n: int) -> str:
    return ",".join(["0"] * n)


def _req_seat(key: str, text: str, players: int) -> int:
    s = _seat(key, text, players)
    if s is None:
        raise BadPosition(f"{key} is a seat number, not -", "bad_seat")
    return s


def _validate(g: Game, two_removed: bool) -> None:
    """The consistency checks of the module docstring (codes there)."""
    # cards
    if g.removed and (not two_removed or Counter(g.removed) != Counter(_REVERSES)):
        raise BadPosition(
            "only the 8 Reverses are removed, and only with two_player_reverse=removed and "
            "two seats in the hand",
            "cards_not_conserved",
        )
    if two_removed and not g.removed:
        raise BadPosition(
            "two seats in the hand with two_player_reverse=removed: the 8 Reverses are removed",
            "cards_not_conserved",
        )
    seen = Counter(g.draw_pile) + Counter(g.discard) + Counter(g.removed)
    for h in g.hands:
        seen.update(h)
    if seen != _DECK:
        extra, missing = seen - _DECK, _DECK - seen
        parts = []
        if extra:
            parts.append("extra " + ",".join(str(c) for c in sorted(extra.elements())))
        if missing:
            parts.append("missing " + ",".join(str(c) for c in sorted(missing.elements())))
        raise BadPosition(
            "the 108 cards are not all present once: " + "; ".join(parts), "cards_not_conserved"
        )
    # seats
    for s in range(g.players):
        if not g.in_hand[s] and g.hands[s]:
            raise BadPosition(f"seat {s} is out of the hand but holds cards", "bad_count")
        if g.in_hand[s] and not g.active[s] and g.phase is not OVER:
            raise BadPosition(f"seat {s} is in the hand but out of the match", "bad_seat")
    if sum(g.in_hand) < 2:
        raise BadPosition("a hand is played by at least two seats", "bad_count")
    if not g.in_hand[g.current]:
        raise BadPosition(f"seat {g.current} is to act but not in the hand", "bad_seat")
    if g.phase is not OVER:
        for s in range(g.players):
            if g.in_hand[s] and not g.hands[s]:
                raise BadPosition(
                    f"seat {s} holds no card but the hand goes on (it would have ended)",
                    "bad_count",
                )
        if g.w4_by is not None and (g.w4_by == g.current or not g.in_hand[g.w4_by]):
            raise BadPosition(
                f"w4by: seat {g.w4_by} cannot have played the +4 seat {g.current} answers",
                "bad_seat",
            )
    # phase
    phase = g.phase
    if (phase is OVER) != (g.result is not None):
        raise BadPosition("phase over goes with a result, and only it", "bad_phase")
    if (phase is DRAWN) != (g.drawn is not None):
        raise BadPosition("drawn is set in phase drawn, and only then", "bad_phase")
    if g.drawn is not None and g.drawn not in g.hands[g.current]:
        raise BadPosition(
            f"the drawn card {g.drawn} is not in seat {g.current}'s hand", "bad_phase"
        )
    if phase is not OVER:
        if (phase is PENDING) != (g.pending > 0):
            raise BadPosition("cards are pending (pending > 0) in phase pending only", "bad_phase")
        if phase is not PENDING and (
            g.stack_w4 or g.stack_color is not None or g.w4_by is not None or not g.w4_legal
        ):
            raise BadPosition(
                "stackw4, stackcolor, w4by and w4legal=0 belong to phase pending", "bad_phase"
            )
        if (phase is COLOR) != (g.color is None):
            raise BadPosition("the colour is unset (-) in phase color only", "bad_phase")
        if phase is COLOR and g.discard[-1] != WILD_FACE:
            raise BadPosition("phase color needs a Wild on top of the discards", "bad_phase")
    if g.stack_color is not None and not g.stack_w4:
        raise BadPosition("stackcolor is set only with stackw4=1", "bad_phase")
