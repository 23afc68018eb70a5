"""JSON transcripts and replay (``unotui replay``); imports only the engine."""

from .core import FORMAT, FORMATS, Transcript, TranscriptError, final_state, replay, transcript_of

__all__ = ["FORMAT", "FORMATS", "Transcript", "TranscriptError", "final_state", "replay", "transcript_of"]
