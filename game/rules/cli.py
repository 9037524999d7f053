"""What the rules' command-line tools (``python -m game.rules.track|layout``) share."""

from __future__ import annotations

import sys
from collections.abc import Callable


def run_cli(main: Callable[[], int]) -> None:
    """Run ``main`` and exit with its status; a closed output pipe (``| head``) is no error."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stdout = None  # nothing more can be written
        code = 0
    raise SystemExit(code)
