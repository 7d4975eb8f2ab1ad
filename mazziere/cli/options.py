"""Reading ``--option name=value`` for a rules dataclass, and turning typed errors into one
line on stderr with exit code 2 (the command-line conventions shared by every game).

>>> parse_option_value("stacking", "draw2"), parse_option_value("jump_in", "true")
('draw2', True)
>>> uno_rules("house", ["target=200", "turn_time_limit=none"]).target
200
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args, get_origin

import typer

from mazziere.errors import MalformedAction, MazziereError, OptionError
from mazziere.uno import Rules, find_preset

if TYPE_CHECKING:
    from mazziere.sim.ray_backend import RayCluster

RayOpt = Annotated[
    bool,
    typer.Option(
        "--ray",
        help="Spread the chunks over a Ray cluster: a local one unless --address "
        "(pip install 'mazziere[ray]'); the same results as the local processes.",
    ),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(
        "--address",
        metavar="auto|HOST:PORT",
        help="The Ray cluster to join (implies --ray): auto (one started on this machine "
        "with `ray start --head`) or the head's HOST:PORT (port 6379 by default).",
    ),
]

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
_NONE = ("none", "null")

USAGE_EXIT = 2
"""Exit code for a bad command line (unknown preset, bot or option, bad value), as click."""
FAILURE_EXIT = 1
"""Exit code for anything else that went wrong."""


@functools.cache
def _rules_types() -> dict[str, Any]:
    return typing.get_type_hints(Rules)


def parse_option_value(name: str, text: str, types_of: dict[str, Any] | None = None) -> Any:
    """The value of ``text`` for the option ``name``, read by the option's declared type
    (bool true/false, int, float, None, strings; ``zero_groups`` as ``0,2/1,3``). An unknown
    name keeps the text: ``Rules.with_options`` then names the mistake."""
    hints = _rules_types() if types_of is None else types_of
    if name not in hints:
        return text
    return _coerce(name, text.strip(), hints[name])


def _coerce(name: str, text: str, tp: Any) -> Any:
    low = text.lower()
    args = get_args(tp)
    if get_origin(tp) in (types.UnionType, typing.Union):
        if type(None) in args and low in _NONE:
            return None
        errors: list[str] = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(name, text, arg)
            except OptionError as e:
                errors.append(e.message)
        raise OptionError(errors[0] if errors else f"bad value for {name}", "bad_option_value")
    if tp is bool:
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise OptionError(f"option {name} takes true or false, not {text!r}", "bad_option_value")
    if tp is int:
        try:
            return int(text)
        except ValueError:
            raise OptionError(
                f"option {name} takes a whole number, not {text!r}", "bad_option_value"
            ) from None
    if tp is float:
        try:
            return float(text)
        except ValueError:
            raise OptionError(
                f"option {name} takes a number, not {text!r}", "bad_option_value"
            ) from None
    if get_origin(tp) is Literal or tp is str:
        return text
    if get_origin(tp) is tuple:  # zero_groups: groups of seats, "0,2/1,3"
        try:
            return tuple(
                tuple(int(s) for s in g.replace(",", " ").split()) for g in text.split("/") if g
            )
        except ValueError:
            raise OptionError(
                f"option {name} takes seat groups like '0,2/1,3', not {text!r}",
                "bad_option_value",
            ) from None
    return text


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    """``["name=value", ...]`` -> ``{name: value}`` read by each option's type."""
    out: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise OptionError(
                f"--option takes name=value (e.g. stacking=draw2), not {item!r}", "bad_option"
            )
        out[name] = parse_option_value(name, value)
    return out


def uno_rules(preset: str, options: Sequence[str]) -> Rules:
    """The named preset with ``--option`` values applied (typed errors on any mistake)."""
    rules = find_preset(preset)
    changes = parse_options(options)
    return rules.with_options(**changes) if changes else rules


def players_for(rules: Rules, players: int | None) -> int:
    """The seat count: as given (checked against the rules), or 4 kept inside their range."""
    if players is None:
        players = min(max(4, rules.min_players), rules.max_players)
    rules.check_players(players)
    return players


def fail(message: str, code: int = USAGE_EXIT) -> typer.Exit:
    """Print ``error: message`` on stderr; the caller raises the returned ``typer.Exit``."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


@contextmanager
def cli_errors() -> Iterator[None]:
    """Typed errors become one line on stderr: exit 2 for a bad command line, else 1."""
    try:
        yield
    except (OptionError, MalformedAction) as e:
        raise fail(e.message, USAGE_EXIT) from None
    except MazziereError as e:
        raise fail(e.message, FAILURE_EXIT) from None


def split_names(text: str) -> list[str]:
    """``"greedy, random"`` -> ``["greedy", "random"]``."""
    return [p.strip() for p in text.split(",") if p.strip()]


def ray_cluster(
    use_ray: bool, address: str | None, workers: int
) -> AbstractContextManager[RayCluster | None]:
    """``--ray`` / ``--address``: a Ray cluster to open around the run (a local one of
    ``workers`` CPUs without an address), or nothing. A malformed address is refused here,
    a missing Ray or an unreachable cluster when it is opened (typed errors: exit 2)."""
    if not use_ray and address is None:
        return nullcontext(None)
    from mazziere.sim.ray_backend import RayCluster

    return RayCluster(address, num_cpus=workers if address is None else None)
