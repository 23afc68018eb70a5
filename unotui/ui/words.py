"""The UI's words: log events, cards, refusals and shuffle verdicts as sentences, and
other people's names made safe to show.

No Textual here (the table, the log and the round summary use it, and the tests read
the sentences without a screen).  Text from elsewhere is cleaned with the one
:func:`unotui.protocol.text.clean` before it becomes part of a sentence; renderers must
still show the result as literal text (``rich.text.Text``, never markup).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Card, Colour, Event, EventKind, Verdict
from ..protocol.text import clean

__all__ = [
    "NAME_LIMIT",
    "card_name",
    "describe",
    "describe_card",
    "direction_name",
    "display_name",
    "refusal",
    "verdict_text",
]


#: the most characters of a name shown (names from elsewhere may be longer than ours)
NAME_LIMIT = 24


def display_name(name: str) -> str:
    """Another player's name made safe to show: cleaned, one line, at most NAME_LIMIT."""
    return clean(name, NAME_LIMIT) or "?"


_RANK_WORDS = {"S": "Skip", "R": "Reverse", "+2": "Draw Two"}
_WILD_WORDS = {
    "W": "Wild",
    "W+4": "Wild Draw Four",
    "WX": "Wild Swap Hands",
    "WH": "Wild Shuffle Hands",
    "WC": "Customizable Wild",
}


def describe_card(card: Card) -> str:
    """``"red 5 (R5)"``, ``"Wild Draw Four (W+4)"``: words plus the compact form."""
    return f"{card_name(card)} ({card.text})"


def direction_name(direction: int) -> str:
    """The direction of play in words, the same everywhere (panel, log, docs).

    Seats are numbered clockwise, as at a real table where play starts to the dealer's
    left, so ``+1`` is ``clockwise``.
    """
    return "clockwise" if direction > 0 else "counter-clockwise"


def card_name(card: Card) -> str:
    """A card in words: ``red 5``, ``blue Skip``, ``Wild``."""
    if card.colour is None:
        return _WILD_WORDS.get(card.text, card.text)
    sym = card.rank.symbol
    return f"{card.colour.name.lower()} {_RANK_WORDS.get(sym, sym)}"


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)


def describe(event: Event, names: Sequence[str], viewer: int | None) -> str:
    """One readable sentence for ``event`` as seen by ``viewer`` (names already clean)."""

    def who(seat: int) -> str:
        if seat == viewer:
            return "You"
        if 0 <= seat < len(names):
            return names[seat]
        return "Someone"

    def whom(seat: int) -> str:
        return "you" if seat == viewer else who(seat)

    def whose(seat: int) -> str:
        return "your" if seat == viewer else f"{who(seat)}'s"

    k, s = event.kind, event.seat
    you = s == viewer and viewer is not None
    card = event.cards[0] if event.cards else None
    if k == EventKind.DEAL:
        return f"Round {event.value}: {who(s)} dealt."
    if k == EventKind.DEALER:
        return f"{who(s)} drew {card.text if card is not None else 'a card'} for the deal."
    if k == EventKind.FLIP:
        if card is None:
            return "The first card was turned."
        return f"The first card is {describe_card(card)}."
    if k == EventKind.REFLIP:
        return "The first card was a Wild Draw Four: it went back into the pile."
    if k == EventKind.PLAY:
        uno = " and called UNO!" if event.value else "."
        return f"{who(s)} played {'a card' if card is None else describe_card(card)}{uno}"
    if k == EventKind.JUMP:
        if card is None:
            return f"{who(s)} jumped in!"
        return f"{who(s)} jumped in with {describe_card(card)}!"
    if k == EventKind.DRAW:
        n = event.value
        what = f"{n} card" + ("s" if n != 1 else "")
        why = {
            "penalty": " as a penalty",
            "uno": " for not calling UNO",
            "challenge": " after the challenge",
            "effect": " (custom wild)",
            "first": " (the first card was a Draw Two)",
            "turn": "",
        }.get(event.note, "")
        shown = f": {_cards(event.cards)}" if event.cards else ""
        return f"{who(s)} drew {what}{why}{shown}."
    if k == EventKind.KEEP:
        if card is None:
            return f"{who(s)} kept the drawn card."
        return f"{who(s)} kept {describe_card(card)}."
    if k == EventKind.PASS:
        return f"{who(s)} could not draw (no cards left) and passed."
    if k == EventKind.SKIP:
        return f"{who(s)} {'lose' if you else 'loses'} a turn."
    if k == EventKind.REVERSE:
        return f"Direction reversed: play now goes {direction_name(event.value)}."
    if k == EventKind.COLOUR:
        return f"{who(s)} named {Colour(event.value).name.lower()}."
    if k == EventKind.CHALLENGE:
        verdict = "guilty" if event.value else "innocent"
        return f"{who(s)} challenged {whose(event.target)} Wild Draw Four: {verdict}!"
    if k == EventKind.REVEAL:
        if event.cards:
            return f"{who(s)} held: {_cards(event.cards)} (shown to {whom(event.target)} only)."
        return f"{who(s)} showed {'your' if you else 'their'} hand to {whom(event.target)}."
    if k == EventKind.ACCEPT:
        return f"{who(s)} accepted the Wild Draw Four."
    if k == EventKind.UNO:
        return f"{who(s)} called UNO!"
    if k == EventKind.CATCH:
        return f"{who(s)} caught {whom(event.target)} not calling UNO!"
    if k == EventKind.SWAP:
        return f"{who(s)} swapped hands with {whom(event.target)}."
    if k == EventKind.ROTATE:
        return "Every hand passed to the next player."
    if k == EventKind.SHUFFLE:
        return f"{who(s)} shuffled all hands together and dealt them out again."
    if k == EventKind.EFFECT:
        return f"Custom wild: {event.note.replace('_', ' ')}."
    if k == EventKind.DISCARD:
        shown = _cards(event.cards) if event.cards else "cards"
        return f"{who(s)} discarded {shown}."
    if k == EventKind.RESHUFFLE:
        return f"The discard pile ({event.value} cards) was shuffled into a new draw pile."
    if k == EventKind.ROUND:
        pts = f" and scored {event.value} points" if event.value else ""
        return f"{who(s)} won the round{pts}!"
    if k == EventKind.ELIMINATED:
        return f"{who(s)} reached {event.value} points and {'are' if you else 'is'} out."
    if k == EventKind.MATCH:
        return f"{who(s)} won the match!"
    return f"{k} {s}"


#: a refused intent in words, per the engine's stable error code (errors.py); ``{}`` is
#: the engine's own detail where it is worth reading (it names seats by number otherwise)
_REFUSALS = {
    "unplayable": "You can't play that: {}.",
    "wrong_phase": "Not now: {}.",
    "not_your_turn": "It's not your turn.",
    "not_in_hand": "You don't hold that card.",
    "bad_choice": "That is not one of the choices now.",
    "no_such_seat": "There is no such seat at this table.",
}


def refusal(code: str, message: str, waiting_for: str | None = None) -> str:
    """A refused intent as a sentence for a person: never the bare code.

    Args:
        code: the engine's stable error code (``unplayable``, ``not_your_turn``, ...).
        message: the engine's message; kept where it helps (what the card does not match).
        waiting_for: for ``not_your_turn``, the (clean) name of the player to wait for.
    """
    if code == "not_your_turn" and waiting_for:
        return f"It's not your turn: wait for {waiting_for}."
    detail = clean(message, 200, collapse=False).strip().rstrip(".")
    if code == "wrong_phase":
        detail = detail.replace("now is the time to", "it is time to")
    if code == "too_early" and detail:  # the referee's own sentence: when catching opens
        return f"{detail[:1].upper()}{detail[1:]}."
    template = _REFUSALS.get(code)
    if template is None:
        return f"Not allowed: {detail}." if detail else "Not allowed."
    return template.format(detail) if "{}" in template and detail else template.replace(": {}", "")


def verdict_text(verdict: Verdict | None) -> tuple[str, bool]:
    """What the round summary shows of a round's shuffle check, and whether it is an
    alarm (a line of its own)."""
    if verdict is None or verdict.ok is None:
        return "Shuffle not checked", False
    if verdict.ok:
        return "\u2713 Shuffle verified", False
    return f"!! SHUFFLE MISMATCH: {verdict.reason}. The host's deck did not follow its commitment.", True
