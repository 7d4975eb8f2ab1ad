"""Every rule option of uno.md as one frozen value, with its documented default.

Rule variants are data: a :class:`Rules` value holds one choice per option, presets
(:mod:`mazziere.uno.presets`) are named ``Rules`` values, and ``Rules.with_options(**kw)``
derives a variant. Unknown option names, bad values and impossible combinations raise
:class:`~mazziere.errors.OptionError` at construction, never later in a game.

>>> Rules().with_options(stacking="draw2").stacking
'draw2'
>>> from mazziere.errors import UnknownOption
>>> try:
...     Rules().with_options(stackin="draw2")
... except UnknownOption as e:
...     print(e.code, e.message)
unknown_option unknown UNO option 'stackin' (did you mean 'stacking'?)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args

from mazziere.errors import OptionError, unknown_name
from mazziere.fields import check_limits, option

DealerSelection = Literal["highest", "lowest", "random"]
FirstCard = Literal["apply", "redraw_non_number"]
ReturnedFirstCard = Literal["random_depth", "bottom"]
DrawnCard = Literal["may_play", "must_play"]
TwoPlayerReverse = Literal["skip", "normal", "removed"]
Wild4Rule = Literal["color", "any_playable", "none"]
ChallengeBy = Literal["victim", "any"]
UnoCall = Literal["auto", "catch", "off"]
Stacking = Literal["none", "draw2", "draw2_draw4", "all"]
Scoring = Literal["winner", "penalty"]
Match = Literal["single_hand", "target_points", "fixed_hands"]

MIN_SEATS = 2
MAX_SEATS = 10


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete choice of UNO rules. Each option's doc names the rule sets it comes from
    (classic, online, house rules, the casino: uno.md "Presets")."""

    # --- table -----------------------------------------------------------------------------
    min_players: int = option(2, "Fewest seats allowed (2-10; online rules: 2-4).")
    max_players: int = option(10, "Most seats allowed.")
    hand_size: int = option(
        7,
        "Cards dealt to each player (7 in every rule set; the casino deals 5 and 4).",
        ge=1,
        le=20,
    )
    hand_sizes: tuple[int, ...] = option(
        (),
        "Cards dealt per seat, overriding ``hand_size`` (casino: 4 to the player, 5 to the bank).",
        ge=1,
        le=20,
    )
    dealer_selection: DealerSelection = option(
        "highest",
        "Classic: the highest number deals (action cards redrawn); house rules: the lowest; "
        "online: at random.",
    )
    first_dealer: int | None = option(
        None,
        "The seat that deals the first hand, skipping ``dealer_selection`` (casino: the bank).",
    )
    first_card: FirstCard = option(
        "apply",
        "How the first turned card acts: ``apply`` its effect, or ``redraw_non_number`` (casino).",
    )
    returned_first_card: ReturnedFirstCard = option(
        "random_depth",
        "Where ``redraw_non_number`` puts a turned card back: at a random depth of the draw "
        "pile (casino: 'rimessa nel mazzo'), or at the ``bottom``.",
    )

    # --- a turn ----------------------------------------------------------------------------
    voluntary_draw: bool = option(
        True,
        "A player may draw instead of playing even holding a playable card (house rules, "
        "classic, online).",
    )
    drawn_card: DrawnCard = option(
        "may_play",
        "After drawing, only the drawn card may be played: by choice, or it must be if playable.",
    )
    two_player_reverse: TwoPlayerReverse = option(
        "skip",
        "With two players Reverse acts as Skip, as a plain reverse, or is removed (house rules).",
    )
    draw2_skips: bool = option(
        True,
        "The +2's victim also loses the turn (house rules make it an option).",
    )
    reverse_skip_same: bool = option(
        False,
        "Skip and Reverse count as one symbol for matching (house rules).",
    )

    reshuffle: bool = option(
        True,
        "An empty draw pile is rebuilt from the discards but the top card; the casino does not: "
        "with the pile out, the side that cannot play ends the round.",
    )

    # --- Wild Draw Four and the challenge --------------------------------------------------
    wild4_rule: Wild4Rule = option(
        "color",
        "+4 legal only with no other card of the current colour (casino, online, Mattel); "
        "classic: no other playable card; ``none``: always legal.",
    )
    wild4_bluff: bool = option(
        True,
        "An illegal +4 may be played (and challenged) rather than refused (house, classic).",
    )
    challenge: bool = option(
        True,
        "The +4 may be challenged; the server checks the hand without showing it (classic, "
        "online).",
    )
    challenge_by: ChallengeBy = option(
        "victim",
        "Who may challenge: the victim only (house rules, Mattel), or any other player.",
    )
    challenge_guilty_draw: int = option(
        4,
        "Cards the challenged player draws when guilty (classic, online: 4).",
        ge=0,
        le=10,
    )
    challenge_innocent_extra: int = option(
        2,
        "Extra cards the challenger draws when the +4 was legal (4 + 2 = 6).",
        ge=0,
        le=10,
    )

    # --- UNO call ----------------------------------------------------------------------------
    uno_call: UnoCall = option(
        "catch",
        "``auto`` (online: penalty unless called), ``catch`` (house, classic: only if caught), "
        "``off``.",
    )
    uno_penalty: int = option(2, "Cards drawn for a missed UNO call.", ge=0, le=10)

    # --- house rules and Mattel's house rules -----------------------------------------------
    stacking: Stacking = option(
        "none",
        "+2 on +2 (``draw2``); also +4 on +2 (``draw2_draw4``); also +4 on +4 (``all``).",
    )
    stack_wild4_rule_applies: bool = option(
        False,
        "A stacked +4 must obey ``wild4_rule``, judged on the colour before the first +4.",
    )
    multi_play: bool = option(
        False,
        "Several number cards of one number in one turn; the first must match (house rules).",
    )
    burn: bool = option(
        False,
        '"Bruciata": two identical number cards matching the discard, next player skipped '
        "(house rules).",
    )
    zero_gives_four: bool = option(
        False,
        "Playing a 0 lets the player make one chosen player draw 4 (house rules).",
    )
    zero_groups: tuple[tuple[int, ...], ...] = option(
        (),
        "Table-declared groups (seat numbers) for ``zero_gives_four``; empty: anyone may be "
        "chosen.",
    )
    seven_swap: bool = option(False, "7: swap hands with a chosen player (Mattel house rule).")
    zero_rotate: bool = option(
        False,
        "0: every hand passes to the next player in the direction of play (Mattel house rule).",
    )
    jump_in: bool = option(
        False,
        "A card identical to the discard may be played out of turn (Mattel house rule).",
    )
    go_out_on_action: bool = option(
        True,
        "False forbids ending the hand on an action or wild card (house rules allow it).",
    )

    # --- scoring and matches ---------------------------------------------------------------
    scoring: Scoring = option(
        "winner",
        "The one who goes out scores the others' cards, or each scores their own (``penalty``).",
    )
    match: Match = option(
        "target_points",
        "``single_hand``, ``target_points`` (first to ``target``) or ``fixed_hands``.",
    )
    target: int = option(500, "Points that end a ``target_points`` match (classic: 500).", ge=1)
    target_must_lead: bool = option(
        False,
        "Online: the winner must also have strictly more points than every other side.",
    )
    fixed_hands: int = option(3, "Hands in a ``fixed_hands`` match.", ge=1)
    elimination: bool = option(
        False,
        "With penalty scoring a player reaching the target leaves; the last one left wins.",
    )
    teams: bool = option(
        False,
        "2 vs 2, partners opposite (seats 0+2 and 1+3); a side scores the opponents' cards.",
    )
    victory_points: bool = option(
        False,
        "Four-player tables: 12/6/2/0 by final rank (teams: 10/6/4/0) (online); tables of other "
        "sizes play without them.",
    )

    # --- online operator -------------------------------------------------------------------
    turn_time_limit: float | None = option(
        None,
        "Seconds per decision; the server sends ``timeout`` when it expires (online).",
        gt=0,
    )
    autoplay: bool = option(
        False,
        "On ``timeout`` the lowest-value playable number card is played, else draw and pass.",
    )
    abandonment: bool = option(
        False,
        "Two-player tables: leaving or timing out ends the match, leaver -1, opponent +1 (online).",
    )
    hand_time_limit: float | None = option(
        None,
        "Seconds per hand, after which the server ends the hand with no winner (online ties).",
        gt=0,
    )

    def __post_init__(self) -> None:
        for f in fields(self):
            allowed = get_args(f.type) if isinstance(f.type, type) else _literal_values(f.type)
            value = getattr(self, f.name)
            if allowed and value not in allowed:
                raise OptionError(
                    f"option {f.name}={value!r} is not one of {', '.join(map(repr, allowed))}",
                    "bad_option_value",
                )
        self._check_numbers()
        self._check_combinations()

    def _check_numbers(self) -> None:
        if not MIN_SEATS <= self.min_players <= self.max_players <= MAX_SEATS:
            raise OptionError(
                f"players must satisfy 2 <= min_players <= max_players <= 10, got "
                f"{self.min_players}..{self.max_players}",
                "bad_player_count",
            )
        check_limits(self)  # the bounds written on each option (hand sizes, penalties...)

    def _check_combinations(self) -> None:
        bad: list[str] = []
        if self.elimination and self.scoring != "penalty":
            bad.append("elimination needs scoring='penalty'")
        if self.elimination and self.match != "target_points":
            bad.append("elimination needs match='target_points'")
        if self.elimination and self.teams:
            bad.append("elimination cannot be played in teams")
        if self.teams and not (self.min_players <= 4 <= self.max_players):
            bad.append("teams are 2 vs 2: the table must allow exactly four players")
        if self.zero_gives_four and self.zero_rotate:
            bad.append("zero_gives_four and zero_rotate both give the 0 an effect; pick one")
        if self.zero_groups and not self.zero_gives_four:
            bad.append("zero_groups only makes sense with zero_gives_four")
        for group in self.zero_groups:
            if len(group) < 2 or any(not 0 <= s < MAX_SEATS for s in group):
                bad.append("each zero group lists at least two seat numbers 0-9")
                break
        if self.autoplay and self.turn_time_limit is None:
            bad.append("autoplay needs a turn_time_limit")
        if self.challenge_by == "any" and not self.challenge:
            bad.append("challenge_by='any' needs challenge=True")
        if self.stack_wild4_rule_applies and self.stacking not in ("draw2_draw4", "all"):
            bad.append("stack_wild4_rule_applies needs stacking that lets a +4 be stacked")
        if bad:
            raise OptionError("impossible rule combination: " + "; ".join(bad), "bad_combination")

    # ------------------------------------------------------------------------------------------
    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed; unknown names raise :class:`UnknownOption`."""
        names = self.option_names()
        for key in changes:
            if key not in names:
                raise unknown_name("UNO option", key, names)
        if "hand_sizes" in changes:
            changes["hand_sizes"] = tuple(int(h) for h in changes["hand_sizes"])
        if "zero_groups" in changes:
            changes["zero_groups"] = tuple(tuple(int(s) for s in g) for g in changes["zero_groups"])
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def check_players(self, players: int) -> None:
        """Refuse a seat count these rules cannot seat (e.g. 11 players, teams of 3)."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionError("the number of players must be an integer", "bad_player_count")
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"these rules seat {self.min_players}-{self.max_players} players, not {players}",
                "bad_player_count",
            )
        if self.teams and players != 4:
            raise OptionError(
                f"teams are 2 vs 2 (partners opposite): exactly 4 players, not {players}",
                "bad_player_count",
            )
        sizes = self.hand_sizes or (self.hand_size,) * players
        deck = 100 if players == 2 and self.two_player_reverse == "removed" else 108
        # what must stay in the pile so a first card can always be turned: with
        # redraw_non_number a number card (more than every non-number card left), else a card
        # other than the four +4s
        non_numbers = deck - 76 if self.first_card == "redraw_non_number" else 4
        if sum(sizes) > deck - non_numbers - 1:
            raise OptionError(
                f"dealing {sum(sizes)} cards leaves too few in the {deck}-card deck to turn a "
                f"first card: deal at most {deck - non_numbers - 1}",
                "deal_too_large",
            )
        if self.hand_sizes and len(self.hand_sizes) != players:
            raise OptionError(
                f"hand_sizes lists {len(self.hand_sizes)} seats for {players} players",
                "bad_player_count",
            )
        if self.first_dealer is not None and not 0 <= self.first_dealer < players:
            raise OptionError(f"first_dealer {self.first_dealer} is not a seat", "bad_player_count")
        for group in self.zero_groups:
            if any(s >= players for s in group):
                raise OptionError(
                    f"zero group {group} names a seat beyond {players - 1}", "bad_player_count"
                )


def _literal_values(tp: object) -> tuple[object, ...]:
    """The allowed values of a ``Literal`` field (annotations are strings here)."""
    if isinstance(tp, str):
        alias = globals().get(tp)
        return get_args(alias) if alias is not None else ()
    return get_args(tp)
