"""The review inbox: what changed in a memory folder since the user last reviewed it (no Textual here)."""
