"""unotui: UNO in the terminal.

Layers, from the bottom (each may import only those below it):

* ``unotui.engine``     the rules, pure standard library
* ``unotui.bots``       computer players; see only a seat's view
* ``unotui.transcript`` JSON transcripts and replay
* ``unotui.sim``        the bot-vs-bot simulator
* ``unotui.ui``         the Textual screens (the only layer that imports Textual)
"""

__version__ = "0.1.0"
