"""Changing entries: edits as plans (raw edits too), archive and gc rules, undo."""
