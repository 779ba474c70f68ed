"""Merging memory branches: the id-aware merge driver, conflict markers, merge sessions."""
