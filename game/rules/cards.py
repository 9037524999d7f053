"""Cards, decks and the project's own seeded shuffle, shared by both games.

A card is a small ``int`` so that hands, piles and decks are cheap to copy and compare:

* the joker is ``0``;
* any other card is ``rank * 4 + suit`` with rank 1..13 (A=1, J=11, Q=12, K=13) and suit
  0..3 (clubs, diamonds, hearts, spades), so ranks are ``card >> 2`` and suits ``card & 3``.

Several decks hold equal cards (two Aces of spades are the same ``int``); the games only ever
care about ranks and counts.

Text form: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` then suit ``C D H S``; the joker is ``JK``.
``10`` is accepted as a rank when parsing.

The shuffles do not use :mod:`random`: the project has one generator, SplitMix64
(:func:`splitmix64`), whose output is fixed by its definition, so the same seed deals the same
cards on every Python version and machine. Its whole state is one integer, which game states
store so that reshuffles replay exactly. Two Fisher-Yates shuffles are drawn from it, both here:
:func:`shuffle` (one draw per step: the track game, ``determinize`` of both games, and the
track engine's C core, which mirrors it) and :func:`shuffle_grouped` (several steps per draw:
the layout game's deals). They give different permutations, and each game's records were dealt
with its own, so both stay; ``tests/test_cards.py`` pins each to values worked out by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

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


# --------------------------------------------------------------------------------------------
# The one generator and its shuffles (both games, the CPU players; ``_fast.c`` mirrors it)

GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step on a bare 64-bit state: ``(output, new_state)``.

    The definition (Vigna's ``splitmix64.c``): add the golden gamma to the state, then mix it.
    Every draw of the project (:class:`Rng`, :func:`below`, both shuffles) goes through here.
    """
    state = (state + GOLDEN) & _MASK64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31), state


def output_below(limit: int, state: int) -> tuple[int, int]:
    """``(output, new_state)``: the first SplitMix64 output from ``state`` below ``limit``
    (the others are rejected, so ``output % m`` is unbiased for every ``m`` dividing
    ``limit``)."""
    while True:
        z, state = splitmix64(state)
        if z < limit:
            return z, state


def below(n: int, state: int) -> tuple[int, int]:
    """``(value, new_state)``: a uniform integer in ``0..n-1`` (rejection sampling, no modulo
    bias), the draw of :meth:`Rng.below` on a bare state."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    z, state = output_below((1 << 64) - ((1 << 64) % n), state)
    return z % n, state


def shuffle(items: MutableSequence[T], state: int) -> int:
    """Fisher-Yates over ``items`` in place, one :func:`below` draw per step (``i`` from the
    end down to 1, swap with ``below(i + 1)``); returns the new generator state.

    The track game's deals and reshuffles and every ``determinize`` use this one (the C core
    of the track engine does the same steps)."""
    for i in range(len(items) - 1, 0, -1):
        j, state = below(i + 1, state)
        items[i], items[j] = items[j], items[i]
    return state


_Group = tuple[int, int, tuple[tuple[int, int], ...]]
_GROUP_CACHE: dict[int, list[_Group]] = {}


def _groups(n: int) -> list[_Group]:
    """Fisher-Yates steps ``n, n-1, ..., 2`` grouped so that one 64-bit output serves a group:
    ``(limit, product, ((size, size - 1), ...))`` with ``product`` (of the group's sizes) at
    most 2**60."""
    g = _GROUP_CACHE.get(n)
    if g is None:
        g = []
        i = n - 1
        while i > 0:
            prod = 1
            ms = []
            while i > 0 and prod * (i + 1) <= 1 << 60:
                prod *= i + 1
                ms.append((i + 1, i))
                i -= 1
            g.append(((1 << 64) - ((1 << 64) % prod), prod, tuple(ms)))
        _GROUP_CACHE[n] = g
    return g


def shuffle_grouped(items: MutableSequence[T], state: int) -> int:
    """Fisher-Yates over ``items`` in place with several steps per 64-bit output; returns the
    new generator state. The layout game deals with this one.

    The same steps as :func:`shuffle` (``i`` from the end down to 1, swap with a uniform
    ``j <= i``), but each output below ``limit`` (a multiple of the product of a group's sizes;
    others are rejected) is reduced modulo the product and read as mixed-radix digits, one
    uniform index per step: unbiased, and about 3.5 times faster. It gives other permutations
    than :func:`shuffle` for the same state, so each game keeps the one its records were dealt
    with.
    """
    for limit, prod, ms in _groups(len(items)):
        x, state = output_below(limit, state)
        x %= prod
        for m, i in ms:
            j = x % m
            x //= m
            items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int | str) -> int:
    """The generator state a game seed starts from: an int as is, a text (a table code)
    hashed with 64-bit FNV-1a over its UTF-8 bytes; then stirred once (one step) so that small
    seeds do not start close together."""
    if isinstance(seed, str):
        h = 1469598103934665603
        for b in seed.encode("utf-8"):
            h = ((h ^ b) * 1099511628211) & _MASK64
        seed = h
    return splitmix64(seed & _MASK64)[1]


class Rng:
    """SplitMix64 as an object whose whole state is one 64-bit int (``state``): the methods
    are the module's functions on that state."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    @classmethod
    def from_seed(cls, seed: int | str) -> Rng:
        """A generator for a game seed (an int, or text such as a table code)."""
        return cls(seed_state(seed))

    def next_u64(self) -> int:
        z, self.state = splitmix64(self.state)
        return z

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling: no modulo bias)."""
        v, self.state = below(n, self.state)
        return v

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place (:func:`shuffle`)."""
        self.state = shuffle(items, self.state)

    def choice(self, items: Sequence[T]) -> T:
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
