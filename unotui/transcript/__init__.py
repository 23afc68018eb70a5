"""JSON transcripts and replay (``unotui replay``); imports only the engine."""

from .core import FORMAT, Transcript, TranscriptError, final_state, replay

__all__ = ["FORMAT", "Transcript", "TranscriptError", "final_state", "replay"]
