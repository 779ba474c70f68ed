"""The UI's session layer: plain Python (no Textual) between the screens and the core.

``Session`` (controller.py, with its parts loading.py, writing.py and
watching.py) owns what is loaded, what is selected, the undo stack, writes,
reloads and the watcher's own-write expectations;
``ProfileData`` (profiles.py) is one loaded profile as the UI shows it.
"""

from .controller import EntryTarget, ExternalChange, Refused, Session, WriteOutcome, relevant
from .profiles import ProfileData

__all__ = ["EntryTarget", "ExternalChange", "ProfileData", "Refused", "Session", "WriteOutcome", "relevant"]
