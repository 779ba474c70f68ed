"""Plain records for the modules a fresh ``search`` process imports, without ``dataclasses``.

Importing ``dataclasses`` pulls in ``inspect`` (and ``ast``, ``dis``, ``tokenize``), and each
``@dataclass`` compiles its methods when the module is imported: together about a third of what a
fresh ``openclaw-tui search`` spends before its query.  A class here lists its fields in ``_fields``
(its ``__slots__``) and writes its own ``__init__``; ``Record`` gives it the ``__repr__`` and
``__eq__`` a dataclass would have (fields compared as a tuple, only with the same class), and
``Frozen`` also refuses assignment (``AttributeError``, as a frozen dataclass) and hashes its fields; both
pickle and copy.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (not typing's: importing typing costs a fresh search process milliseconds)
if TYPE_CHECKING:
    from typing import Any


class Record:
    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # (mutable: unhashable, as a dataclass with eq)

    def __getstate__(self) -> tuple[Any, ...]:  # pickle and copy (a frozen record refuses setattr)
        return self._values()

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self._fields, state, strict=True):
            object.__setattr__(self, name, value)


class Frozen(Record):
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._values())

