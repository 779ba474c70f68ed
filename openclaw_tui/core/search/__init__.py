"""Searching memory the way the agent ranks it."""
