"""A seat's shuffle check (unotui.engine.verify.ShuffleWatch) and the line the round summary shows."""

from __future__ import annotations

import random

from unotui.engine import Action, Game, Phase, Play, Rules, ShuffleWatch, seat_view
from unotui.engine.shuffle import round_key
from unotui.protocol import ViewDecoder, ViewEncoder, encode
from unotui.ui.screens.results import shuffle_line
from unotui.ui.words import verdict_text


def play_round(game: Game, seed: int, watch: ShuffleWatch, seat: int) -> None:
    pick = random.Random(seed)
    watch.observe(seat_view(game, seat))
    while game.phase is not Phase.ROUND_OVER:
        legal = game.legal_actions(game.actor)
        plays: list[Action] = [a for a in legal if isinstance(a, Play)] or list(legal)
        game.apply(game.actor, plays[pick.randrange(len(plays))])
        watch.observe(seat_view(game, seat))


def test_an_honest_round_is_verified_and_shown_quietly() -> None:
    game = Game(3, Rules.preset("classic").with_(target_score=100_000), seed=11)
    watch = ShuffleWatch()
    play_round(game, 1, watch, 0)
    verdict = watch.verdict(1)
    assert verdict is not None and verdict.ok is True
    text, alarm = verdict_text(verdict)
    assert "Shuffle verified" in text and not alarm
    assert verdict.shuffles >= 1
    assert "Shuffle verified" in shuffle_line(verdict).plain


def test_a_commitment_swapped_at_the_end_is_a_mismatch() -> None:
    """The host re-stacks: it reveals a different key with a matching new commitment."""
    game = Game(3, Rules.preset("classic").with_(target_score=100_000), seed=12)
    watch = ShuffleWatch()
    play_round(game, 2, watch, 1)
    honest = seat_view(game, 1)
    fresh = ShuffleWatch()
    fresh.observe(seat_view(game, 1)._replace(revealed_key=""))  # the commit seen earlier
    other = Game(3, Rules.preset("classic"), seed=99)
    forged = honest._replace(
        deck_commit=other.deck_commit,
        revealed_key=round_key(other.shuffler.secret, 1).hex(),
    )
    verdict = fresh.observe(forged)
    assert verdict is not None and verdict.ok is False and "changed" in verdict.reason
    # without the earlier commitment the cards themselves give it away
    verdict = ShuffleWatch().observe(forged)
    assert verdict is not None and verdict.ok is False
    text, alarm = verdict_text(verdict)
    assert alarm and "SHUFFLE MISMATCH" in text and "SHUFFLE MISMATCH" in shuffle_line(verdict).plain


def test_a_tampered_deck_order_is_a_mismatch() -> None:
    """A host that commits to its key's shuffle but deals a stacked deck is shown loudly."""
    from unotui.engine import parse_cards
    from unotui.engine.shuffle import Label, commitment, shuffled

    rules = Rules.preset("classic").with_(hand_size=3, target_score=100_000)
    game = Game(2, rules, seed=3, dealer=0, deck=parse_cards("R1 R2 R3 R4 R5 R6 G7"))
    key = round_key(game.shuffler.secret, 1)
    honest_commit = commitment(key, shuffled(key, Label.DEAL, 1, game._deck))
    watch = ShuffleWatch()
    pick = random.Random(3)
    while True:
        view = seat_view(game, 0)._replace(deck_commit=honest_commit)
        if game.phase is Phase.ROUND_OVER:
            view = view._replace(revealed_key=key.hex())
        watch.observe(view)
        if game.phase is Phase.ROUND_OVER:
            break
        legal = game.legal_actions(game.actor)
        plays: list[Action] = [a for a in legal if isinstance(a, Play)] or list(legal)
        game.apply(game.actor, plays[pick.randrange(len(plays))])
    verdict = watch.verdict(1)
    assert verdict is not None and verdict.ok is False
    assert verdict_text(verdict)[1]


def test_a_stacked_deck_has_no_commitment_and_is_not_checked() -> None:
    from unotui.engine import parse_cards

    game = Game(2, Rules.preset("classic").with_(hand_size=3), seed=3, dealer=0,
                deck=parse_cards("R1 R2 R3 R4 R5 R6 G7"))
    view = seat_view(game, 0)
    assert view.deck_commit == "" and view.revealed_key == ""
    assert "not checked" in verdict_text(None)[0]


def test_the_check_works_over_the_wire_and_the_key_never_leaks_early() -> None:
    """Through the protocol's snapshot and deltas: no frame carries the round key before
    the round is over; the decoded view at the end verifies."""
    game = Game(3, Rules.preset("classic").with_(target_score=100_000), seed=21)
    key = round_key(game.shuffler.secret, 1).hex()
    encoder, decoder, watch = ViewEncoder(), ViewDecoder(), ShuffleWatch()
    pick = random.Random(5)
    while True:
        message = encoder.update(seat_view(game, 2, encoder.log_from))
        assert message is not None
        frame = encode(message)
        view = decoder.apply(message)
        watch.observe(view)
        if game.phase is Phase.ROUND_OVER:
            assert view.revealed_key == key and key.encode() in frame
            break
        assert key.encode() not in frame
        legal = game.legal_actions(game.actor)
        plays: list[Action] = [a for a in legal if isinstance(a, Play)] or list(legal)
        game.apply(game.actor, plays[pick.randrange(len(plays))])
    verdict = watch.verdict(1)
    assert verdict is not None and verdict.ok is True
