"""``python -m game.launch ...``: the same as ``python main.py ...`` and ``tee-table ...``."""

import sys

from game.launch import main

sys.exit(main())
