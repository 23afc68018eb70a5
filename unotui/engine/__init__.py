"""The UNO rules engine: pure standard library, deterministic given its random source.

Public surface::

    from unotui.engine import Game, Rules, Card, Action, seat_view

See ``docs/architecture.md`` for how the layers fit together.
"""

from .actions import (
    ACCEPT,
    CALL_UNO,
    CHALLENGE,
    DEAL,
    DRAW,
    KEEP,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    ChooseTarget,
    Deal,
    Discard,
    Draw,
    Keep,
    Play,
    play,
)
from .cards import ALL_CARDS, COLOURS, Card, Colour, Rank, cards_str, most_held_colour, parse_cards
from .deck import build_deck, deal_order
from .errors import (
    BadChoiceError,
    CardNotInHandError,
    IllegalActionError,
    NoSuchSeatError,
    NotYourTurnError,
    ParseError,
    RulesError,
    UnoError,
    UnplayableCardError,
    WrongPhaseError,
)
from .events import Event, EventKind
from .flow import ENDED_PHASES, Phase
from .game import Game
from .rules import EFFECTS, PRESETS, CustomRule, Effect, Rules, Scoring, Stacking
from .shuffle import ShuffleSource
from .verify import ShuffleWatch, Verdict, verify_round
from .views import SeatView, seat_view, seat_views, spectator_view

__all__ = [
    "ACCEPT", "ALL_CARDS", "CALL_UNO", "CHALLENGE", "COLOURS", "DEAL", "DRAW", "EFFECTS",
    "ENDED_PHASES", "KEEP", "PRESETS", "Accept", "Action", "BadChoiceError", "CallUno", "Card",
    "CardNotInHandError", "Catch", "Challenge", "ChooseColour", "ChooseTarget", "Colour",
    "CustomRule", "Deal", "Discard", "Draw", "Effect", "Event", "EventKind", "Game", "IllegalActionError",
    "Keep", "NoSuchSeatError", "NotYourTurnError", "ParseError", "Phase", "Play", "Rank",
    "Rules", "RulesError", "Scoring", "SeatView", "ShuffleSource", "ShuffleWatch", "Stacking", "UnoError",
    "UnplayableCardError", "Verdict", "WrongPhaseError", "build_deck", "cards_str",
    "deal_order", "most_held_colour", "parse_cards",
    "play", "seat_view", "seat_views", "spectator_view", "verify_round",
]
