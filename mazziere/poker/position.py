"""Draw-poker positions as one line of text (docs/positions.md): :func:`format_position` writes
every field of a :class:`~mazziere.poker.state.State` (both hands, the deck in order, the money,
the pledges and the random source included) and :func:`parse_position` reads it back,
validated, so that ``parse_position(format_position(s), s.rules) == s`` and the game continues
identically (tests/poker/test_position.py). The rules are not in the text: they are the
``rules`` argument (a preset, maybe with options).

>>> from mazziere.poker import find_preset, legal_actions, new_game
>>> s = new_game(find_preset("classic"), rng=1)
>>> parse_position(format_position(s), s.rules) == s
True
>>> p = parse_position("poker hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s acts=1 turn=1 "
...                    "history=0:wait:0", find_preset("classic").with_options(max_bet=6))
>>> [str(a) for a in legal_actions(p, 1)]
['open 5', 'open 6', 'replace', 'fold']

Grammar: the word ``poker``, then ``key=value`` fields separated by single spaces, in the
order below (the parser takes any order, each key at most once). No value contains a space.
Cards are written ``Ah``, ``Td``, ``7c`` (rank 2-9, T, J, Q, K, A; suit c, d, h, s); a *card
list* is cards joined by commas, or ``-`` when empty; an *int pair* is two integers joined by
a comma, seat 0's first; ``-`` stands for "none" wherever a value may be missing.

=========  ============  ===============================================  ====================
key        field         value                                            default
=========  ============  ===============================================  ====================
deal       deal_no       the deal number, from 1 (0: the game ended        1
                         before its first deal)
first      first         the seat that acts first this deal               0
phase      phase         bet1, draw, bet2, over                           bet1
turn       current       the seat to act                                  the seat due
hands      hands         two card lists joined by ``/``                   required
deck       deck          card list, the next card dealt first; a last      ``*``
                         element ``*`` (parser only) stands for every
                         card not placed elsewhere, in the deck's order
discards   (derived)     card list: the cards the draw replaced, in the   -
                         deck's order (not a field of the state: the
                         parser checks them and does not keep them)
pot        pot           chips in the pot (carry-over of tied deals         2 * ante
                         included)
bankrolls  bankrolls     int pair                                         bankroll - ante each
committed  committed     int pair: chips put in this betting round        0,0
raises     raises        RAISEs this betting round                        0
acts       acts          actions this betting round                       0
drawn      drawn         int pair: cards each seat replaced (-1: not      -1,-1 (bet2: 0,0)
                         drawn yet)
items      items         one letter per item of the rules, in order: w    all w
                         (worn), p (pledged), f (forfeited); - if none
pledges    pledge_stack  int list: pledged or forfeited items, most       -
                         recent last
history    history       the deal's moves, ``seat:word:amount`` joined    -
                         by commas (``0:open:10,1:raise:5``)
result     result        - or ``winner:reason`` (the reason with ``_``    -
                         for a space, :func:`~mazziere.position_text.
                         escape_word`); required in phase over
commit     commitment    the current deal's commitment, 64 hex digits,    -
                         or - (none)
rng        rng           the game's random source (below)                 splitmix:0:0
=========  ============  ===============================================  ====================

"The seat due" is the first seat at the start of a betting round, the other after an odd
number of actions; in the draw, the first seat until it has drawn. A random source is written
as in UNO positions (``splitmix:SEED:STATE`` or ``shake:HEXSEED:BLOCK:POS``,
:func:`~mazziere.position_text.format_rng`): it is the game's source, which spawns each deal's;
the deal's own seed is gone once the cards are shuffled, so its commitment is written. Defaults
exist so that hand-written positions stay short; the formatter always writes every field.

Validation raises :class:`~mazziere.errors.BadPosition` with a code:

* ``bad_position``: syntax, an unknown, repeated or missing key, a bad number, an unknown item
  letter or history word, a result that is not ``winner:reason``;
* ``bad_card``: a card that cannot be read;
* ``cards_not_conserved``: the hands, the deck and the discards are not the rules' 52 or 32
  cards, each once (only in deal 0 are there no cards at all), or the discards are not as many
  as the cards ``drawn`` says were replaced;
* ``money_not_conserved``: bankrolls + pot + the worn items' value is not the game's money
  (``2 * bankroll + items * item_value``), or, in a deal going on, the chips committed this
  round exceed the pot;
* ``bad_count``: a hand of other than five cards, a pair or an item list of the wrong length,
  ``drawn`` outside -1..``max_replace``, more raises than ``max_raises`` or than actions;
* ``bad_seat``: a seat other than 0 or 1, or the seat to act not the seat due;
* ``bad_phase``: a result exactly in phase over, deal 0 only there; ``drawn`` against the
  phase (nobody has drawn in bet1, the second seat not before the first, both in bet2); a pot
  in phase over;
* ``bad_pledge``: ``pledges`` not exactly the pledged and forfeited items, each once; pledged
  items below a forfeited one in ``pledges``, or in a finished game, or worth more than the
  computer's bankroll and the pot together (the chips it got for them are in one or the
  other until the pot is settled);
* ``bad_bet``: in a betting round, the seat to act has put more in than the other, or owes
  more than it can pay (its bankroll, plus the computer's worn items); in the draw, the two
  seats' chips of round one differ;
* ``bad_rng``: a random source or commitment that cannot be read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from mazziere.errors import BadPosition
from mazziere.poker.cards import Card, deck, parse_card
from mazziere.poker.options import Rules
from mazziere.poker.state import COMPUTER, GameResult, ItemStatus, Move, Phase, State
from mazziere.position_text import (
    escape_word,
    format_rng,
    ints_text,
    parse_card_list,
    parse_int,
    parse_int_list,
    parse_rng,
    split_fields,
    unescape_word,
)

__all__ = ["KEYS", "WORDS", "diff_positions", "discards", "format_position", "parse_position"]

KEYS: tuple[str, ...] = (
    "deal",
    "first",
    "phase",
    "turn",
    "hands",
    "deck",
    "discards",
    "pot",
    "bankrolls",
    "committed",
    "raises",
    "acts",
    "drawn",
    "items",
    "pledges",
    "history",
    "result",
    "commit",
    "rng",
)
"""Every key of the grammar, in the order :func:`format_position` writes them."""

PREFIX = "poker"
WORDS: tuple[str, ...] = ("open", "wait", "raise", "replace", "fold", "see", "draw")
"""The words of a history move (:class:`~mazziere.poker.state.Move`)."""
_ITEM_LETTERS = {ItemStatus.WORN: "w", ItemStatus.PLEDGED: "p", ItemStatus.FORFEITED: "f"}
_LETTER_ITEMS = {v: k for k, v in _ITEM_LETTERS.items()}
_HEX = frozenset("0123456789abcdef")


# ---------------------------------------------------------------------- writing
def _cards(cards: tuple[Card, ...]) -> str:
    return ",".join(str(c) for c in cards) if cards else "-"


def discards(s: State) -> tuple[Card, ...]:
    """The cards the deal's draw replaced, in the deck's order: every card of the rules' deck
    that is neither in a hand nor in the deck (none in deal 0, which was never dealt)."""
    if s.deal_no == 0:
        return ()
    held = set(s.deck) | set(s.hands[0]) | set(s.hands[1])
    return tuple(c for c in deck(s.rules.deck) if c not in held)


def _result(r: GameResult | None) -> str:
    return "-" if r is None else f"{r.winner}:{escape_word(r.reason)}"


def format_position(s: State) -> str:
    """The one-line text of a game (module docstring), every field written."""
    fields = {
        "deal": str(s.deal_no),
        "first": str(s.first),
        "phase": s.phase.value,
        "turn": str(s.current),
        "hands": "/".join(_cards(h) for h in s.hands),
        "deck": _cards(s.deck),
        "discards": _cards(discards(s)),
        "pot": str(s.pot),
        "bankrolls": ints_text(s.bankrolls),
        "committed": ints_text(s.committed),
        "raises": str(s.raises),
        "acts": str(s.acts),
        "drawn": ints_text(s.drawn),
        "items": "".join(_ITEM_LETTERS[i] for i in s.items) or "-",
        "pledges": ints_text(s.pledge_stack),
        "history": ",".join(f"{m.seat}:{m.word}:{m.amount}" for m in s.history) or "-",
        "result": _result(s.result),
        "commit": s.commitment or "-",
        "rng": format_rng(s.rng),
    }
    return " ".join([PREFIX, *(f"{k}={fields[k]}" for k in KEYS)])


def diff_positions(a: State, b: State) -> list[str]:
    """The fields in which two games differ, as ``key: A != B`` from their texts (empty when
    the games are equal).

    >>> from mazziere.poker import find_preset
    >>> r = find_preset("classic")
    >>> a = parse_position("poker hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s", r)
    >>> diff_positions(a, parse_position("poker hands=Ah,Ad,7c,7d,2s/Kh,Kd,Qc,Jd,3s first=1", r))
    ['first: 0 != 1', 'turn: 0 != 1']
    """
    fa, fb = (dict(t.split("=", 1) for t in format_position(s).split()[1:]) for s in (a, b))
    return [f"{k}: {fa[k]} != {fb[k]}" for k in KEYS if fa[k] != fb[k]]


# ---------------------------------------------------------------------- reading
def _card_list(key: str, text: str) -> list[Card]:
    return parse_card_list(key, text, parse_card)


def _seat(key: str, text: str) -> int:
    s = parse_int(key, text, None)
    if s not in (0, 1):
        raise BadPosition(f"{key}: no seat {s} (seats are 0 and 1)", "bad_seat")
    return s


def _pair(key: str, text: str, low: int) -> tuple[int, int]:
    values = parse_int_list(key, text, low)
    if len(values) != 2:
        raise BadPosition(f"{key} has {len(values)} values for 2 seats", "bad_count")
    return values[0], values[1]


def _items(text: str, count: int) -> tuple[ItemStatus, ...]:
    letters = "" if text == "-" else text
    if any(ch not in _LETTER_ITEMS for ch in letters):
        raise BadPosition(f"items is one letter w, p or f per item, not {text!r}")
    if len(letters) != count:
        raise BadPosition(f"items has {len(letters)} letters for {count} items", "bad_count")
    return tuple(_LETTER_ITEMS[ch] for ch in letters)


def _history(text: str) -> tuple[Move, ...]:
    if text == "-":
        return ()
    out: list[Move] = []
    for part in text.split(","):
        bits = part.split(":")
        if len(bits) != 3 or bits[1] not in WORDS:
            raise BadPosition(
                f"a history move is seat:word:amount with a word of {', '.join(WORDS)}, "
                f"not {part!r}"
            )
        out.append(Move(_seat("history seat", bits[0]), bits[1], parse_int("history", bits[2])))
    return tuple(out)


def _parse_result(text: str) -> GameResult | None:
    if text == "-":
        return None
    winner, sep, reason = text.partition(":")
    if not sep or not reason:
        raise BadPosition(f"result is winner:reason, not {text!r}")
    return GameResult(_seat("result winner", winner), unescape_word(reason))


def _commitment(text: str) -> str:
    if text == "-":
        return ""
    if len(text) != 64 or not set(text) <= _HEX:
        raise BadPosition(f"commit is 64 lowercase hex digits or -, not {text!r}", "bad_rng")
    return text


def parse_position(text: str, rules: Rules) -> State:
    """The game a position text describes under ``rules`` (module docstring), validated;
    a mistake raises :class:`~mazziere.errors.BadPosition` naming it."""
    if not isinstance(rules, Rules):
        raise BadPosition("rules must be a mazziere.poker.Rules (see find_preset)")
    f = split_fields(text, PREFIX, KEYS)
    if "hands" not in f:
        raise BadPosition("a position needs at least hands=")

    def get(key: str, default: str | Callable[[], str]) -> str:
        v = f.get(key)
        if v is not None:
            return v
        return default if isinstance(default, str) else default()

    hand_texts = f["hands"].split("/")
    if len(hand_texts) != 2:
        raise BadPosition(f"hands lists {len(hand_texts)} seats for 2", "bad_count")
    h0, h1 = (tuple(_card_list("hands", h)) for h in hand_texts)
    try:
        phase = Phase(get("phase", "bet1"))
    except ValueError:
        raise BadPosition(
            f"phase is one of {', '.join(p.value for p in Phase)}, not {f['phase']!r}",
            "bad_phase",
        ) from None
    deal_no = parse_int("deal", get("deal", "1"))
    first = _seat("first", get("first", "0"))
    full = deck(rules.deck)
    deck_text = get("deck", "*")
    fill = deck_text.endswith("*")
    cards = _card_list("deck", (deck_text[:-1].rstrip(",") or "-") if fill else deck_text)
    gone = _card_list("discards", get("discards", "-"))
    if fill:
        placed = Counter(cards) + Counter(h0) + Counter(h1) + Counter(gone)
        cards += [c for c in full if c not in placed]
    drawn_default = "0,0" if phase is Phase.BET2 else "-1,-1"
    drawn = _pair("drawn", get("drawn", drawn_default), -1)
    acts = parse_int("acts", get("acts", "0"))
    ante = rules.ante
    start = f"{rules.bankroll - ante},{rules.bankroll - ante}"
    s = State(
        rules=rules,
        rng=parse_rng(get("rng", "splitmix:0:0")),
        commitment=_commitment(get("commit", "-")),
        deal_no=deal_no,
        first=first,
        phase=phase,
        current=_seat("turn", get("turn", lambda: str(_due(phase, first, acts, drawn)))),
        hands=(h0, h1),
        deck=tuple(cards),
        pot=parse_int("pot", get("pot", str(2 * ante))),
        bankrolls=_pair("bankrolls", get("bankrolls", start), 0),
        committed=_pair("committed", get("committed", "0,0"), 0),
        raises=parse_int("raises", get("raises", "0")),
        acts=acts,
        drawn=drawn,
        items=_items(get("items", "w" * len(rules.items)), len(rules.items)),
        pledge_stack=parse_int_list("pledges", get("pledges", "-")),
        history=_history(get("history", "-")),
        result=_parse_result(get("result", "-")),
    )
    _validate(s, gone)
    return s


def _due(phase: Phase, first: int, acts: int, drawn: tuple[int, int]) -> int:
    """The seat to act by the rules' turn order (see the module docstring)."""
    if phase is Phase.DRAW:
        return first if drawn[first] < 0 else 1 - first
    if phase is Phase.OVER:
        return first
    return first if acts % 2 == 0 else 1 - first


def _validate(s: State, gone: list[Card]) -> None:
    """The consistency checks of the module docstring (codes there)."""
    rules = s.rules
    # phase
    if (s.phase is Phase.OVER) != (s.result is not None):
        raise BadPosition("phase over goes with a result, and only it", "bad_phase")
    if s.deal_no == 0 and s.phase is not Phase.OVER:
        raise BadPosition("deal 0: the game ended before its first deal (phase over)", "bad_phase")
    # counts
    if any(d > rules.max_replace for d in s.drawn):
        raise BadPosition(f"drawn is -1 to max_replace ({rules.max_replace})", "bad_count")
    if s.raises > rules.max_raises or s.raises > s.acts:
        raise BadPosition(
            f"raises {s.raises}: at most max_raises ({rules.max_raises}) and the actions "
            f"({s.acts})",
            "bad_count",
        )
    # draws against the phase
    d_first, d_second = s.drawn[s.first], s.drawn[1 - s.first]
    if s.phase is Phase.BET1 and s.drawn != (-1, -1):
        raise BadPosition("nobody has drawn in bet1: drawn=-1,-1", "bad_phase")
    if s.phase is Phase.DRAW and d_second >= 0:
        raise BadPosition("the first seat draws first, then the other", "bad_phase")
    if s.phase is Phase.BET2 and (d_first < 0 or d_second < 0):
        raise BadPosition("both seats have drawn by bet2", "bad_phase")
    # pledges
    out = [i for i, st in enumerate(s.items) if st is not ItemStatus.WORN]
    if sorted(s.pledge_stack) != out:
        raise BadPosition(
            "pledges lists each pledged or forfeited item once, and only those", "bad_pledge"
        )
    _validate_pledged(s)
    # cards
    h0, h1 = s.hands
    if s.deal_no == 0:
        if h0 or h1 or s.deck or gone:
            raise BadPosition("deal 0 was never dealt: no cards at all", "cards_not_conserved")
    else:
        for seat, hand in enumerate(s.hands):
            if len(hand) != 5:
                raise BadPosition(f"seat {seat} holds {len(hand)} cards, not 5", "bad_count")
        full = Counter(deck(rules.deck))
        seen = Counter(s.deck) + Counter(h0) + Counter(h1) + Counter(gone)
        if seen != full:
            parts = []
            extra, missing = seen - full, full - seen
            if extra:
                parts.append("extra " + ",".join(str(c) for c in sorted(extra.elements())))
            if missing:
                parts.append("missing " + ",".join(str(c) for c in sorted(missing.elements())))
            raise BadPosition(
                f"the {rules.deck} cards are not all present once: " + "; ".join(parts),
                "cards_not_conserved",
            )
        replaced = sum(max(0, d) for d in s.drawn)
        if len(gone) != replaced:
            raise BadPosition(
                f"{len(gone)} cards discarded but drawn says {replaced} were replaced",
                "cards_not_conserved",
            )
    # money
    money = 2 * rules.bankroll + len(rules.items) * rules.item_value
    if s.money != money:
        raise BadPosition(
            f"bankrolls + pot + worn items come to {s.money} chips, not the game's {money}",
            "money_not_conserved",
        )
    if s.phase is not Phase.OVER and sum(s.committed) > s.pot:
        raise BadPosition(
            f"{sum(s.committed)} chips committed this round but {s.pot} in the pot",
            "money_not_conserved",
        )
    if s.phase is Phase.OVER and s.pot:
        raise BadPosition(
            f"a finished game has no pot, not {s.pot}: its last deal paid it out, or the side "
            "that could not pay the ante gave it up",
            "bad_phase",
        )
    _validate_bets(s)
    # the seat to act
    if s.phase is not Phase.OVER:
        due = _due(s.phase, s.first, s.acts, s.drawn)
        if s.current != due:
            raise BadPosition(f"seat {due} is to act, not seat {s.current}", "bad_seat")


def _validate_pledged(s: State) -> None:
    """The pledged items against the stack, the phase and the computer's money (``bad_pledge``):
    an item is pledged for the pot being played, its value paid into that pot or kept."""
    pledged = tuple(i for i in s.pledge_stack if s.items[i] is ItemStatus.PLEDGED)
    if not pledged:
        return
    if s.pledge_stack[-len(pledged) :] != pledged:
        raise BadPosition(
            "the pledged items are the last entries of pledges, above every forfeited one "
            "(a deal settles its pledges before the next can pledge)",
            "bad_pledge",
        )
    if s.phase is Phase.OVER:
        raise BadPosition(
            "a finished game has no item pledged: its last pot settled them", "bad_pledge"
        )
    value = len(pledged) * s.rules.item_value
    chips = s.bankrolls[COMPUTER]
    if chips + s.pot < value:
        raise BadPosition(
            f"{len(pledged)} items pledged for {value} chips, but the computer holds {chips} "
            f"and the pot {s.pot}: the chips an item was pledged for are still one or the other "
            "until the pot is settled",
            "bad_pledge",
        )


def _validate_bets(s: State) -> None:
    """The chips committed this round against the seat to act (``bad_bet``): it answers the
    other's bet, and can pay what it owes (no bet exceeds what the other side can cover)."""
    if s.phase is Phase.DRAW and s.committed[0] != s.committed[1]:
        raise BadPosition(
            f"committed {s.committed[0]},{s.committed[1]} in the draw: round one closed with "
            "a call, both put the same in it",
            "bad_bet",
        )
    if s.phase not in (Phase.BET1, Phase.BET2):
        return
    seat = s.current
    owed = s.committed[1 - seat] - s.committed[seat]
    if owed < 0:
        raise BadPosition(
            f"seat {seat} is to act but put more in this round than seat {1 - seat}: "
            "the seat to act answers the other's bet",
            "bad_bet",
        )
    cover = s.bankrolls[seat] + (s.worn_value if seat == COMPUTER else 0)
    if owed > cover:
        raise BadPosition(
            f"seat {seat} owes {owed} chips but can pay {cover}: no bet exceeds what the other "
            "side can cover",
            "bad_bet",
        )
