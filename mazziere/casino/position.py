"""UNO CASINO rounds as one line of text (docs/positions.md): :func:`format_position` writes
every field of a :class:`~mazziere.casino.round.CasinoRound` (the UNO hand's hidden cards and
every random source included) and :func:`parse_position` reads it back, validated, so that
``parse_position(format_position(r), r.rules) == r`` and the round continues identically
(tests/casino/test_position.py). The table's rules are not in the text: they are the
``rules`` argument (:class:`~mazziere.casino.rules.CasinoRules`, whose ``uno`` rules read the
UNO part).

>>> from mazziere.rng import SplitMixRng
>>> from mazziere.casino import legal_actions, new_round
>>> r, _ = new_round(CasinoRules(), 100, rng=SplitMixRng(1))
>>> parse_position(format_position(r)) == r
True
>>> p = parse_position("casino stake=100 mult=1 uno hands=R1,G2/B5 discard=R7")
>>> [str(a) for a in legal_actions(p)]
['R1']

Grammar: the word ``casino``, then the round's ``key=value`` fields separated by single
spaces, in the order below (the parser takes any order, each key at most once), then the word
``uno`` and the round's UNO hand written as a UNO position (:mod:`mazziere.uno.position`,
whose grammar it follows to the end of the line: seat 0 is the player, seat 1 the bank). No
value contains a space; ``-`` stands for "none".

==========  =======================  ============================================  ==========
key         field                    value                                         default
==========  =======================  ============================================  ==========
stake       stake                    cents, within the table's limits              min_stake
mult        multiplier               1 .. 3 (``MAX_MULTIPLIER``)                   start
turns       turns                    actions applied in the round (both sides)     0
run         run                      cards the player laid since the bank moved    0
lowest      lowest                   the lowest multiplier reached, 1 .. mult      mult
banklast    memory.last_card         the bank's last card played, or -             -
bankwild    memory.played_wild       0/1: its previous turn played a plain Wild    0
bankcolor   memory.chosen_color      R, Y, G, B: the colour it chose then, or -    -
bankdrew    memory.drew_without...   0/1: its previous turn drew and passed        0
bankpassed  memory.passed_color      the colour in force when it passed, or -      -
strategy    strategy_rng             a random source (the strategies' ties)        splitmix:0:0
result      result                   - or winner:multiplier:stake:payout:reason:   -
                                     turns (winner ``player``, ``bank`` or
                                     ``none``: a refund when the pile ran out, the
                                     reason a word such as ``player_out``)
==========  =======================  ============================================  ==========

Random sources are written as in UNO positions (``splitmix:SEED:STATE`` or
``shake:HEXSEED:BLOCK:POS``, :func:`mazziere.position_text.format_rng`). Defaults exist so that
hand-written positions stay short; the formatter always writes every field.

Validation raises :class:`~mazziere.errors.BadPosition` with the UNO part's codes (its own
checks, the 108 cards each once) and these:

* ``bad_position``: syntax, no ``uno`` part, an unknown or repeated key, a bad number, a result
  that is not six fields or names an unknown winner;
* ``bad_card``: ``banklast`` is not a card;
* ``bad_stake``: a stake outside the table's limits, a result whose stake or payout is not the
  round's (``stake * multiplier`` to a winning player, 0 when the bank wins);
* ``bad_multiplier``: ``mult`` outside 1..3, or a result's multiplier that is not ``mult``;
* ``bad_count``: a UNO part with a seat count other than two, a result's turns not ``turns``;
* ``bad_seat``: a round going on with the bank to act (the bank plays inside the player's
  action);
* ``bad_phase``: a round going on whose UNO hand is over, or where the player can neither play
  nor draw (at x1, or with the pile out, the round has ended); a result whose winner did not
  win the UNO hand, or that ends a hand going on although the side to act could play or draw;
* ``bad_memory``: memory fields no bank turn leaves (a plain Wild remembered with another last
  card or with a draw, a chosen colour without a Wild or +4 last, a passed colour other than
  exactly when the bank drew);
* ``bad_rng``: a random source that cannot be read.
"""

from __future__ import annotations

from mazziere.cards.uno import WILD_FACE, Card, Color, parse_card
from mazziere.casino.round import (
    BANK,
    PLAYER,
    CasinoRound,
    RoundResult,
    may_draw,
    pile_out_end,
)
from mazziere.casino.rules import MAX_MULTIPLIER, CasinoRules, StakeError, validate_stake
from mazziere.casino.strategy import BankMemory
from mazziere.errors import BadPosition, MalformedAction
from mazziere.position_text import (
    format_rng,
    parse_bool,
    parse_int,
    parse_rng,
    split_tokens,
)
from mazziere.uno.actions import Play
from mazziere.uno.position import format_position as format_uno
from mazziere.uno.position import parse_position as parse_uno
from mazziere.uno.state import OVER

__all__ = ["KEYS", "WINNERS", "diff_positions", "format_position", "parse_position"]

KEYS: tuple[str, ...] = (
    "stake",
    "mult",
    "turns",
    "run",
    "lowest",
    "banklast",
    "bankwild",
    "bankcolor",
    "bankdrew",
    "bankpassed",
    "strategy",
    "result",
)
"""Every key of the round's part of the grammar, in the order :func:`format_position` writes
them (the UNO part follows, with :data:`mazziere.uno.position.KEYS`)."""

PREFIX = "casino"
UNO_WORD = "uno"
WINNERS: tuple[str, ...] = ("player", "bank", "none")
"""The values of a result's winner, seat 0's side first (``none``: the stake returned when
the pile runs out, under the ``pile_out`` readings that say so)."""


# ---------------------------------------------------------------------- writing
def _opt(value: object) -> str:
    return "-" if value is None else str(value)


def _result(r: RoundResult | None) -> str:
    if r is None:
        return "-"
    return f"{r.winner}:{r.multiplier}:{r.stake}:{r.payout}:{r.reason}:{r.turns}"


def _color_text(c: Color | None) -> str:
    return "-" if c is None else c.letter


def format_position(r: CasinoRound) -> str:
    """The one-line text of a round (module docstring), every field written."""
    m = r.memory
    fields = {
        "stake": str(r.stake),
        "mult": str(r.multiplier),
        "turns": str(r.turns),
        "run": str(r.run),
        "lowest": str(r.lowest),
        "banklast": _opt(m.last_card),
        "bankwild": str(int(m.played_wild)),
        "bankcolor": _color_text(m.chosen_color),
        "bankdrew": str(int(m.drew_without_playing)),
        "bankpassed": _color_text(m.passed_color),
        "strategy": format_rng(r.strategy_rng),
        "result": _result(r.result),
    }
    return " ".join([PREFIX, *(f"{k}={fields[k]}" for k in KEYS), format_uno(r.uno)])


def diff_positions(a: CasinoRound, b: CasinoRound) -> list[str]:
    """The fields in which two rounds differ, as ``key: A != B`` from their texts (UNO keys
    prefixed ``uno.``; empty when the rounds are equal).

    >>> a = parse_position("casino uno hands=R1/G5 discard=R7")
    >>> diff_positions(a, parse_position("casino mult=2 uno hands=R1/G5 discard=R7 clock=3"))
    ['mult: 3 != 2', 'lowest: 3 != 2', 'uno.clock: 0 != 3']
    """

    def fields(r: CasinoRound) -> dict[str, str]:
        head, _, uno = format_position(r).partition(f" {UNO_WORD} ")
        out = dict(t.split("=", 1) for t in head.split()[1:])
        out.update((f"uno.{k}", v) for k, v in (t.split("=", 1) for t in uno.split()))
        return out

    fa, fb = fields(a), fields(b)
    return [f"{k}: {fa[k]} != {fb[k]}" for k in fa if fa[k] != fb[k]]


# ---------------------------------------------------------------------- reading
def _card(key: str, text: str) -> Card | None:
    if text == "-":
        return None
    try:
        return parse_card(text)
    except MalformedAction as e:
        raise BadPosition(f"{key}: {e.message}", "bad_card") from None


def _color(key: str, text: str) -> Color | None:
    if text == "-":
        return None
    if len(text) != 1 or text not in "RYGB":
        raise BadPosition(f"{key} is R, Y, G, B or -, not {text!r}")
    return Color.parse(text)


def _parse_result(text: str) -> RoundResult | None:
    if text == "-":
        return None
    parts = text.split(":")
    if len(parts) != 6 or not parts[4]:
        raise BadPosition(f"result is winner:multiplier:stake:payout:reason:turns, not {text!r}")
    winner = parts[0]
    if winner not in WINNERS:
        raise BadPosition(f"result winner is player or bank, not {winner!r}")
    return RoundResult(
        winner=winner,
        multiplier=parse_int("result multiplier", parts[1]),
        stake=parse_int("result stake", parts[2]),
        payout=parse_int("result payout", parts[3]),
        reason=parts[4],
        turns=parse_int("result turns", parts[5]),
    )


def parse_position(text: str, rules: CasinoRules | None = None) -> CasinoRound:
    """The round a position text describes at a table with ``rules`` (default: a
    ``CasinoRules()`` table; module docstring), validated; a mistake raises
    :class:`~mazziere.errors.BadPosition` naming it."""
    if rules is None:
        rules = CasinoRules()
    if not isinstance(rules, CasinoRules):
        raise BadPosition("rules must be a mazziere.casino.CasinoRules")
    if not isinstance(text, str):
        raise BadPosition("a position is a string")
    tokens = text.split()
    if not tokens or tokens[0] != PREFIX:
        raise BadPosition(f"a UNO CASINO position starts with {PREFIX!r}")
    if UNO_WORD not in tokens:
        raise BadPosition(f"a UNO CASINO position ends with its UNO hand: {UNO_WORD!r} hands=...")
    cut = tokens.index(UNO_WORD)
    f = split_tokens(tokens[1:cut], KEYS)
    uno = parse_uno(" ".join(tokens[cut:]), rules.uno)
    if uno.players != 2:
        raise BadPosition(
            f"a UNO CASINO hand has two seats (player, bank), not {uno.players}", "bad_count"
        )
    stake = parse_int("stake", f.get("stake", str(rules.min_stake)))
    try:
        validate_stake(stake, rules)
    except StakeError as e:
        raise BadPosition(f"stake: {e.message}", "bad_stake") from None
    multiplier = parse_int("mult", f.get("mult", str(rules.start_multiplier)), None)
    if not 1 <= multiplier <= MAX_MULTIPLIER:
        raise BadPosition(f"mult is 1 to {MAX_MULTIPLIER}, not {multiplier}", "bad_multiplier")
    memory = BankMemory(
        last_card=_card("banklast", f.get("banklast", "-")),
        played_wild=parse_bool("bankwild", f.get("bankwild", "0")),
        chosen_color=_color("bankcolor", f.get("bankcolor", "-")),
        drew_without_playing=parse_bool("bankdrew", f.get("bankdrew", "0")),
        passed_color=_color("bankpassed", f.get("bankpassed", "-")),
    )
    r = CasinoRound(
        rules=rules,
        uno=uno,
        stake=stake,
        multiplier=multiplier,
        strategy_rng=parse_rng(f.get("strategy", "splitmix:0:0")),
        memory=memory,
        turns=parse_int("turns", f.get("turns", "0")),
        result=_parse_result(f.get("result", "-")),
        run=parse_int("run", f.get("run", "0")),
        lowest=parse_int("lowest", f.get("lowest", str(multiplier))),
    )
    _validate(r)
    return r


def _expected_end(r: CasinoRound) -> tuple[str, int]:
    """The winner and payout of a finished round, from its hand: the side out of cards, or
    the pile out (the table's ``pile_out`` reading), or the player stuck at x1 (the bank)."""
    uno = r.uno
    if uno.phase is OVER:
        assert uno.result is not None
        if uno.result.winner == PLAYER:
            return "player", r.stake * r.multiplier
        return "bank", 0
    if uno.draw_pile:
        return "bank", 0
    return pile_out_end(r)


def _validate(r: CasinoRound) -> None:
    """The round's consistency checks of the module docstring (the UNO part's are done)."""
    m = r.memory
    if not 1 <= r.lowest <= r.multiplier:
        raise BadPosition(
            f"lowest {r.lowest}: the lowest multiplier reached is 1 to mult", "bad_multiplier"
        )
    if r.run < 0 or r.run > r.turns:
        raise BadPosition(
            f"run {r.run}: the cards the player laid since the bank moved are 0 to turns",
            "bad_count",
        )
    if m.played_wild and (m.last_card != WILD_FACE or m.drew_without_playing):
        raise BadPosition(
            "bankwild=1: the bank's previous turn played a Wild, its last card", "bad_memory"
        )
    if m.chosen_color is not None and (
        m.last_card is None or m.last_card < WILD_FACE or m.drew_without_playing
    ):
        raise BadPosition(
            "bankcolor: a colour is chosen by a Wild or +4 played in the bank's previous turn",
            "bad_memory",
        )
    if m.drew_without_playing != (m.passed_color is not None):
        raise BadPosition(
            "bankpassed is the colour in force when the bank drew and passed (bankdrew=1), "
            "and only then",
            "bad_memory",
        )
    res, uno = r.result, r.uno
    seat = uno.current
    plays = uno.phase is not OVER and any(isinstance(a, Play) for a in uno.legal_actions(seat))
    stuck = not plays and (not uno.draw_pile or (seat == PLAYER and not may_draw(r)))
    if res is None:
        if uno.phase is OVER:
            raise BadPosition("the UNO hand is over but the round has no result", "bad_phase")
        if seat != PLAYER:
            raise BadPosition(
                f"seat {BANK} (the bank) cannot be to act in a round going on: it plays "
                "inside the player's action",
                "bad_seat",
            )
        if stuck:
            raise BadPosition(
                "the player has no card to play and may not draw (x1, or the pile is out): "
                "the round is over, the bank wins (give its result)",
                "bad_phase",
            )
        return
    if uno.phase is OVER:
        assert uno.result is not None
        if (res.winner == "player") != (uno.result.winner == PLAYER):
            raise BadPosition(
                f"result: the {res.winner} lost the UNO hand (side {uno.result.winner} won)",
                "bad_phase",
            )
    elif not stuck:
        raise BadPosition(
            "a round ends before its UNO hand only when the side to act can neither play nor "
            "draw (the pile out, or the player at x1)",
            "bad_phase",
        )
    if res.stake != r.stake:
        raise BadPosition(f"result stake {res.stake} is not the stake {r.stake}", "bad_stake")
    if res.multiplier != r.multiplier:
        raise BadPosition(
            f"result multiplier {res.multiplier} is not mult {r.multiplier}", "bad_multiplier"
        )
    winner, payout = _expected_end(r)
    if res.winner != winner:
        raise BadPosition(f"result: the {winner} won, not the {res.winner}", "bad_phase")
    if res.payout != payout:
        raise BadPosition(
            f"result payout {res.payout}: the {res.winner} winning is paid {payout}", "bad_stake"
        )
    if res.turns != r.turns:
        raise BadPosition(f"result turns {res.turns} is not turns {r.turns}", "bad_count")
