"""The pure rules library shared by both games.

Nothing under ``game.rules`` may import pygame, sockets, asyncio, threads, clocks or files:
a game is its configuration, its seed and its list of plays, and replaying them rebuilds
every state. ``tests/test_purity.py`` enforces the imports.
"""
