"""The in-game Rules pages: one page per rule set, each read in about a minute.

Written from ``spec/track.md``, ``spec/layout.md`` and ``spec/table.md``. Lines starting with
``# `` are headings; other lines are paragraphs (``- `` for bullets); a line starting with two
spaces continues the line before it (see :func:`paragraphs`).
"""

from __future__ import annotations

PAGES: dict[str, tuple[str, str]] = {
    "tees": ("Tees", """# The race
Get all five of your pegs from start, once round the board and into your five-hole home. Play in
  teams of two (4 or 6 players); a team wins when every peg of its colours is home.
# Cards (one deck, no jokers; deal 5-4-4, or 4-4 with six players)
- A: bring a peg out, or 1 forward.  K: bring a peg out only.  Q: 12 forward.
- J: swap one of your pegs on the track with any other colour's peg on the track.
- 3: one peg 3 backward (never behind its come-out hole).  2, 4-10: that many forward.
# Moving
- Never pass or land on your own pegs, nor pass your partner's. Land on an opponent: it goes
  back to start. Land on your partner only when nothing else is legal.
- Home needs the exact count. You must play if you can; with no playable card your hand folds
  until the next deal. When your pegs are home, move your partner's."""),
    "classic": ("Classic (Pegs and Jokers)", """# The race
Five pegs each: out of start, once round, into home. Teams, head to head, free-for-all or solo.
# Your turn: draw one (six in hand), then play one
- A: come out or 1.  J, Q, K: come out or 10.  2-6, 9, 10: that many forward.
- 7: 7 forward, or split between two of your pegs (1+6, 2+5, 3+4), both forward.
- 8: 8 backward.  Joker: jump one of your pegs onto any track hole holding another colour.
# Moving
- Use the full count. Never land on or pass your own colour; pass others freely.
- Land on an opponent: back to start. Land on your partner: it jumps to its in-spot, ready to go
  home.
- Turn into home only moving forward through your in-spot, with an exact count. Pegs in home
  only move forward.
- You must move if you can (jokers are never forced); if nothing moves, discard a card."""),
    "team": ("Team", """# Like Classic, played as one team
Hold five cards: play, move, then draw. If nothing can move, discard, then draw.
# What changes
- You may move any peg of your team on every turn, and bring out any team peg with A, J, Q or K.
- 7 and 9 may be split between any two team pegs. 9: 9 forward, or split with one part forward
  and one part backward (the backward part never enters home).
- A joker must bring a team peg out while any team start still holds one.
- Colour rules follow the peg that moves. A team wins when all its pegs are home."""),
    "solo": ("Solo against the clock", """# One player, five pegs, no jokers
Classic or Team rules with nobody to bump. Get all five pegs home in as few turns as you can.
# Counting
- Every turn counts, a forced discard too.
- Your best count for each rule set is kept in Records, with the seed that dealt it, so you can
  try the same deal again.
# Tips
- Bring pegs out early: a peg in start cannot use a 10.
- Use the 8 backward from just out of start: it takes a peg to its corner, three short of its
  in-spot, so a 4 to 8 forward lands it in home."""),
    "trash": ("Trash (the layout game)", """# The goal
Be the first to turn your layout of face-down cards into Ace, 2, 3 ... 10, one per place (top
  row A-5, bottom row 6-10).
# A turn
- Draw from the stock, or take the top discard.
- An Ace to 10 goes on its place; the face-down card there comes up and plays on, and so on.
- You stop on a Queen or King, a number whose place is already filled, or a number above your
  layout size; it goes on the discard pile.
- Jacks are wild: you choose a face-down place for each one. Your number card can replace a
  Jack, which then moves on.
# Winning
Fill every place to win the hand. The winner gets one place fewer next hand. Win a hand with a
  single place left to win the game."""),
    "table": ("At the table (LAN and hot seat)", """# Watching and taking a seat
Late? Join to watch: you see the table, never anyone's cards. Ask for a CPU seat; once the
  host says yes it is yours at the start of its next turn. A seat's points go to whoever
  holds it at the end; anyone who left it is listed as played, not won.
# On one screen
- A second person at the screen takes a CPU seat from Pause, then Sit here: it is theirs at
  the start of its next turn, and the cover hides each hand as for everyone.
# Leaving early
- From Pause, Leave table hands your seat to a CPU, or Leave my seat to a watcher."""),
}

#: The Rules page's order; ``table`` (watching, taking a seat) goes with every rule set.
ORDER = ("tees", "classic", "team", "solo", "trash", "table")

#: The words the table's rules say about watchers, exactly (``docs/seats.md``).
WATCH_RULE = ("Late? Join to watch: you see the table, never anyone's cards. Ask for a CPU "
              "seat; once the host says yes it is yours at the start of its next turn. A "
              "seat's points go to whoever holds it at the end; anyone who left it is listed "
              "as played, not won.")


def paragraphs(page: str) -> list[str]:
    """The page's text as headings and paragraphs, continuation lines joined."""
    out: list[str] = []
    for line in PAGES[page][1].splitlines():
        if line.startswith("  ") and out:
            out[-1] += " " + line.strip()
        elif line.strip():
            out.append(line)
    return out
