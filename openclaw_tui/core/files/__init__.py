"""Files on disk: profiles and their folders, safe writes, loading, watching, reloading, the external editor."""
