"""Between the front end and a game: the controller interface and its local implementation.

Nothing here imports Textual, so a network client, the tests and the benchmark can use
it without a screen.  See ``docs/ui.md``.  The package re-exports nothing: each name is
imported from its module (so that importing one, say the bot names, loads no event loop).
"""
