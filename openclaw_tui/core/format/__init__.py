"""The memory file format: parsing, fields, layouts and minimal edits."""
