"""Layout B, first-class: an OpenClaw workspace as the agent loads it and as a reviewer edits it.

``bootstrap`` what is injected (and cut), ``openclaw_config`` the workspace's openclaw.json,
``model`` MEMORY.md / USER.md / daily logs as rows, ``edits`` lossless changes, ``distil`` daily
logs (and profile context files) into long-term memory, ``dreaming`` the promotion review queue.
"""
