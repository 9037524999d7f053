"""The one small API both games implement (architecture principles 1 to 5).

Each game package (``game.rules.track``, ``game.rules.layout``) exposes a module-level object
``RULES`` that satisfies :class:`GameRules`; :mod:`game.rules.registry` names them. The table,
the CPU players, the network and the client only ever talk to a game through this protocol, so
both games are treated alike. The protocol **declares** every capability they use (OpenSpiel's
``GameType`` is the model): a caller never probes a rules object with ``getattr``/``hasattr``
nor keys behaviour on the game's name; a new fact the table needs becomes a declared attribute
here, implemented by both games.

Conventions shared by both games
--------------------------------
* **State** is an engine-owned value. ``apply`` never mutates the state it is given; it returns
  a new one. A state carries its config, its seed, the number of plays applied and the
  generator state, so ``replay(config, seed, plays)`` rebuilds it exactly.
* **Config** is a plain ``dict`` of JSON/msgpack-friendly values (``{"rules": "classic",
  "seats": 4, "mode": "teams", ...}``). ``normalize_config`` fills defaults and raises
  :class:`ConfigError` for anything malformed.
* **Play**: an engine object whose ``str()`` is its short notation token (python-chess's
  ``Move`` is the model). Plays are hashable, and a play equals another play of the same token
  and **never a string**: compare ``str(play) == token`` or parse the token first. Every API
  that takes a play accepts either a play object or its token string (and parses it); the log
  of a game is a list of ``(seat, token)`` pairs.
* **Events** are plain dicts with a ``"type"`` key and msgpack-friendly values, in the order
  they happened. They are the client's animation script. ``filter_events(events, seat)``
  removes what that seat may not know (for example the rank of a card another seat drew).
* **View** is a plain dict, msgpack-friendly: all that one seat may know. ``determinize`` turns a
  view back into a full state by dealing the unseen cards at random (consistently with the
  view), which is how CPU players and the client compute the legal plays of their own seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

Event = dict[str, Any]
View = dict[str, Any]
Config = dict[str, Any]


class TokenPlay:
    """The identity every play shares (the convention above): ``str(play)`` is its token, a
    play equals another play of the same token and never a string, and it hashes as its token.
    A subclass gives ``token`` (a slot or a property). The two games' tokens never meet (a
    track token always has a colon, a Trash token never), so a play of one game never equals
    a play of the other."""

    __slots__ = ()

    if TYPE_CHECKING:
        @property
        def token(self) -> str:
            """The play's notation token."""

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Play({self.token!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TokenPlay):
            return self.token == other.token
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.token)


class RulesError(Exception):
    """Base class of every error the rules raise. Raising one never changes any state."""


class ConfigError(RulesError):
    """A malformed or unsupported game configuration."""


class IllegalPlay(RulesError):
    """A play that the rules do not allow in this position."""


class NotYourTurn(IllegalPlay):
    """A play for a seat that is not the one to move."""


class GameOver(IllegalPlay):
    """A play after the game has ended."""


class NotationError(RulesError):
    """Text (a position or a play token) that cannot be read."""


class UnknownGame(ConfigError, LookupError):
    """A game name that :mod:`game.rules.registry` does not know."""


@runtime_checkable
class GameRules(Protocol):
    """What the table, CPU players, network and client need from a game."""

    # -- what the game is (declared facts: read them, never probe) ------------------------
    name: str
    """The registry name: ``"track"`` or ``"layout"`` (``game.rules.registry.GAMES``)."""
    title: str
    """The game's name for people (``"Track"``, ``"Trash"``)."""
    min_seats: int
    max_seats: int
    """The seat counts ``normalize_config`` accepts (some rule sets narrow them further)."""
    hides_hands_from_neighbours: bool
    """True when a seat's view holds cards its neighbours may not see (a hand), so a screen
    shared by several people must be covered between their turns; False when every card a seat
    sees is public (the layout game: a face-down card is hidden from its owner too)."""

    # -- setup ---------------------------------------------------------------------------------
    def normalize_config(self, config: Mapping[str, Any]) -> Config: ...

    def new_game(self, config: Mapping[str, Any], seed: int) -> Any: ...

    def start(self, config: Mapping[str, Any], seed: int) -> tuple[Any, list[Event]]:
        """``new_game`` plus the events of the opening deal, in order (what the table animates
        before the first play); ``start(c, s)[0] == new_game(c, s)``."""
        ...

    def seat_count(self, state: Any) -> int: ...

    def teams(self, state: Any) -> list[list[int]]:
        """Seats grouped by team; a free-for-all has one seat per team."""
        ...

    def to_move(self, state: Any) -> int | None:
        """The seat that must decide now, or ``None`` once the game is over."""
        ...

    def legal_plays(self, state: Any) -> list[Any]:
        """Every legal play of the seat to move, complete, in a deterministic order."""
        ...

    def legal_tokens(self, state: Any) -> list[str]:
        """``[str(p) for p in legal_plays(state)]``, in the same order, computed the fast way
        (no play objects where the engine can avoid them)."""
        ...

    def parse_play(self, state: Any, token: str) -> Any: ...

    def check(self, state: Any, seat: int, play: Any) -> Any:
        """Return the play object if ``seat`` may make ``play`` now; raise otherwise."""
        ...

    def apply(self, state: Any, seat: int, play: Any) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, seat: int | None) -> View:
        """All that ``seat`` may know (``None``: a spectator, who sees no hand)."""
        ...

    def filter_events(self, events: Sequence[Event], seat: int | None) -> list[Event]: ...

    def determinize(self, view: Mapping[str, Any], seed: int) -> Any:
        """A full state consistent with ``view``, unseen cards dealt at random."""
        ...

    def outcome(self, state: Any) -> dict[str, Any] | None:
        """``None`` while the game goes on; else ``{"winners": [seats], ...}``."""
        ...

    def replay(
        self, config: Mapping[str, Any], seed: int, plays: Iterable[tuple[int, str]]
    ) -> Any: ...

    def format_position(self, state: Any) -> str: ...

    def parse_position(self, text: str) -> Any: ...
