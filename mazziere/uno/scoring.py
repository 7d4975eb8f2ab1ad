"""The end of a hand and of a match (uno.md "Scoring and matches", "Hands with no winner,
ties", 004 victory points and abandonment)."""

from __future__ import annotations

from mazziere.cards.uno import card_points
from mazziere.uno import events as E
from mazziere.uno.dealing import Dealing
from mazziere.uno.state import MatchResult, Phase

VP_SINGLE = (12, 6, 2, 0)
VP_PAIRS = (10, 6, 4, 0)


class Scoring(Dealing):
    """Scoring a hand, deciding the match, ranking sides, victory points."""

    __slots__ = ()

    # ------------------------------------------------------------------ end of a hand
    def _end_hand(self, winner: int | None, reason: str) -> None:
        """Scoring (uno.md "Scoring and matches"); then the match goes on or ends."""
        rules = self.rules
        points = [card_points(h) if self.in_hand[s] else 0 for s, h in enumerate(self.hands)]
        self.last_hand_cards = [len(h) for h in self.hands]
        if winner is not None:
            wside = self.side(winner)
            self.hands_won[wside] += 1
            if rules.scoring == "winner":
                gained = sum(p for s, p in enumerate(points) if self.side(s) != wside)
                self.scores[wside] += gained
                self.seat_points[winner] += gained
            else:
                for s, p in enumerate(points):
                    self.scores[self.side(s)] += p
        elif rules.scoring == "penalty":
            for s, p in enumerate(points):
                self.scores[self.side(s)] += p
        self.events.append(
            E.HandEnded(
                winner,
                tuple(points),
                tuple(self.scores),
                tuple(tuple(h) for h in self.hands),
                reason,
            )
        )
        self.uno_seat, self.uno_ready = None, None
        self._after_hand(winner, points)

    def _after_hand(self, winner: int | None, points: list[int]) -> None:
        rules = self.rules
        sides_in = sorted({self.side(s) for s in range(self.n) if self.in_hand[s]})
        side_points = {sd: 0 for sd in sides_in}
        side_cards = {sd: 0 for sd in sides_in}
        for s in range(self.n):
            if self.in_hand[s]:
                side_points[self.side(s)] += points[s]
                side_cards[self.side(s)] += len(self.hands[s])
        if self.tiebreak or rules.match == "single_hand":
            # 004: one hand decides; with nobody out, fewest points, then fewest cards, then a
            # tie-break hand, then whoever drew last loses.
            if winner is not None:
                ranking = [self.side(winner)] + [
                    sd
                    for sd in self._rank_by_hand(sides_in, side_points, side_cards)
                    if sd != self.side(winner)
                ]
                self._finish_match(ranking[0], self._complete_ranking(ranking), "out")
                return
            ranking = self._rank_by_hand(sides_in, side_points, side_cards)
            best = (side_points[ranking[0]], side_cards[ranking[0]])
            tied = [sd for sd in ranking if (side_points[sd], side_cards[sd]) == best]
            if len(tied) == 1:
                self._finish_match(ranking[0], self._complete_ranking(ranking), "fewest_points")
                return
            if self.tiebreak:
                ordered = sorted(tied, key=self._side_last_draw)
                ranking = ordered + [sd for sd in ranking if sd not in ordered]
                self._finish_match(ranking[0], self._complete_ranking(ranking), "drew_last_loses")
                return
            self.tiebreak = tuple(tied)
            self._start_hand()
            return
        if rules.match == "fixed_hands":
            if self.hand_no + 1 >= rules.fixed_hands:
                ranking = self._rank_match(list(range(len(self.scores))))
                self._finish_match(ranking[0], ranking, "hands_played")
                return
        elif rules.elimination:
            # several out in one hand: the higher total is out first (ranks lower)
            for s in sorted(range(self.n), key=lambda s: -self.scores[s]):
                if self.active[s] and self.scores[s] >= rules.target:
                    self.active[s] = False
                    self.eliminated_order.append(s)
                    self.events.append(E.Eliminated(s))
            left = [s for s in range(self.n) if self.active[s]]
            if len(left) <= 1:
                out = list(reversed(self.eliminated_order))
                # everybody reached the target at once: lowest total wins
                ranking = left + out if left else self._rank_match(out)
                self._finish_match(ranking[0], ranking, "last_one_left")
                return
        else:
            reached = [sd for sd in range(len(self.scores)) if self.scores[sd] >= rules.target]
            if reached:
                ranking = self._rank_match(list(range(len(self.scores))))
                top = ranking[0]
                must_lead = rules.target_must_lead and rules.scoring == "winner"
                if not must_lead or all(self.scores[top] > self.scores[sd] for sd in ranking[1:]):
                    self._finish_match(top, ranking, "target_reached")
                    return
        self._start_hand()

    def _rank_by_hand(
        self, sides: list[int], side_points: dict[int, int], side_cards: dict[int, int]
    ) -> list[int]:
        return sorted(
            sides, key=lambda sd: (side_points[sd], side_cards[sd], self._side_last_draw(sd))
        )

    def _side_last_draw(self, side: int) -> int:
        return max(self.last_draw[s] for s in range(self.n) if self.side(s) == side)

    def _rank_match(self, sides: list[int]) -> list[int]:
        """Multi-hand ranking (004 "Parità"): points (most with winner scoring, fewest with
        penalty scoring), then most hands won, then fewest cards in the last hand, then the
        side that drew last loses."""
        sign = -1 if self.rules.scoring == "winner" else 1

        def key(sd: int) -> tuple[int, int, int, int]:
            cards = sum(self.last_hand_cards[s] for s in range(self.n) if self.side(s) == sd)
            return (sign * self.scores[sd], -self.hands_won[sd], cards, self._side_last_draw(sd))

        return sorted(sides, key=key)

    def _complete_ranking(self, ranking: list[int]) -> list[int]:
        rest = [sd for sd in self._rank_match(list(range(len(self.scores)))) if sd not in ranking]
        return ranking + rest

    def _finish_match(
        self,
        winner: int,
        ranking: list[int],
        reason: str,
        match_points: list[int] | None = None,
    ) -> None:
        n = self.n
        if match_points is None:
            match_points = [1 if self.side(s) == winner else 0 for s in range(n)]
        vp: tuple[int, ...] = ()
        if self.rules.victory_points and n == 4:
            if self.rules.teams:
                seats_order: list[int] = []
                for sd in ranking:
                    team = [s for s in range(n) if self.side(s) == sd]
                    seats_order.extend(sorted(team, key=lambda s: (-self.seat_points[s], s)))
                table = VP_PAIRS
            else:
                seats_order, table = list(ranking), VP_SINGLE
            vps = [0] * n
            for place, s in enumerate(seats_order):
                vps[s] = table[place]
            vp = tuple(vps)
        self.result = MatchResult(
            winner=winner,
            ranking=tuple(ranking),
            scores=tuple(self.scores),
            match_points=tuple(match_points),
            victory_points=vp,
            reason=reason,
        )
        self.phase = Phase.OVER
        self.pending, self.w4_by, self.drawn = 0, None, None
        self.events.append(E.MatchEnded(winner, tuple(ranking), tuple(match_points), vp, reason))

    def _abandon(self, seat: int, reason: str) -> None:
        """004: the leaver loses: -1 match point, +1 to the opponent."""
        other = 1 - seat
        self.events.append(E.Left(seat))
        mp = [0, 0]
        mp[seat], mp[other] = -1, 1
        self._finish_match(other, [other, seat], reason, match_points=mp)
