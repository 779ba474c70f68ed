"""Changing entries: edits as plans, lifecycle rules, redaction, undo."""
