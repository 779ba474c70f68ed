"""Layout B: an OpenClaw workspace as the agent loads it and as a reviewer edits it."""
