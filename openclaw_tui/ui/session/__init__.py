"""The UI's session layer, plain Python between the screens and the core: ``Session`` (controller.py)
and ``ProfileData`` (profiles.py), one loaded profile as the UI shows it."""

from .controller import EntryTarget, ExternalChange, Refused, Session, WriteOutcome, relevant
from .profiles import ProfileData

__all__ = ["EntryTarget", "ExternalChange", "ProfileData", "Refused", "Session", "WriteOutcome", "relevant"]
