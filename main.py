"""Tee Table: launch the game (``python main.py --help`` lists the options)."""

from game.launch import main

if __name__ == "__main__":
    raise SystemExit(main())
