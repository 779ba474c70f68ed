"""``python -m openclaw_tui.cli``: the command line."""

import sys

from . import main

sys.exit(main())
