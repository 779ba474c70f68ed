"""The git repository: history by entry, the entry index, commits, the demo repository."""
