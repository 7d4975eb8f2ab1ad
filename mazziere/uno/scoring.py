"""The end of a hand and of a match (uno.md "Scoring and matches", "Hands with no winner,
ties", 004 victory points and abandonment): functions over a
:class:`~mazziere.uno.state.GameData`."""

from __future__ import annotations

from mazziere.cards.uno import card_points
from mazziere.uno import events as E
from mazziere.uno.dealing import start_hand
from mazziere.uno.state import OVER, GameData, MatchResult

VP_SINGLE = (12, 6, 2, 0)
VP_PAIRS = (10, 6, 4, 0)


def end_hand(g: GameData, winner: int | None, reason: str) -> None:
    """Scoring (uno.md "Scoring and matches"); then the match goes on or ends."""
    rules = g.rules
    side = g.side_of
    points = [card_points(h) if g.in_hand[s] else 0 for s, h in enumerate(g.hands)]
    g.last_hand_cards = tuple(len(h) for h in g.hands)
    scores = list(g.scores)
    if winner is not None:
        wside = side(winner)
        won = list(g.hands_won)
        won[wside] += 1
        g.hands_won = tuple(won)
        if rules.scoring == "winner":
            gained = sum(p for s, p in enumerate(points) if side(s) != wside)
            scores[wside] += gained
            seat_points = list(g.seat_points)
            seat_points[winner] += gained
            g.seat_points = tuple(seat_points)
        else:
            for s, p in enumerate(points):
                scores[side(s)] += p
    elif rules.scoring == "penalty":
        for s, p in enumerate(points):
            scores[side(s)] += p
    g.scores = tuple(scores)
    g.events.append(
        E.HandEnded(
            winner,
            tuple(points),
            g.scores,
            tuple(tuple(h) for h in g.hands),
            reason,
        )
    )
    g.uno_seat, g.uno_ready = None, None
    if g.halt:  # a search's playout: the hand's value is all it needs (GameData.halt)
        g.phase = OVER
        return
    _after_hand(g, winner, points)


def _after_hand(g: GameData, winner: int | None, points: list[int]) -> None:
    rules = g.rules
    n = g.players
    side = g.side_of
    sides_in = sorted({side(s) for s in range(n) if g.in_hand[s]})
    side_points = {sd: 0 for sd in sides_in}
    side_cards = {sd: 0 for sd in sides_in}
    for s in range(n):
        if g.in_hand[s]:
            side_points[side(s)] += points[s]
            side_cards[side(s)] += len(g.hands[s])
    if g.tiebreak or rules.match == "single_hand":
        # 004: one hand decides; with nobody out, fewest points, then fewest cards, then a
        # tie-break hand, then whoever drew last loses.
        if winner is not None:
            ranking = [side(winner)] + [
                sd
                for sd in _rank_by_hand(g, sides_in, side_points, side_cards)
                if sd != side(winner)
            ]
            finish_match(g, ranking[0], _complete_ranking(g, ranking), "out")
            return
        ranking = _rank_by_hand(g, sides_in, side_points, side_cards)
        best = (side_points[ranking[0]], side_cards[ranking[0]])
        tied = [sd for sd in ranking if (side_points[sd], side_cards[sd]) == best]
        if len(tied) == 1:
            finish_match(g, ranking[0], _complete_ranking(g, ranking), "fewest_points")
            return
        if g.tiebreak:
            ordered = sorted(tied, key=lambda sd: _side_last_draw(g, sd))
            ranking = ordered + [sd for sd in ranking if sd not in ordered]
            finish_match(g, ranking[0], _complete_ranking(g, ranking), "drew_last_loses")
            return
        g.tiebreak = tuple(tied)
        start_hand(g)
        return
    if rules.match == "fixed_hands":
        if g.hand_no + 1 >= rules.fixed_hands:
            ranking = _rank_match(g, list(range(len(g.scores))))
            finish_match(g, ranking[0], ranking, "hands_played")
            return
    elif rules.elimination:
        # several out in one hand: the higher total is out first (ranks lower)
        active = list(g.active)
        out_now = list(g.eliminated_order)
        for s in sorted(range(n), key=lambda s: -g.scores[s]):
            if active[s] and g.scores[s] >= rules.target:
                active[s] = False
                out_now.append(s)
                g.events.append(E.Eliminated(s))
        g.active, g.eliminated_order = tuple(active), tuple(out_now)
        left = [s for s in range(n) if active[s]]
        if len(left) <= 1:
            out = list(reversed(out_now))
            # everybody reached the target at once: lowest total wins
            ranking = left + out if left else _rank_match(g, out)
            finish_match(g, ranking[0], ranking, "last_one_left")
            return
    else:
        reached = [sd for sd in range(len(g.scores)) if g.scores[sd] >= rules.target]
        if reached:
            ranking = _rank_match(g, list(range(len(g.scores))))
            top = ranking[0]
            must_lead = rules.target_must_lead and rules.scoring == "winner"
            if not must_lead or all(g.scores[top] > g.scores[sd] for sd in ranking[1:]):
                finish_match(g, top, ranking, "target_reached")
                return
    start_hand(g)


def _rank_by_hand(
    g: GameData, sides: list[int], side_points: dict[int, int], side_cards: dict[int, int]
) -> list[int]:
    return sorted(sides, key=lambda sd: (side_points[sd], side_cards[sd], _side_last_draw(g, sd)))


def _side_last_draw(g: GameData, side: int) -> int:
    return max(g.last_draw[s] for s in range(g.players) if g.side_of(s) == side)


def _rank_match(g: GameData, sides: list[int]) -> list[int]:
    """Multi-hand ranking (004 "Parità"): points (most with winner scoring, fewest with
    penalty scoring), then most hands won, then fewest cards in the last hand, then the
    side that drew last loses."""
    sign = -1 if g.rules.scoring == "winner" else 1

    def key(sd: int) -> tuple[int, int, int, int]:
        cards = sum(g.last_hand_cards[s] for s in range(g.players) if g.side_of(s) == sd)
        return (sign * g.scores[sd], -g.hands_won[sd], cards, _side_last_draw(g, sd))

    return sorted(sides, key=key)


def _complete_ranking(g: GameData, ranking: list[int]) -> list[int]:
    rest = [sd for sd in _rank_match(g, list(range(len(g.scores)))) if sd not in ranking]
    return ranking + rest


def finish_match(
    g: GameData,
    winner: int,
    ranking: list[int],
    reason: str,
    match_points: list[int] | None = None,
) -> None:
    n = g.players
    if match_points is None:
        match_points = [1 if g.side_of(s) == winner else 0 for s in range(n)]
    vp: tuple[int, ...] = ()
    if g.rules.victory_points and n == 4:
        if g.rules.teams:
            seats_order: list[int] = []
            for sd in ranking:
                team = [s for s in range(n) if g.side_of(s) == sd]
                seats_order.extend(sorted(team, key=lambda s: (-g.seat_points[s], s)))
            table = VP_PAIRS
        else:
            seats_order, table = list(ranking), VP_SINGLE
        vps = [0] * n
        for place, s in enumerate(seats_order):
            vps[s] = table[place]
        vp = tuple(vps)
    g.result = MatchResult(
        winner=winner,
        ranking=tuple(ranking),
        scores=g.scores,
        match_points=tuple(match_points),
        victory_points=vp,
        reason=reason,
    )
    g.phase = OVER
    g.pending, g.w4_by, g.drawn = 0, None, None
    g.events.append(E.MatchEnded(winner, tuple(ranking), tuple(match_points), vp, reason))


def abandon(g: GameData, seat: int, reason: str) -> None:
    """004: the leaver loses: -1 match point, +1 to the opponent."""
    other = 1 - seat
    g.events.append(E.Left(seat))
    mp = [0, 0]
    mp[seat], mp[other] = -1, 1
    finish_match(g, other, [other, seat], reason, match_points=mp)
