"""Merging memory branches: conflict markers, merge sessions, references renumbered by a merge."""
