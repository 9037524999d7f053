"""Cards, decks and the project's own seeded shuffle, shared by both games.

A card is a small ``int`` so that hands, piles and decks are cheap to copy and compare:

* the joker is ``0``;
* any other card is ``rank * 4 + suit`` with rank 1..13 (A=1, J=11, Q=12, K=13) and suit
  0..3 (clubs, diamonds, hearts, spades), so ranks are ``card >> 2`` and suits ``card & 3``.

Several decks hold equal cards (two Aces of spades are the same ``int``); the games only ever
care about ranks and counts.

Text form: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` then suit ``C D H S``; the joker is ``JK``.
``10`` is accepted as a rank when parsing.

The shuffle does not use :mod:`random`: :class:`Rng` is SplitMix64, whose output is fixed by
its definition, so the same seed deals the same cards on every Python version and machine.
Its whole state is one integer, which game states store so that reshuffles replay exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence

JOKER = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS = tuple(range(1, 14))
SUITS = (0, 1, 2, 3)
RANK_TEXT = "?A23456789TJQK"
SUIT_TEXT = "CDHS"
SUIT_SYMBOL = "♣♦♥♠"
RANK_NAMES = {
    0: "Joker", 1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
    8: "Eight", 9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen", 13: "King",
}

_MASK64 = (1 << 64) - 1


class CardError(ValueError):
    """A card or deck description that cannot be read."""


def card(rank: int, suit: int = 0) -> int:
    """The card of ``rank`` (1..13, or 0 for the joker) and ``suit`` (0..3)."""
    if rank == JOKER:
        return JOKER
    if not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise CardError(f"no card has rank {rank} and suit {suit}")
    return rank * 4 + suit


def rank(c: int) -> int:
    """Rank of a card: 0 for the joker, 1..13 otherwise."""
    return c >> 2


def suit(c: int) -> int:
    """Suit of a card (0..3); the joker has suit 0."""
    return c & 3


def is_joker(c: int) -> bool:
    return c == JOKER


def card_text(c: int) -> str:
    """``"AS"``, ``"TH"``, ``"JK"``."""
    if c == JOKER:
        return "JK"
    r = c >> 2
    if not 1 <= r <= 13:
        raise CardError(f"{c!r} is not a card")
    return RANK_TEXT[r] + SUIT_TEXT[c & 3]


def card_name(c: int) -> str:
    """A name for people: ``"Ace of spades"``, ``"Joker"``."""
    if c == JOKER:
        return "Joker"
    return f"{RANK_NAMES[c >> 2]} of {('clubs', 'diamonds', 'hearts', 'spades')[c & 3]}"


def parse_card(text: str) -> int:
    """Read ``"AS"``, ``"10h"``, ``"JK"`` (case-insensitive)."""
    t = text.strip().upper()
    if t in ("JK", "JOKER", "*"):
        return JOKER
    if len(t) < 2:
        raise CardError(f"{text!r} is not a card (expected rank then suit, like AS or TH)")
    r_text, s_text = t[:-1], t[-1]
    if r_text == "10":
        r_text = "T"
    if len(r_text) != 1 or r_text not in RANK_TEXT[1:]:
        raise CardError(f"{text!r} has no rank {r_text!r} (A 2-9 T J Q K)")
    if s_text not in SUIT_TEXT:
        raise CardError(f"{text!r} has no suit {s_text!r} (C D H S)")
    return RANK_TEXT.index(r_text) * 4 + SUIT_TEXT.index(s_text)


def cards_text(cards: Iterable[int], sep: str = ",") -> str:
    return sep.join(card_text(c) for c in cards)


def parse_cards(text: str, sep: str = ",") -> list[int]:
    t = text.strip()
    if not t or t == "-":
        return []
    return [parse_card(p) for p in t.split(sep)]


def make_deck(decks: int = 1, jokers_per_deck: int = 0) -> list[int]:
    """``decks`` standard 52-card decks in order, each with ``jokers_per_deck`` jokers."""
    if decks < 1:
        raise CardError(f"a pack needs at least one deck, not {decks}")
    if jokers_per_deck < 0:
        raise CardError("a deck cannot hold a negative number of jokers")
    one = [r * 4 + s for r in RANKS for s in SUITS] + [JOKER] * jokers_per_deck
    return one * decks


class Rng:
    """SplitMix64: a tiny deterministic generator whose whole state is one 64-bit int."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    @classmethod
    def from_seed(cls, seed: int | str) -> Rng:
        """A generator for a game seed (an int, or text such as a table code)."""
        if isinstance(seed, str):
            h = 1469598103934665603  # FNV-1a over the UTF-8 bytes
            for b in seed.encode("utf-8"):
                h = ((h ^ b) * 1099511628211) & _MASK64
            seed = h
        rng = cls(seed)
        rng.next_u64()  # stir once so that small seeds do not start close together
        return rng

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence):
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def fork(self) -> Rng:
        """An independent generator derived from this one (advances this one)."""
        return Rng(self.next_u64())


def shuffled(cards: Iterable[int], rng: Rng) -> list[int]:
    out = list(cards)
    rng.shuffle(out)
    return out
