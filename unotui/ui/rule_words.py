"""The rules' names and one-line explanations: said once, for the help and the forms.

The help screen, the house rules screen and the lobby's new-table form each named the
rules in their own way (``Seven o``, ``Uno penalty``, ``Jump in`` beside the help's
``Seven-O``, ``UNO penalty``, ``Jump-in``), and no form said what a field does.  Every
one of them now takes a rule's label and its explanation from :data:`FIELDS`.
"""

from __future__ import annotations

__all__ = ["FIELDS", "label"]

#: a field's key (a ``Rules`` attribute, or a setting) -> (label, what it does, in a line)
FIELDS: dict[str, tuple[str, str]] = {
    "name": ("Your name", "What the table calls you (1-16 characters)."),
    "table_name": ("Table name", "What the lobby's list calls the table."),
    "bots": ("Computer players", "How well the computer players play."),
    "level": ("Their level", "How well the computer players play."),
    "players": ("Players at the table", "You and the computer players: 2 to 10 seats."),
    "seats": ("Seats", "Seats at the table, yours included: 2 to 10."),
    "bots_count": ("Computer players", "Seats they take; the rest wait for people to join."),
    "theme": ("Theme", "The colours of cards and screen (t cycles them anywhere)."),
    "preset": ("Preset", "A set of rules to start from; the fields below then change it."),
    "stacking": ("Stacking", "off: a draw card is taken; official: +2 on +2, +4 on +4; "
                             "cross: +2 and +4 on each other."),
    "scoring": ("Scoring", "standard: the winner scores the others' cards; lowest: each "
                           "scores their own, lowest wins; elimination: the target puts you out."),
    "target_score": ("Match to", "The score that ends the match (500 is the official rules)."),
    "hand_size": ("Hand size", "Cards dealt to each player (7 in the official rules)."),
    "uno_penalty": ("UNO penalty", "Cards drawn when caught without calling UNO."),
    "custom_wilds": ("Customizable wilds", "WC cards in the deck, each playing the rule below."),
    "swap_hands": ("Swap hands wilds", "WX cards: swap hands with a player you choose."),
    "shuffle_hands": ("Shuffle hands wilds", "WH cards: all hands shuffled and dealt out again."),
    "challenge": ("Challenge W+4", "A Wild Draw Four may be challenged: a bluff draws 4, "
                                   "a wrong challenge 6."),
    "no_bluffing": ("No bluffing", "A Wild Draw Four may be played only without the colour in play."),
    "draw_to_match": ("Draw until playable", "Draw until a card can be played, not just one."),
    "forced_play": ("Forced play", "A drawn card that can be played must be played."),
    "jump_in": ("Jump-in", "Play a card identical to the top one out of turn (j)."),
    "seven_o": ("Seven-O", "A 7 swaps hands with a player you choose; a 0 passes every hand on."),
    "teams": ("Teams", "Partners sit across the table and win together (4, 6, 8 or 10 players)."),
    "custom": ("Custom wild effects", "What the customizable wild does, in the order chosen "
                                      "(Space picks; none: a plain Wild)."),
    "custom_text": ("Custom wild text", "The rule in your own words, shown to everyone (the "
                                        "table does not enforce it)."),
    "timer": ("Turn timer", "Time for each decision; then the table acts for the player."),
    "private": ("Private (join by code)", "Not listed in the lobby: share its code."),
}


def label(key: str) -> str:
    """The label of field ``key``."""
    return FIELDS[key][0]
