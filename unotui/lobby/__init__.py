"""The public SSH lobby (``unotui serve``).

Its state (tables, presence, per-identity stats and ratings, bans, the message of the
day, an events log) lives behind one small interface, :class:`~unotui.lobby.store.LobbyStore`,
so that a later multi-machine lobby can swap the SQLite file for a shared server without
touching the screens.  Importing this package loads nothing: take what you need from its
modules.
"""
