"""The git repository: the id-aware three-way merge (the merge driver), history by entry, the entry index,
commits, the demo repository."""
