"""A game state's field list, written once: the methods that walk every field derive from it.

A state class is a ``@dataclass(slots=True, kw_only=True, eq=False, repr=False)`` whose
annotated fields, each ``dataclasses.field(metadata=spec(...))``, are the one declaration of
what a state holds. Its ``__slots__`` and
``__init__`` come from :mod:`dataclasses`; :func:`derive` builds the rest from the same list:

* ``copy(state)``: a new state sharing every immutable field, with fresh copies of the mutable
  ones (``copy="list"``: ``x[:]``; ``copy="rows"``: a list of lists, each row copied) and every
  cache (:data:`CACHE`) reset to ``None``;
* ``key(state)``: the tuple that defines the position (equality, hashing, replay checks), in
  field order: a field enters as itself, as ``tuple(x)`` (lists) or a tuple of row tuples
  (rows), or through its own ``key=`` template (``"{}"`` is the field's value, a leading ``*``
  splices a tuple in); ``key=None`` leaves a field out (a value derived from others, a guard);
* ``getstate``/``setstate`` for pickling: the fields' values, in order, caches left out.

A state class that derives from :class:`FieldState` gets its methods from them once
:func:`derive` has run on it: ``copy()``, ``key()``, equality and hashing by the key (a state
equals only a state of its own class), and pickling.

The copy and key functions are generated source (as :mod:`dataclasses` generates
``__init__``), so they cost what a hand-written copy costs: they sit on the hot path of every
``apply``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

CopyKind = Literal["share", "list", "rows"]
S = TypeVar("S", bound="DataclassInstance")
F = TypeVar("F", bound="FieldState")

_KEY_DEFAULT = {"share": "{}", "list": "tuple({})", "rows": "tuple(tuple(r) for r in {})"}
_COPY = {"share": "{}", "list": "{}[:]", "rows": "[r[:] for r in {}]"}


def spec(*, copy: CopyKind = "share", key: str | None = "") -> dict[str, Any]:
    """The metadata of a state field, ``dataclasses.field(metadata=spec(...))``. ``copy``: how
    a copy gets it; ``key``: how it enters the key ("" for the default of its copy kind,
    ``None`` for not at all)."""
    if copy not in _COPY:
        raise ValueError(f"copy must be one of {', '.join(_COPY)}, not {copy!r}")
    return {"copy": copy, "key": key}


#: The common kinds: an immutable value (shared by copies), a list, a list of lists, and a
#: value left out of the key (derived from other fields, or a guard).
SHARE = spec()
LIST = spec(copy="list")
ROWS = spec(copy="rows")
UNKEYED = spec(key=None)


#: The metadata of a cache slot, ``dataclasses.field(default=None, init=False,
#: metadata=CACHE)``: ``None`` in a new state and in every copy, never in the key nor in a
#: pickle.
CACHE: dict[str, Any] = {"cache": True}


class Derived(Generic[S]):
    """What :func:`derive` builds for one state class."""

    __slots__ = ("cache_names", "copy", "getstate", "key", "names", "setstate")

    def __init__(self, names: tuple[str, ...], cache_names: tuple[str, ...],
                 copy: Callable[[S], S], key: Callable[[S], tuple[Any, ...]]) -> None:
        self.names = names
        self.cache_names = cache_names
        self.copy = copy
        self.key = key

        def getstate(state: S) -> tuple[Any, ...]:
            return tuple(getattr(state, n) for n in names)

        def setstate(state: S, values: tuple[Any, ...]) -> None:
            if len(values) != len(names):
                raise ValueError(f"a pickled state has {len(values)} fields, not {len(names)}")
            for n, v in zip(names, values, strict=True):
                object.__setattr__(state, n, v)
            for n in cache_names:
                object.__setattr__(state, n, None)

        self.getstate = getstate
        self.setstate = setstate


class FieldState:
    """The methods every state class shares, from its derived functions (set by
    :func:`derive`): ``copy``, ``key``, ``==`` and ``hash`` by the key, pickling."""

    __slots__ = ()
    _derived: ClassVar[Derived[Any]]

    def copy(self: F) -> F:
        """The same state (immutable fields shared, lists copied) with the caches cleared."""
        copied: F = type(self)._derived.copy(self)
        return copied

    def key(self) -> tuple[Any, ...]:
        """Everything that defines the position, as one comparable tuple (the fields' own
        order; fields declared ``key=None`` left out)."""
        return type(self)._derived.key(self)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key() == other.key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self.key())

    def __getstate__(self) -> tuple[Any, ...]:
        return type(self)._derived.getstate(self)

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        type(self)._derived.setstate(self, values)


def derive(cls: type[S]) -> Derived[S]:
    """The copy, key and pickle functions of the dataclass state ``cls``, from its fields
    (and, for a :class:`FieldState`, its methods)."""
    names: list[str] = []
    caches: list[str] = []
    copy_lines: list[str] = []
    key_items: list[str] = []
    for f in dataclasses.fields(cls):
        if f.metadata.get("cache"):
            caches.append(f.name)
            continue
        kind = f.metadata.get("copy")
        if kind is None:
            raise TypeError(f"{cls.__name__}.{f.name} has no fields.spec() metadata")
        names.append(f.name)
        src = f"s.{f.name}"
        copy_lines.append(f"    c.{f.name} = " + _COPY[kind].format(src))
        key = f.metadata["key"]
        if key is None:
            continue
        key_items.append((key or _KEY_DEFAULT[kind]).format(src))
    copy_lines.extend(f"    c.{n} = None" for n in caches)
    src = (
        "def copy(s):\n    c = new(cls)\n" + "\n".join(copy_lines) + "\n    return c\n"
        "def key(s):\n    return (" + ", ".join(key_items) + ",)\n"
    )
    env: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec(compile(src, f"<derived state methods of {cls.__qualname__}>", "exec"), env)
    derived = Derived(tuple(names), tuple(caches), env["copy"], env["key"])
    if issubclass(cls, FieldState):
        cls._derived = derived
    return derived

