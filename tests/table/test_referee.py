"""The table referee, driven by a fake clock: every timing rule of a table.

Time is a plain float passed to each call; nothing sleeps.  Situations are arranged with
fixed decks (``deal_order``) and small scripted bots.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence

import pytest

from tests.seeds import rng_secret
from unotui.bots import RandomBot
from unotui.engine import (
    ACCEPT,
    CALL_UNO,
    DEAL,
    DRAW,
    KEEP,
    Action,
    Catch,
    Game,
    Play,
    Rules,
    SeatView,
    deal_order,
    parse_cards,
    play,
)
from unotui.engine.cards import Card
from unotui.table import (
    BAD_SEQ,
    BOT_SEAT,
    NOT_READY,
    SEAT_LOST,
    STALE_SEQ,
    Accepted,
    Deadlines,
    Outcome,
    Pacing,
    PresenceChange,
    Referee,
)
from unotui.table.outcome import CATCH_REACTION

CLASSIC = Rules.preset("classic").with_(target_score=1000)
SLOW = Pacing(bot_delay=0.5, catch_grace=1.0, auto_keep=0.3, hold=60.0, bot_delays=True)


def P(text: str, uno: bool = False) -> Action:
    return play(Card.parse(text), uno)


class Plain:
    """Plays its script first (when legal), then passively: keep, accept, draw."""

    name = "plain"
    uses_log = False

    def __init__(
        self,
        script: Sequence[str] = (),
        *,
        catches: bool = False,
        jumps: bool = False,
        catch_delay: float = 0.0,
    ) -> None:
        self.script = [Action.parse(s) for s in script]
        self.catches = catches
        self.jumps = jumps
        self.catch_delay = catch_delay
        self.views: list[SeatView] = []

    def choose(self, view: SeatView) -> Action:
        self.views.append(view)
        if self.script and self.script[0] in view.legal:
            return self.script.pop(0)
        for a in (KEEP, ACCEPT, DRAW, DEAL):
            if a in view.legal:
                return a
        return next(a for a in view.legal if not isinstance(a, Catch))

    def react(self, view: SeatView) -> Action | None:
        if self.catches:
            return next((a for a in view.legal if isinstance(a, Catch)), None)
        if self.jumps and view.actor != view.seat:
            return next((a for a in view.legal if isinstance(a, Play)), None)
        return None


def table(
    hands: Sequence[str],
    first: str,
    *,
    dealer: int,
    humans: Sequence[int],
    bots: dict[int, Plain] | None = None,
    pacing: Pacing = SLOW,
    rules: Rules = CLASSIC,
    draws: str = "",
    inline_bots: bool = True,
) -> Referee:
    hand_size = len(parse_cards(hands[0]))
    game = Game(
        len(hands),
        rules.with_(hand_size=hand_size),
        secret=rng_secret(1),
        dealer=dealer,
        deck=deal_order(hands, first, draws, dealer=dealer),
    )
    bots = bots if bots is not None else {s: Plain() for s in range(len(hands)) if s not in humans}
    rng = random.Random(2)
    return Referee(game, bots=bots, humans=humans, pacing=pacing, rng=rng, inline_bots=inline_bots)


def accepted(outcome: Outcome) -> list[tuple[int, int, str]]:
    return [(a.seq, a.seat, str(a.action)) for a in outcome.accepted]




def forgot_uno(pacing: Pacing = SLOW, **kw: object) -> Referee:
    """Three people; seat 0 plays R5 leaving one card and does not call UNO (at t=10)."""
    ref = table(["R5 R7", "B1 B2", "G1 G2"], "R1", dealer=2, humans=[0, 1, 2], pacing=pacing, **kw)  # type: ignore[arg-type]
    ref.tick(0.0)
    out = ref.receive(0, P("R5"), 0, 10.0)
    assert accepted(out) == [(0, 0, "R5")] and ref.game.uno_open == 0
    return ref



# ----- arbitration and duplicates ----------------------------------------------------------------


def test_two_catches_race_the_first_wins_the_second_gets_the_engines_code() -> None:
    ref = forgot_uno()
    first = ref.receive(2, Catch(0), 0, 11.2)
    second = ref.receive(1, Catch(0), 0, 11.2)
    assert accepted(first) == [(0, 2, "catch 0")]
    assert not second.accepted and second.refusals[0][:3] == (1, 0, "bad_choice")
    assert len(ref.game.hands[0]) == 3  # caught once


def test_a_catch_against_a_late_uno_call_first_accepted_wins() -> None:
    ref = forgot_uno()
    assert accepted(ref.receive(1, Catch(0), 0, 11.5)) == [(0, 1, "catch 0")]
    late = ref.receive(0, CALL_UNO, 1, 11.5)
    assert late.refusals[0].code == "wrong_phase" and not late.changed

    ref = forgot_uno()
    assert accepted(ref.receive(0, CALL_UNO, 1, 11.5)) == [(1, 0, "uno")]
    catch = ref.receive(1, Catch(0), 0, 11.5)
    assert catch.refusals[0].code == "bad_choice" and len(ref.game.hands[0]) == 1


def test_a_retried_intent_is_applied_once_and_gets_the_same_answer() -> None:
    ref = forgot_uno()
    version = ref.game.version
    ok = ref.receive(1, Catch(0), 5, 11.0)
    assert accepted(ok) == [(5, 1, "catch 0")]
    retry = ref.receive(1, Catch(0), 5, 11.3)
    assert retry == Outcome(replayed=((1, 5),)) and ref.game.version == version + 1  # answered, not twice
    refused = ref.receive(2, P("G1"), 0, 11.4)  # not its turn
    assert refused.refusals[0].code == "not_your_turn"
    assert ref.receive(2, P("G1"), 0, 11.5).refusals == refused.refusals
    assert ref.receive(2, DRAW, -1, 11.5).refusals[0].code == BAD_SEQ


def test_an_old_forgotten_sequence_number_is_refused_not_applied() -> None:
    ref = forgot_uno()
    for seq in range(100):
        ref.receive(2, P("B1"), seq, 11.0)  # refused each time (not seat 2's card)
    out = ref.receive(2, DRAW, 3, 11.0)
    assert out.refusals[0].code == STALE_SEQ and not out.changed


def test_intents_for_a_bot_seat_or_no_seat_are_refused() -> None:
    ref = table(["R5 R7", "B1 B2"], "R1", dealer=1, humans=[0])
    assert ref.receive(1, DRAW, 0, 0.0).refusals[0].code == BOT_SEAT
    assert ref.receive(7, DRAW, 0, 0.0).refusals[0].code == "no_such_seat"
    assert ref.receive(-1, DRAW, 0, 0.0).refusals[0].code == "no_such_seat"


# ----- bot pacing ----------------------------------------------------------------------------------


def test_a_bots_deadline_is_set_once_and_unrelated_events_do_not_restart_it() -> None:
    ref = table(["R5 R7 G3", "B1 B2 B3"], "R1", dealer=1, humans=[0])
    ref.tick(0.0)
    ref.receive(0, P("R5"), 0, 10.0)
    assert ref.next_deadline() == 10.5
    ref.receive(0, P("R7"), 1, 10.2)  # refused: not the person's turn
    ref.ready(0, 10.3)
    ref.drop(0, 10.35)
    ref.resume(0, 10.4)
    assert ref.next_deadline() == 10.5
    assert not ref.tick(10.49).accepted
    assert accepted(ref.tick(10.5)) == [(-1, 1, "draw")]


def test_a_catch_does_not_delay_the_next_bot_and_its_clock_keeps_running() -> None:
    # Bot 1 forgets UNO; bot 2 is next and waits for the grace (people may catch meanwhile).
    ref = table(["Y1 Y2", "R5 R7", "G1 G2"], "R1", dealer=0, humans=[0],
                bots={1: Plain(["R5"]), 2: Plain()})
    ref.tick(0.0)
    assert accepted(ref.tick(0.5)) == [(-1, 1, "R5")] and ref.game.uno_open == 1
    # The bots' chance to react: a person's reaction after the grace; bot 2's turn waits
    # for it (its own pause after the grace, 2.0, is sooner).
    assert ref.next_deadline() == 0.5 + 1.0 + CATCH_REACTION
    assert not ref.tick(1.6).accepted
    assert ref.receive(0, Catch(1), 0, 1.6).accepted  # the person catches meanwhile
    assert ref.next_deadline() == 1.0  # bot 2's turn began at 0.5: nothing restarted
    assert accepted(ref.tick(1.6)) == [(-1, 2, "draw")]


def test_out_of_turn_in_seat_order_at_equal_times() -> None:
    # Seat 1 forgets UNO; seat 2 is next.  Every bot would catch at the same moment: the
    # seats after the actor come first (3, then 0), the actor last.
    bots = {0: Plain(catches=True), 1: Plain(["R5"]), 2: Plain(catches=True), 3: Plain(catches=True)}
    pacing = Pacing(bot_delay=1.0, catch_grace=0.0, bot_delays=False)
    ref = table(["Y1 Y2", "R5 R7", "G1 G2", "B1 B2"], "R1", dealer=0, humans=[], bots=bots, pacing=pacing)
    ref.tick(0.0)
    assert accepted(ref.tick(1.0)) == [(-1, 1, "R5"), (-1, 3, "catch 1")]


def test_bots_jump_in_out_of_turn() -> None:
    rules = CLASSIC.with_(jump_in=True)
    bots = {1: Plain(["R5"]), 2: Plain(), 3: Plain(jumps=True)}
    ref = table(["Y1 Y2 Y3", "R5 R7 R8", "G1 G2 G3", "R5 B2 B3"], "R1", dealer=0, humans=[0], bots=bots,
                pacing=Pacing.instant(), rules=rules)
    out = ref.tick(0.0)
    assert accepted(out)[:2] == [(-1, 1, "R5"), (-1, 3, "R5")]
    assert [e.kind for e in ref.game.log if e.kind == "jump"] == ["jump"]


def test_a_stale_decision_is_never_applied() -> None:
    rules = CLASSIC.with_(jump_in=True)
    ref = table(["G4 R5 Y1", "R5 B2 B3", "G7 G8 G9"], "R1", dealer=2, humans=[0],
                bots={1: Plain(["R5"]), 2: Plain()}, rules=rules, pacing=Pacing.instant(), inline_bots=False,
                draws="B9")
    ref.tick(0.0)
    ref.receive(0, DRAW, 0, 0.0)  # the person draws (an unplayable B9); bot 1's turn
    ref.tick(0.0)
    d1 = ref.due_decision(0.0)
    assert d1 is not None and d1.seat == 1
    assert accepted(ref.decided(d1, d1.bot.choose(d1.view), 0.0)) == [(-1, 1, "R5")]
    d2 = ref.due_decision(0.0)
    assert d2 is not None and d2.seat == 2  # bot 2 thinks (in a worker thread) ...
    jump = ref.receive(0, P("R5"), 1, 0.1)  # ... while the person jumps in
    assert accepted(jump) == [(1, 0, "R5")]
    version = ref.game.version
    stale = ref.decided(d2, d2.bot.choose(d2.view), 0.2)
    assert not stale.accepted and ref.game.version == version
    d3 = ref.due_decision(0.2)
    assert d3 is not None and d3.seat == 1 and d3.version == version  # asked again, on the new state


def test_a_broken_bot_plays_the_least_it_could_do() -> None:
    class Broken(Plain):
        def choose(self, view: SeatView) -> Action:
            raise RuntimeError("oops")

    ref = table(["R5 R7", "B1 B2"], "R1", dealer=0, humans=[0], bots={1: Broken()}, pacing=Pacing.instant(),
                draws="Y9")
    out = ref.tick(0.0)
    assert (-1, 1, "draw") in accepted(out) and "oops" in ref.bot_errors[0]
    assert ref.game.actor == 0


# ----- auto-keep and the turn timer -------------------------------------------------------------------


def _after_a_draw(drawn: str, *, humans: Sequence[int], pacing: Pacing = SLOW) -> list[tuple[float, object]]:
    """Seat 0 (holding nothing that matches G1) draws ``drawn`` at t=5 and nobody acts:
    every outcome anyone hears from then on (its time after the draw, and what it says),
    until the turn has passed to seat 1.  Only Y9 is unplayable here."""
    ref = table(["R5 R7", "B1 B2"], "G1", dealer=1, humans=humans, pacing=pacing, draws=drawn)
    ref.tick(0.0)
    heard: list[tuple[float, object]] = []
    if humans:
        out = ref.receive(0, DRAW, 0, 5.0)
        heard.append((0.0, (accepted(out), out.deadlines)))
    else:
        while not ref.game.history or str(ref.game.history[-1][1]) != "draw":
            due = ref.next_deadline()
            assert due is not None
            ref.tick(due)  # the bot draws when it decides to: at t=0.5 (its think time)
    drew = 5.0 if humans else pacing.bot_delay  # when the card was drawn
    assert ref.game.phase == "drawn" and ref.game.actor == 0
    while ref.game.actor == 0:
        due = ref.next_deadline()
        assert due is not None
        assert not ref.tick(due - 0.001)  # nothing at all before the deadline
        out = ref.tick(due)
        heard.append((round(due - drew, 6), (accepted(out), out.presence, out.deadlines)))
    return heard


@pytest.mark.parametrize("timer", [None, 10.0, 0.2])
def test_a_persons_drawn_card_is_kept_after_the_same_pause_whether_or_not_it_can_be_played(
    timer: float | None,
) -> None:
    pacing = SLOW._replace(turn_timer=timer)
    unplayable = _after_a_draw("Y9", humans=[0], pacing=pacing)
    assert unplayable == _after_a_draw("G9", humans=[0], pacing=pacing)  # a playable one: the same
    window = SLOW.auto_keep if timer is None or timer > SLOW.auto_keep else timer
    assert [t for t, _ in unplayable] == [0.0, window]
    assert unplayable[-1][1][0] == [(-1, 0, "keep")]


def test_a_computer_players_drawn_card_is_kept_when_it_would_have_decided_playable_or_not() -> None:
    unplayable = _after_a_draw("Y9", humans=[])
    assert unplayable == _after_a_draw("G9", humans=[])  # Plain keeps a playable one too
    assert [t for t, _ in unplayable] == [SLOW.bot_delay]


def test_a_person_may_still_play_a_playable_drawn_card_within_the_window() -> None:
    ref = table(["R5 R7", "B1 B2"], "G1", dealer=1, humans=[0], draws="G9")
    ref.tick(0.0)
    ref.receive(0, DRAW, 0, 5.0)
    assert ref.game.phase == "drawn" and ref.next_deadline() == 5.0 + SLOW.auto_keep
    assert accepted(ref.receive(0, P("G9"), 1, 5.0 + SLOW.auto_keep - 0.01)) == [(1, 0, "G9")]


def test_the_turn_timer_plays_the_timeout_action_and_a_bot_stands_in_after_three() -> None:
    pacing = SLOW._replace(turn_timer=10.0)
    ref = table(["R5 R7 R8 R9", "B1 B2 B3 B4"], "G1", dealer=1, humans=[0], pacing=pacing,
                draws="Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9")
    ref.tick(0.0)
    assert ref.deadlines().turn == (0, 10.0)
    t = 0.0
    for n in range(1, 4):
        while ref.game.actor != 0 or ref.game.phase != "play":  # the bot's turn, automatic keeps
            t = ref.next_deadline()  # type: ignore[assignment]
            ref.tick(t)
        turn = ref.deadlines().turn
        assert turn is not None and turn[0] == 0
        t = turn[1]
        out = ref.tick(t)
        assert out.accepted[0] == Accepted(-1, 0, DRAW)
        assert out.presence == ((PresenceChange(0, "bot"),) if n == 3 else ())
    assert ref.deadlines().turn is None  # a computer player has no timer
    # The timeout's draw (Y6) is unplayable: kept automatically; then the bot's turn.
    later: list[tuple[float, int, Action]] = []
    while len(later) < 3:
        t = ref.next_deadline()  # type: ignore[assignment]
        later += [(t, a.seat, a.action) for a in ref.tick(t).accepted]
    assert [(seat, action) for _, seat, action in later] == [(0, KEEP), (1, DRAW), (1, KEEP)]
    # The stand-in plays the seat at a computer player's pace, not the turn timer's
    # (nothing in its hand matches G1: it draws Y8).
    assert ref.next_deadline() == later[-1][0] + SLOW.bot_delay
    t = later[-1][0] + SLOW.bot_delay
    assert ref.tick(t).accepted == (Accepted(-1, 0, DRAW),)
    assert ref.game.phase == "drawn" and list(ref.game.legal_actions(0)) == [KEEP]
    # The person acts before the automatic keep: the seat is theirs again, timer and all.
    back = ref.receive(0, KEEP, 0, t + 0.1)
    assert back.presence == (PresenceChange(0, "back"),) and accepted(back) == [(0, 0, "keep")]
    t = ref.next_deadline()  # type: ignore[assignment]
    ref.tick(t)  # the bot draws Y9 ...
    t = ref.next_deadline()  # type: ignore[assignment]
    ref.tick(t)  # ... and keeps it
    assert ref.game.actor == 0 and ref.deadlines().turn == (0, t + 10.0)


def test_a_timeout_never_gives_a_second_turn() -> None:
    pacing = SLOW._replace(turn_timer=3.0)
    ref = table(["R5 R7", "B1 B2"], "G1", dealer=1, humans=[0], pacing=pacing, draws="Y2 Y3 Y4")
    ref.tick(0.0)
    out = [*ref.tick(3.0).accepted, *ref.tick(3.3).accepted]  # (and an automatic keep)
    assert {a.seat for a in out} == {0} and out[0].action == DRAW and ref.game.actor == 1


# ----- rounds -----------------------------------------------------------------------------------------


def round_over(dealer_is_bot: bool) -> Referee:
    """Three seats, one card each: the first player goes out at once."""
    if dealer_is_bot:  # seat 2 starts, wins, and deals next
        ref = table(["Y3", "B4", "R5"], "R1", dealer=1, humans=[0, 1], bots={2: Plain(["R5"])})
        ref.tick(0.0)
        assert accepted(ref.tick(0.5)) == [(-1, 2, "R5")]
    else:  # seat 1 (a person) starts, wins, and deals next
        ref = table(["Y3", "R5", "B4"], "R1", dealer=0, humans=[0, 1], bots={2: Plain()})
        ref.tick(0.0)
        assert accepted(ref.receive(1, P("R5"), 0, 0.5)) == [(0, 1, "R5")]
    assert ref.game.phase == "round_over"
    return ref


def test_a_bot_dealer_deals_after_every_connected_person_is_ready() -> None:
    ref = round_over(dealer_is_bot=True)
    assert ref.next_deadline() is None and not ref.tick(100.0).accepted
    ref.ready(0, 101.0)
    assert ref.next_deadline() is None
    ref.ready(1, 102.0)
    assert ref.next_deadline() == 102.5  # its own pause, from when the last one was ready
    assert accepted(ref.tick(102.5)) == [(-1, 2, "deal")] and ref.game.round_no == 2


def test_a_dropped_person_does_not_block_the_deal() -> None:
    ref = round_over(dealer_is_bot=True)
    ref.ready(0, 1.0)
    assert ref.drop(1, 2.0).presence == (PresenceChange(1, "away"),)
    assert ref.next_deadline() == 2.5
    assert accepted(ref.tick(2.5)) == [(-1, 2, "deal")]


def test_a_person_dealer_waits_for_the_others_with_not_ready() -> None:
    ref = round_over(dealer_is_bot=False)
    early = ref.receive(1, DEAL, 1, 1.0)
    assert early.refusals[0].code == NOT_READY and "Player 1" in early.refusals[0].message
    ref.ready(0, 2.0)
    assert accepted(ref.receive(1, DEAL, 2, 3.0)) == [(2, 1, "deal")]


def test_the_simulator_stops_at_the_end_of_a_hand() -> None:
    game = Game(3, CLASSIC, secret=rng_secret(5))
    pacing = Pacing.instant()._replace(between_rounds=None)
    bots = {s: RandomBot(random.Random(s)) for s in range(3)}
    ref = Referee(game, bots=bots, humans=(), pacing=pacing)
    out = ref.tick(0.0)
    assert game.phase in ("round_over", "match_over") and ref.next_deadline() is None
    assert out.accepted and {a.seq for a in out.accepted} == {-1} and out.changed
    assert not ref.tick(1e9).accepted


# ----- seats held for dropped players -----------------------------------------------------------------


def test_a_dropped_seat_is_held_and_resumed() -> None:
    ref = table(["R5 R7", "B1 B2"], "R1", dealer=1, humans=[0])
    ref.tick(0.0)
    away = ref.drop(0, 5.0)
    assert away.presence == (PresenceChange(0, "away"),) and away.deadlines == Deadlines(holds=((0, 65.0),))
    assert ref.receive(0, P("R5"), 0, 6.0).refusals[0].code == "away"
    assert not ref.tick(30.0).accepted  # the game waits for the seat
    back = ref.resume(0, 30.0)
    assert back.presence == (PresenceChange(0, "back"),) and back.deadlines == Deadlines()
    assert accepted(ref.receive(0, P("R5"), 1, 31.0)) == [(1, 0, "R5")]


def test_when_the_hold_expires_a_bot_takes_the_seat_for_good() -> None:
    ref = table(["R5 R7", "B1 B2"], "R1", dealer=1, humans=[0])
    ref.tick(0.0)
    ref.drop(0, 5.0)
    assert ref.next_deadline() == 65.0
    out = ref.tick(65.0)
    assert out.presence == (PresenceChange(0, "bot"),)
    assert ref.next_deadline() == 65.5  # the stand-in takes its own pause
    assert [a.seat for a in ref.tick(65.5).accepted][:1] == [0]
    assert ref.resume(0, 70.0).refusals[0].code == SEAT_LOST
    assert ref.receive(0, DRAW, 0, 70.0).refusals[0].code == BOT_SEAT


def test_the_turn_timer_still_runs_while_a_seat_is_away() -> None:
    ref = table(["R5 R7", "B1 B2"], "R1", dealer=1, humans=[0], pacing=SLOW._replace(turn_timer=20.0),
                draws="Y1 Y2 Y3 Y4")
    ref.tick(0.0)
    ref.drop(0, 1.0)
    assert accepted(ref.tick(20.0))[:1] == [(-1, 0, "draw")]


# ----- the layer ----------------------------------------------------------------------------------------


def test_the_referee_imports_no_event_loop_no_ui_and_no_wire_format() -> None:
    code = "import json, sys; import unotui.table; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    bad = {"asyncio", "textual", "rich", "msgpack", "asyncssh", "unotui.net", "unotui.ui"}
    loaded = set(json.loads(out))
    assert not {m for m in loaded if any(m == b or m.startswith(b + ".") for b in bad)}
