"""Files on disk: safe writes, loading, watching, reloading, the external editor."""
