"""Tee Table: card-driven peg races (the track game) and Trash (the layout game)."""
