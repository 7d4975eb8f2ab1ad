"""docs/rules/casino.md "Readings of the rules": each sentence of seed 000 whose reading
changes the return to player is an option (:mod:`mazziere.casino.readings`); every reading
is checked here on its rule, and the compiled kernel is checked equal to the readable round
under each of them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mazziere.cards.uno import FULL_DECK, WILD4_FACE, WILD_FACE, Color, parse_card, parse_cards
from mazziere.casino import (
    BankMemory,
    CasinoRules,
    apply,
    legal_actions,
    new_round,
    play_default,
)
from mazziere.casino import rulebook as R
from mazziere.casino.position import parse_position
from mazziere.casino.readings import (
    CLAUSES,
    Readings,
    alternatives,
    choices,
    names,
    parse_reading,
)
from mazziere.casino.rules import PUBLISHED_RTP
from mazziere.casino.strategy import card_weight
from mazziere.cli import app
from mazziere.errors import BadPosition, IllegalAction, OptionError
from mazziere.rng import SplitMixRng
from mazziere.sim.casino_check import check_rare, first_difference, pure_trace
from mazziere.sim.casino_kernel import SEARCH_WORLDS, kernel_tally, kernel_trace, round_seeds
from mazziere.sim.certify import journal_path
from mazziere.sim.rtp import TallyJournal, run_header, run_rtp
from mazziere.uno import actions as A
from mazziere.uno.engine import new_game_with_events
from mazziere.uno.events import Returned

RED = 0


def _w(
    card: str,
    hand: str,
    reading: str,
    bank_cards: int = 3,
    memory: BankMemory | None = None,
    run: int = 0,
) -> int:
    return card_weight(
        parse_card(card),
        parse_cards(hand),
        parse_card("R5"),
        RED,
        bank_cards,
        memory or BankMemory(),
        run,
        parse_reading(reading) if reading else Readings(),
    )


def test_every_reading_has_its_sentence_and_words_for_each_value() -> None:
    assert [c.name for c in CLAUSES] == list(names())
    for c in CLAUSES:
        assert c.quote and c.english and c.why
        assert tuple(c.values) == choices(c.name)
    assert Readings().codes() == (0,) * len(names())
    assert len(alternatives()) == 1 + sum(len(choices(n)) - 1 for n in names())


def test_an_unknown_reading_or_value_is_refused_with_its_code() -> None:
    with pytest.raises(OptionError) as e:
        parse_reading("skip_chains=colour")
    assert e.value.code == "unknown_reading"
    with pytest.raises(OptionError) as e:
        parse_reading("skip_chain=rainbow")
    assert e.value.code == "bad_reading"
    with pytest.raises(OptionError) as e:
        parse_reading("skip_chain")
    assert e.value.code == "bad_reading"


def test_reading_skip_chain_colour_counts_further_skips_and_reverses_of_the_colour() -> None:
    assert _w("RS", "RS RR GS B1", "") == 2000 + 1000


def test_reading_skip_chain_chainable_adds_the_same_symbol_in_other_colours() -> None:
    assert _w("RS", "RS RR GS GR B1", "skip_chain=chainable") == 2000 + 2000


def test_reading_skip_chain_played_counts_the_cards_laid_this_turn() -> None:
    assert _w("RS", "RS RR GS B1", "skip_chain=played") == 2000
    assert _w("RS", "RS RR GS B1", "skip_chain=played", run=2) == 2000 + 2000


def test_reading_skip_answer_turn_needs_the_banks_latest_turn_to_end_on_that_play() -> None:
    after_draw = BankMemory(
        last_card=parse_card("GS"), drew_without_playing=True, passed_color=Color(2)
    )
    assert _w("RS", "RS B1", "", memory=after_draw) == 5000
    assert _w("RS", "RS B1", "skip_answer=turn", memory=after_draw) == 2000
    played = BankMemory(last_card=parse_card("GS"))
    assert _w("RS", "RS B1", "skip_answer=turn", memory=played) == 5000


def test_reading_draw2_count_before_compares_the_hand_before_the_play() -> None:
    # bank 2 cards, the player 2 before the +2 and 1 after it
    assert _w("RD2", "RD2 B1", "", bank_cards=2) == 0
    assert _w("RD2", "RD2 B1", "draw2_count=before", bank_cards=2) == 1100


def test_reading_forced_draws_moves_the_multiplier_as_read() -> None:
    def step(reading: str, m: int, by_player: bool, nth: int) -> int:
        rd = parse_reading(reading).codes() if reading else Readings().codes()
        return R.multiplier_after_draw(m, by_player, R.DRAW_PENALTY, nth, rd)

    assert step("", 1, False, 0) == 1 and step("", 3, True, 0) == 3
    assert [step("forced_draws=bank", 1, False, i) for i in (0, 1)] == [2, 2]
    assert step("forced_draws=bank", 3, True, 0) == 3
    assert [step("forced_draws=bank_once", 1, False, i) for i in (0, 1)] == [2, 1]
    assert (
        step("forced_draws=both", 3, True, 0) == 2 and step("forced_draws=both", 1, False, 1) == 2
    )
    assert step("forced_draws=player", 3, True, 1) == 2
    assert step("forced_draws=player", 1, False, 0) == 1


def _exact(head: str, hands: str, top: str, draw: str) -> str:
    """A position whose draw pile is exactly ``draw``: every other card is in the discards,
    under ``top``."""
    rest = [str(c) for c in FULL_DECK]
    for c in [*hands.replace("/", ",").split(","), top, *draw.split(",")]:
        rest.remove(c)
    return f"{head} uno hands={hands} discard={','.join([*rest, top])} draw={draw}"


def test_reading_forced_draws_bank_pays_the_raised_multiplier_on_a_last_draw_two() -> None:
    text = _exact("casino mult=1", "RD2/G5,G6,G7", "R7", "B1,B2,B3")
    for reading, paid in (("", 100), ("forced_draws=bank", 300), ("forced_draws=bank_once", 200)):
        rules = CasinoRules(readings=parse_reading(reading) if reading else Readings())
        r = parse_position(text.replace("mult=1", "stake=100 mult=1"), rules)
        r, _ = play_default(r)
        assert r.result is not None and r.result.payout == paid, reading


def test_reading_pile_out_decides_who_is_paid_when_the_pile_runs_out() -> None:
    text = _exact("casino stake=100 mult=3", "G1/B1,B2,B3", "R7", "Y9")
    expect = {"": ("bank", 0), "pile_out=refund": ("none", 100), "pile_out=fewer": ("player", 200)}
    for reading, (winner, paid) in expect.items():
        rules = CasinoRules(readings=parse_reading(reading) if reading else Readings())
        r, _ = play_default(parse_position(text, rules))  # the player draws Y9, cannot play
        assert r.result is not None, reading
        assert (r.result.winner, r.result.payout, r.result.reason) == (winner, paid, "pile_out")
    assert R.pile_out_payout(3, 2, 2, parse_reading("pile_out=fewer").codes()) == 1
    assert R.pile_out_payout(3, 3, 2, parse_reading("pile_out=fewer").codes()) == 0


def test_reading_first_card_bottom_puts_a_returned_card_under_the_pile() -> None:
    rules = CasinoRules(readings=parse_reading("first_card=bottom"))
    assert rules.uno.returned_first_card == "bottom"
    seen = 0
    for seed in range(200):
        game, events = new_game_with_events(rules.uno, 2, seed)
        returned = [e.card for e in events if isinstance(e, Returned)]
        if returned:
            seen += 1
            assert game.draw_pile[: len(returned)] == returned[::-1]
    assert seen > 20


def test_a_bank_turn_never_ends_on_a_wild_draw_four_while_the_round_goes_on() -> None:
    # why "the bank played a Wild" needs no reading: at each decision of the player, a colour
    # the bank chose came from a plain Wild (a +4 gives the bank another move)
    decisions = 0
    for seed in range(400):
        r, _ = new_round(CasinoRules(), 10, rng=SplitMixRng(seed))
        while r.result is None:
            m = r.memory
            if m.chosen_color is not None:
                assert m.last_card == WILD_FACE and m.last_card != WILD4_FACE
                decisions += 1
            r, _ = play_default(r)
    assert decisions > 20


@pytest.mark.parametrize("readings", alternatives(), ids=lambda r: r.label())
def test_kernel_steps_equal_the_readable_rounds_steps_under_each_reading(
    readings: Readings,
) -> None:
    for s in round_seeds(11, 0, 150):
        k, p = kernel_trace(int(s), readings=readings), pure_trace(int(s), readings)
        assert k == p, (int(s), first_difference(k, p))


@pytest.mark.parametrize("reading", ["pile_out=refund", "pile_out=fewer"])
def test_kernel_equals_the_readable_round_when_the_pile_runs_out_under_each_reading(
    reading: str,
) -> None:
    r = check_rare(7, 300_000, "pile_out", parse_reading(reading))
    assert r.compared >= 3
    assert r.mismatches == ()


def test_the_adopted_readings_play_the_rounds_of_the_default_table() -> None:
    assert (kernel_tally(5, 0, 3000) == kernel_tally(5, 0, 3000, readings=Readings())).all()


def test_rtp_journal_resumed_equals_one_run_and_refuses_another_run(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    one = run_rtp(450_000, seed=3, workers=1, readings=parse_reading("skip_chain=played"))
    first = run_rtp(
        450_000, seed=3, workers=1, readings=parse_reading("skip_chain=played"), journal=path
    )
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 3  # the header, then chunks of 200,000, 200,000 and 50,000
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:10])  # a kill mid-line
    again = run_rtp(
        450_000, seed=3, workers=2, readings=parse_reading("skip_chain=played"), journal=path
    )
    assert one.paid_counts == first.paid_counts == again.paid_counts
    assert one.turns == again.turns and first.checkpoints == again.checkpoints
    assert [c.rounds for c in again.checkpoints] == [200_000, 400_000, 450_000]
    assert again.played == 250_000
    shorter = run_rtp(
        400_000, seed=3, workers=1, readings=parse_reading("skip_chain=played"), journal=path
    )
    assert shorter.played == 0  # a longer run's journal serves a shorter one
    before = path.read_bytes()
    with pytest.raises(OptionError) as e:
        run_rtp(450_000, seed=3, workers=1, journal=path)  # the adopted readings
    assert e.value.code == "journal_mismatch" and path.read_bytes() == before
    header = json.loads(before.splitlines()[0])
    assert header["readings"]["skip_chain"] == "played"
    path.write_text(before.decode().replace('"start": 200000', '"start": "x"'))
    with pytest.raises(OptionError) as e:
        run_rtp(
            450_000, seed=3, workers=1, readings=parse_reading("skip_chain=played"), journal=path
        )
    assert e.value.code == "bad_journal"


def test_cli_rtp_reads_a_sentence_another_way_and_resumes_from_its_journal(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    path = tmp_path / "played.jsonl"
    args = ["rtp", "-n", "3000", "--workers", "1", "--json", "--reading", "skip_chain=played"]
    first = runner.invoke(app, [*args, "--journal", str(path)])
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["readings"]["skip_chain"] == "played" and data["played"] == 3000
    same = run_rtp(3000, seed=1, workers=1, readings=parse_reading("skip_chain=played"))
    assert data["rtp"] == same.rtp.estimate
    again = json.loads(runner.invoke(app, [*args, "--journal", str(path)]).stdout)
    assert again["played"] == 0 and again["rtp"] == data["rtp"]
    assert data["rounds_per_second"] > 0 and again["rounds_per_second"] is None  # none played
    text = runner.invoke(app, [*(a for a in args if a != "--json"), "--journal", str(path)]).stdout
    assert "Speed: none played, every round read from the journal" in text
    bad = runner.invoke(app, ["rtp", "-n", "10", "--reading", "skip_chain=rainbow"])
    assert bad.exit_code == 2 and "skip_chain" in bad.stderr
    unknown = runner.invoke(app, ["rtp", "-n", "10", "--reading", "bluff=yes"])
    assert unknown.exit_code == 2 and "unknown reading" in unknown.stderr


def test_certify_states_the_published_rtp_and_measures_every_reading(tmp_path: Path) -> None:
    runner = CliRunner()
    out, journals = tmp_path / "cert", tmp_path / "journals"
    journals.mkdir()
    args = ["certify", "casino", "--rounds", "4000", "--search-rounds", "10", "--workers", "1"]
    more = ["--readings-rounds", "2000", "--journal-dir", str(journals), "--out", str(out)]
    ok = runner.invoke(app, [*args, *more])
    assert ok.exit_code == 0, ok.output
    assert "the published 96.06% lies" in ok.stdout
    assert "readings of the rules over 2,000 rounds each" in ok.stdout
    data = json.loads((out / "report.json").read_text())
    pub = data["published"]
    low, high = data["rtp"]["ci95"]
    assert pub["rtp"] == PUBLISHED_RTP and pub["inside_ci95"] is (low <= PUBLISHED_RTP <= high)
    rows = data["readings"]
    assert [r["reading"] for r in rows] == [r.label() for r in alternatives()]
    assert data["rounds"] == 4000 and all(r["rounds"] == 2000 for r in rows)
    for row, readings in zip(rows, alternatives(), strict=True):
        measured = run_rtp(2000, seed=1, workers=1, readings=readings)
        assert row["rtp"] == measured.rtp.estimate
        assert row["sentence"] in {c.quote for c in CLAUSES} | ({""} if row is rows[0] else set())
    assert sorted(p.name for p in journals.iterdir()) == sorted(
        f"{r.label()}.jsonl" for r in alternatives()
    )
    verdict = data["readings_verdict"]
    assert verdict["inside"] == [r["reading"] for r in rows if r["published"]["inside_ci95"]]
    nearest = min(rows, key=lambda r: abs(r["rtp"] - PUBLISHED_RTP))
    assert verdict["closest"] == nearest["reading"]
    page = (out / "report.html").read_text()
    assert "Readings of the rules" in page and "The published RTP" in page
    assert verdict["closest"] in page
    assert "Every row rests on 2,000 rounds, the adopted row too" in page


def test_reading_x1_ban_for_good_forbids_every_draw_once_x1_was_reached() -> None:
    text = "casino stake=100 mult=2 lowest=1 uno hands=G1/B1,B2,B3 discard=R7"
    adopted = parse_position(text)
    assert any(isinstance(a, A.Draw) for a in legal_actions(adopted))
    strict = CasinoRules(readings=parse_reading("x1_ban=for_good"))
    with pytest.raises(BadPosition) as e:  # the player can neither play nor draw: it is over
        parse_position(text, strict)
    assert e.value.code == "bad_phase"
    r = parse_position(text.replace("discard=R7", "discard=G7"), strict)
    assert not any(isinstance(a, A.Draw) for a in legal_actions(r))
    with pytest.raises(IllegalAction) as e2:
        apply(r, "draw")
    assert e2.value.code == "draw_banned_at_x1"


READINGS_ROW = re.compile(
    r"^\| `([^`]+)` \| ([\d,]+) \| (\d+\.\d{3})% "
    r"\| (\d+\.\d{3})-(\d+\.\d{3})% \| (inside|outside) \|$",
    re.M,
)


def test_the_readings_table_of_the_rules_page_is_what_the_journals_give() -> None:
    """docs/rules/casino.md's table of readings, row by row, is what the seed-1 journals in
    benchmarks/records/rtp-readings-seed1 give (read, not played: each journal must hold the
    rounds its row names)."""
    root = Path(__file__).resolve().parents[2]
    folder = root / "benchmarks/records/rtp-readings-seed1"
    page = (root / "docs/rules/casino.md").read_text()
    rows = {m[0]: m[1:] for m in READINGS_ROW.findall(page)}
    assert sorted(rows) == sorted(r.label() for r in alternatives())
    for readings in alternatives():
        rounds, rtp, low, high, verdict = rows[readings.label()]
        n = int(rounds.replace(",", ""))
        journal = journal_path(folder, readings)
        header = run_header(1, "kernel", "default", SEARCH_WORLDS, readings)
        held = sum(length for _start, length in TallyJournal(journal, header).load())
        assert held >= n, f"{journal.name} holds {held:,} rounds, the page names {n:,}"
        got = run_rtp(n, seed=1, workers=1, readings=readings, journal=journal)
        assert got.played == 0
        i = got.rtp
        assert (rtp, low, high) == tuple(f"{x * 100:.3f}" for x in (i.estimate, i.low, i.high))
        assert verdict == ("inside" if i.low <= PUBLISHED_RTP <= i.high else "outside")
