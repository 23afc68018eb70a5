"""LAN play over TCP: the host (:class:`~unotui.net.host.Host`, one
:class:`~unotui.net.room.Room` per table) and the remote seat
(:class:`~unotui.net.remote.RemoteGame`).

This package is the asyncio shell around three sans-I/O parts: the protocol sessions
(:mod:`unotui.protocol`), the referee (:mod:`unotui.table`) and the engine's views.  It
imports no Textual (an import-linter contract checks it); the screens reach a remote game
only through the :class:`~unotui.client.controller.Controller` interface.
"""
