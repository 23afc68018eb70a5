"""Tables and the seats at them: the table core (:class:`~unotui.net.core.TableCore`)
and its adapters, the LAN host (:class:`~unotui.net.host.Host`, one
:class:`~unotui.net.room.Room` per table) and solo play (:class:`~unotui.net.local.LocalGame`,
a table core in this process), and the seat's side of a game, the
:class:`~unotui.net.controller.Controller` interface that a local and a remote seat
(:class:`~unotui.net.remote.RemoteGame`) implement alike.

The adapters are the asyncio shell around sans-I/O parts: the table core, the protocol
sessions (:mod:`unotui.protocol`), the referee (:mod:`unotui.table`) and the engine's
views.  Nothing here imports the UI, the lobby, the SSH door or Textual (an import-linter
contract checks it); the screens reach any game only through the controller interface.
"""
