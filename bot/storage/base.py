"""The primitives every shared query is built on, which each SQL backend supplies.

:class:`StoreBase` declares, as abstract methods, the little a backend must do for the
queries written once (:mod:`.shared`, and each feature's storage module) to run on it: a
lone read, a lone write, a lone write that returns its row, and a transaction, all taking
statements in PostgreSQL's ``$n`` placeholders (:mod:`.dialect`); plus the driver's error
for a unique index's refusal. It also holds what every store keeps whatever its database:
the row cache (:mod:`.live`), the commit count and the test seam ``fault_hook``.

The primitives are public: :class:`Database` is the small interface a feature's storage
(tournaments, the ladder, puzzles) takes by composition, on either backend, so its writes
fail as truthfully as an action's (a lost PostgreSQL server reads as "unavailable, nothing
changed" or "may or may not have been stored", a read-only SQLite file as "unavailable").
A query of the match store itself is a method of a class over :class:`StoreBase`, joined to
both stores by one line (:class:`.shared.SQLStore`'s bases); the backends
(:mod:`.sqlite`, :mod:`.postgres`) implement the primitives and nothing shared.

Imports the records and :mod:`.live`, :mod:`.dialect`; never a database driver.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol

from bot.storage.dialect import Tx
from bot.storage.live import LiveRows


class Database(Protocol):
    """A store's primitives, as a feature's storage composes them (statements in ``$n``
    placeholders, :mod:`.dialect`). ``row_lock`` ends a ``SELECT`` inside a transaction
    whose rows the transaction writes back from what it read: PostgreSQL's ``FOR NO KEY
    UPDATE`` (held to the end; key-share locks of other transactions' foreign keys are left
    alone), empty on SQLite, whose transactions already write one at a time."""

    @property
    def row_lock(self) -> str: ...

    async def fetch(self, sql: str, *args: Any) -> list[Any]: ...

    async def write(self, sql: str, *args: Any) -> int: ...

    async def write_row(self, sql: str, *args: Any) -> Any | None: ...

    def transaction(self) -> AbstractAsyncContextManager[Tx]: ...


class StoreBase(abc.ABC):
    """What every store query is built on. A backend sets ``path`` and calls ``__init__``."""

    # The driver's error for a row a unique index refused (a second live row in a channel).
    _unique_violation: ClassVar[tuple[type[Exception], ...]] = ()
    row_lock: ClassVar[str] = ""  # see Database

    path: str  # what messages name: the file, or the URL without its password

    def __init__(self) -> None:
        self._live = LiveRows()
        self.commits = 0  # transactions committed by apply (several actions may share one)
        # Test seam: called with a label before each write statement of a transaction.
        self.fault_hook: Callable[[str], None] | None = None

    # --- the primitives each backend supplies --------------------------------------------

    @abc.abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """Every row of a lone read (``$n`` placeholders), seeing only committed data."""

    @abc.abstractmethod
    async def write(self, sql: str, *args: Any) -> int:
        """One ``INSERT``, ``UPDATE`` or ``DELETE`` in a transaction of its own; how many
        rows it changed. (Schema changes are migrations: :mod:`.schema`, :mod:`.pg_schema`.)"""

    @abc.abstractmethod
    async def write_row(self, sql: str, *args: Any) -> Any | None:
        """One writing statement ``... RETURNING``, in a transaction of its own; its first
        row, or None. A unique index's refusal raises one of ``_unique_violation``."""

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A transaction: committed when the block ends, rolled back whole if it raises.

        Failures read as the rest of the store's (``StoreUnavailableError`` when nothing
        was written...). For a feature's several writes that stand or fall together. Inside
        the block use only ``tx``: the store's own reads do not see the transaction (and on
        an in-memory SQLite database would wait for it to end).
        """

    def _fault(self, label: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(label)


__all__ = ["Database", "StoreBase", "Tx"]
