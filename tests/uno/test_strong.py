"""The UNO ``strong`` bot: determinized search with greedy rollouts. It decides from its
own view only (the hidden cards swapped, the decision stays), it rebuilds a consistent game
under every preset and table size, answers legally, and stays within its time budget."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from mazziere.catalog import game_settings
from mazziere.uno import apply, find_preset, new_game, view
from mazziere.uno.bots import BOTS, find_bot, reading, strong, worlds
from mazziere.uno.bots.strong import StrongBot
from mazziere.uno.bots.worlds import determinize
from mazziere.uno.game import Game
from mazziere.uno.presets import PRESETS


def _tables() -> list[tuple[str, int]]:
    out = []
    for name, rules in PRESETS.items():
        for n in (2, 3, 4, 7, 10):
            try:
                rules.check_players(n)
            except Exception:
                continue
            out.append((name, n))
    return out


def _swap_hidden(g: Game, seat: int, rng: random.Random) -> Game:
    """The same game for ``seat``: every card it cannot see dealt again at random."""
    h = g.copy()
    others = [s for s in range(g.players) if s != seat]
    hidden = [c for s in others for c in g.hands[s]] + list(g.draw_pile)
    rng.shuffle(hidden)
    at = 0
    hands = list(h.hands)
    for s in others:
        n = len(g.hands[s])
        hands[s] = tuple(hidden[at : at + n])
        at += n
    h.hands = hands
    h.draw_pile = hidden[at:]
    h._legal, h._legal_seat = (), -1
    return h


def test_strong_is_registered_in_the_simulator_terminal_and_lobby() -> None:
    assert "strong" in BOTS and find_bot("strong").name == "strong"
    bots = next(s for s in game_settings("uno") if s["name"] == "bots")
    assert "strong" in bots["choices"]  # the lobby offers it


def test_strong_decides_from_its_own_view_only() -> None:
    rules = find_preset("mattel")
    bot, greedy = StrongBot(rollouts=12), find_bot("greedy")
    rng = random.Random(4)
    checked = 0
    for game in range(6):
        s = new_game(rules, 3, rng=game)
        while not s.is_over and s.hand_no == 0 and checked < 40:
            v = view(s, s.current)
            if s.current == 0 and len(v.legal) > 1:
                swapped = _swap_hidden(s, 0, rng)
                assert swapped.hands[1:] != s.hands[1:] or swapped.draw_pile != s.draw_pile
                assert view(swapped, 0) == v  # nothing of what changed is in the view
                a = bot.act(v, random.Random(checked))
                assert a == bot.act(view(swapped, 0), random.Random(checked))
                checked += 1
            else:
                a = greedy.act(v, rng)
            assert a in v.legal
            s, _ = apply(s, s.current, a)
    assert checked >= 20


@pytest.mark.parametrize(("preset", "players"), _tables())
def test_strong_plays_every_preset_and_table_size(preset: str, players: int) -> None:
    rules = find_preset(preset)
    bot, greedy = StrongBot(rollouts=6), find_bot("greedy")
    rng = random.Random(players)
    s = new_game(rules, players, rng=f"{preset}{players}")
    decisions = 0
    steps = 0
    while not s.is_over and s.hand_no == 0 and steps < 400:
        steps += 1
        v = view(s, s.current)
        if s.current == 0:
            g = determinize(v, rng)  # a consistent game: the view it gives is ours
            mine = view(g, 0)
            assert (mine.hand, mine.hand_counts, mine.top, mine.color, mine.pending) == (
                v.hand,
                v.hand_counts,
                v.top,
                v.color,
                v.pending,
            )
            assert Counter(c for h in g.hands for c in h) + Counter(g.draw_pile) + Counter(
                g.discard
            ) + Counter(g.removed) == Counter(c for h in s.hands for c in h) + Counter(
                s.draw_pile
            ) + Counter(s.discard) + Counter(s.removed)
            w = worlds.Deals(v, rng, reading.read(v)).deal(rng)  # and as the log allows
            assert view(w, 0).hand_counts == v.hand_counts and w.hands[0] == s.hands[0]
            assert Counter(c for h in w.hands for c in h) + Counter(w.draw_pile) + Counter(
                w.discard
            ) == Counter(c for h in g.hands for c in h) + Counter(g.draw_pile) + Counter(g.discard)
            a = bot.act(v, rng)
            decisions += 1
        else:
            a = greedy.act(v, rng)
        assert a in v.legal
        s, _ = apply(s, s.current, a)
    assert decisions > 0


def test_strong_budget_is_a_number_of_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is counted in rollouts, not read from a clock (docs/bots.md gives the time
    it takes on the reference machine): no decision plays more than ``rollouts``."""
    calls = [0]
    real = strong.rollout

    def counted(*args: Any, **kwargs: Any) -> float:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(strong, "rollout", counted)
    rules = find_preset("mattel")
    bot, greedy = StrongBot(rollouts=20), find_bot("greedy")
    rng = random.Random(9)
    most = searched = 0
    for game in range(2):
        s = new_game(rules, 2, rng=f"budget{game}")
        while not s.is_over and s.hand_no == 0:
            v = view(s, s.current)
            if s.current == 0:
                calls[0] = 0
                a = bot.act(v, rng)
                most = max(most, calls[0])
                searched += calls[0] > 0
            else:
                a = greedy.act(v, rng)
            s, _ = apply(s, s.current, a)
    assert searched > 0 and 0 < most <= 20


def _readings(rules: Any, players: int, games: int, seed: str = "run") -> dict[str, int]:
    """Greedy in every seat, first hands: at each turn of seat 0 with a choice, what
    :func:`reading.read` makes of the log, checked against the real hands, and four worlds
    dealt from it, checked against the reading."""
    greedy = find_bot("greedy")
    rng = random.Random(players)
    n = Counter[str]()
    for game in range(games):
        s = new_game(rules, players, rng=f"{seed}{game}")
        while not s.is_over and s.hand_no == 0:
            v = view(s, s.current)
            if s.current == 0 and v.my_turn and len(v.legal) > 1:
                r = reading.read(v)
                n["turns"] += 1
                for seat, marks in r.marks.items():
                    assert seat != 0 and marks and v.in_hand[seat]
                    for bad, allowed in marks:
                        n["marks"] += 1
                        n["broken"] += sum(c in bad for c in s.hands[seat]) > allowed
                for seat, plays in r.shown.items():
                    assert seat != 0 and 0 < len(plays) <= reading.SHOWN
                    for p in plays:
                        n["shown"] += 1
                        n["disagree"] += not p.agrees(s)
                if r.under is not None:
                    n["under"] += 1
                    assert r.under == s.discard[:-1]
                deals = worlds.Deals(v, rng, r)
                for _ in range(4):
                    g = deals.deal(rng)
                    n["dealt"] += 1
                    assert [len(h) for h in g.hands] == [len(h) for h in s.hands]
                    assert Counter(c for h in g.hands for c in h) + Counter(g.draw_pile) + Counter(
                        g.discard
                    ) == Counter(c for h in s.hands for c in h) + Counter(s.draw_pile) + Counter(
                        s.discard
                    )
                    assert g.hands[0] == s.hands[0] and g.discard[-1] == s.discard[-1]
                    if r.under is not None:
                        assert g.discard == s.discard
                    for seat, marks in r.marks.items():
                        for bad, allowed in marks:
                            n["dealt_marks"] += 1
                            n["dealt_broken"] += sum(c in bad for c in g.hands[seat]) > allowed
                    n["agreed"] += all(
                        worlds._agreeing(g, plays) == len(plays) for plays in r.shown.values()
                    )
            s, _ = apply(s, s.current, greedy.act(v, rng))
    return n


@pytest.mark.parametrize(
    ("preset", "players"),
    [("mattel", 2), ("classic", 3), ("mattel", 4), ("online", 4), ("classic", 6)],
)
def test_strong_marks_a_seat_that_drew_in_its_turn_as_holding_nothing_playable_there(
    preset: str, players: int
) -> None:
    """A seat that drew in its turn held no card it could play on the top card then; each card
    it takes in since allows one more, each such card it plays one fewer. The real hands of
    greedy opponents never break a mark, and the worlds are dealt so that none is broken
    (a seat is dealt freely only when too few cards are left for its layers)."""
    n = _readings(find_preset(preset), players, 12)
    assert n["marks"] > 20 and n["broken"] == 0
    assert n["dealt_broken"] <= 0.01 * n["dealt_marks"]


@pytest.mark.parametrize(("preset", "players"), [("mattel", 2), ("classic", 3), ("online", 4)])
def test_strong_reads_each_play_since_a_seat_last_drew_as_greedys_choice(
    preset: str, players: int
) -> None:
    """Each play a seat made by choice from its hand since it last took a card in is greedy's
    choice with the hand it holds now and the cards it played since: the real hands of greedy
    opponents always agree, and most worlds dealt agree with every play read."""
    n = _readings(find_preset(preset), players, 12)
    assert n["shown"] > 20 and n["disagree"] == 0
    assert n["agreed"] > 0.7 * n["dealt"]


def test_strong_places_the_discards_it_saw_played() -> None:
    """The discards under the top card are the cards seen played since the last reshuffle
    (and the first card turned): every world has the real discard pile."""
    n = _readings(find_preset("mattel"), 3, 8)
    assert n["under"] == n["turns"] > 0


def test_strong_forgets_what_it_knew_of_hands_that_moved() -> None:
    """Where 7s swap and 0s pass hands, a swap forgets the two seats' marks and plays and a
    rotation of every hand ends the reading: nothing read is then broken by the real hands."""
    rules = find_preset("mattel").with_options(seven_swap=True, zero_rotate=True)
    n = _readings(rules, 3, 20, seed="moved")
    assert n["marks"] > 0 and n["broken"] == 0 and n["disagree"] == 0


def test_strong_reads_nothing_when_the_view_has_no_log() -> None:
    """A view without its hand's log (a position rebuilt from its text form) reads nothing:
    every hidden card is dealt at random."""
    s = new_game(find_preset("mattel"), 3, rng="nolog")
    v = view(s, s.current)
    assert v.log and reading.read(v).under is not None
    bare = reading.read(view(worlds.determinize(v, random.Random(1)), s.current))
    assert bare.marks == {} and bare.shown == {} and bare.under is None


def test_strong_determinizes_with_two_player_reverses_removed() -> None:
    """Heads-up with ``two_player_reverse=removed`` the 8 Reverses are out of the game: the
    sampled worlds leave them out too (and keep every Skip), so the search runs there."""
    rules = find_preset("classic").with_options(two_player_reverse="removed")
    rng = random.Random(3)
    s = new_game(rules, 2, rng="removed")
    v = view(s, s.current)
    g = determinize(v, rng)
    every = Counter(c for h in g.hands for c in h) + Counter(g.draw_pile) + Counter(g.discard)
    assert every == Counter(c for h in s.hands for c in h) + Counter(s.draw_pile) + Counter(
        s.discard
    )
    assert not any(c.kind.name == "REVERSE" for c in every)


def test_strong_plays_the_best_mean_only_when_it_beats_greedy_by_the_margin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every candidate is played out on the same worlds; the best mean is played when its
    paired lead over greedy's choice exceeds ``margin`` standard errors, else greedy's."""
    rules = find_preset("mattel")
    s = new_game(rules, 2, rng="margin")
    v = view(s, s.current)
    choices = list(v.legal)[:3]
    assert len(choices) == 3
    rng = random.Random(1)
    calls = [0]

    def clear(g: Game, seat: int, first: Any) -> float:  # choice 2 always wins by 0.5
        calls[0] += 1
        return 0.5 if first == choices[2] else 0.0

    monkeypatch.setattr(strong, "rollout", clear)
    assert StrongBot(rollouts=30).search(v, choices, 0, rng) == choices[2]
    assert 20 <= calls[0] <= 30

    def noisy(g: Game, seat: int, first: Any) -> float:  # a lead within the noise
        calls[0] += 1
        return rng.choice((1.0, -1.0)) + (0.05 if first == choices[1] else 0.0)

    monkeypatch.setattr(strong, "rollout", noisy)
    assert StrongBot(rollouts=30, margin=3.0).search(v, choices, 0, rng) == choices[0]


@pytest.mark.parametrize("preset", ["mattel", "classic", "house"])
def test_a_playout_stops_at_the_hands_end_scored_as_the_match_scores_it(preset: str) -> None:
    """A rollout's game is halted (``GameData.halt``): the move that ends a hand ends it with
    the same scoring event as in the match, then stops there (phase over, no next hand dealt,
    no result), where the match deals the next hand or finishes; copies are never halted."""
    from mazziere.uno.bots.rollouts import next_action, rollout
    from mazziere.uno.events import HandEnded
    from mazziere.uno.state import OVER

    rules = find_preset(preset).with_options(match="target_points")
    ends = 0
    for game in range(6):
        g = Game.new(rules, 3, rng=f"halt{game}")
        while g.result is None and ends < 40:
            seat, a = next_action(g)
            halted = g.copy()
            halted.halt = True
            assert not halted.copy().halt
            mine = halted.push(a, seat)
            theirs = g.push(a, seat)
            ended = [e for e in theirs if isinstance(e, HandEnded)]
            if not ended:
                assert mine == theirs and halted == g
                continue
            ends += 1
            assert [e for e in mine if isinstance(e, HandEnded)] == ended
            assert halted.phase is OVER and halted.result is None
            assert halted.hand_no == g.hand_no - 1 or g.result is not None
            v = rollout(g.copy(), g.current, next_action(g)[1]) if g.result is None else 0.0
            assert -3.0 <= v <= 3.0
    assert ends >= 6
