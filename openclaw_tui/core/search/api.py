"""Search over every profile under a path (Chinese included), ranked the way the agent ranks.

``search_path``: what ``openclaw-tui search`` runs, over the folder's persistent index, never writing inside
the memory folder.  ``SearchIndex``: an index filled from loaded profiles (the Python API's ``Memory.search``).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import TYPE_CHECKING

from .index import Index, Stats
from .index_files import roots_of
from .rank import Hit, Ranking, Results, rank, ranking_from
from .reader import Root
from .text import Query, QueryError, index_text, parse_query, split_tags, text_chunks

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from pathlib import Path

    from ..config import Config
    from ..files.profile import Profile
    from .providers import Chain

__all__ = ["Hit", "QueryError", "Ranking", "Results", "SearchIndex", "index_text", "parse_query", "ranking_for",
           "roots_of", "search_path", "search_profiles", "text_chunks"]


def ranking_for(roots: Iterable[Root], config: Config | None = None) -> Ranking:
    """The weights in force: the config file's, and a workspace's own OpenClaw settings when found (they win)."""
    from ..config import load_config

    config = config or load_config()
    for r in roots:
        if r.layout == "openclaw":
            from ..workspace.openclaw_config import load_openclaw_config

            oc = load_openclaw_config(r.path, base=config.limits)
            if oc.found and oc.memory_search:
                return ranking_from(config.search, config.found, oc.memory_search, oc.source)
    return ranking_from(config.search, config.found)


def chain_for(config: Config | None = None) -> Chain:
    from ..config import load_config
    from .providers import Chain

    config = config or load_config()
    return Chain.from_settings(config.search.providers, config.search.provider_options)


class SearchIndex:
    """An index over loaded profiles; see the module docstring."""

    def __init__(self, index: Index | None = None) -> None:
        self.index = index if index is not None else Index(None)
        self.ranking = Ranking()
        self.chain: Chain | None = None
        self.last: Results | None = None

    @classmethod
    def build(cls, profiles: Iterable[Profile], index: Index | None = None) -> SearchIndex:
        idx = cls(index)
        for p in profiles:
            idx.index.add_profile(p)
        return idx

    def __len__(self) -> int:
        return len(self.index)

    def close(self) -> None:
        self.index.close()

    def search(self, query: str | Query, limit: int = 20, today: dt.date | None = None,
               tags: Sequence[str] = ()) -> list[Hit]:
        """Best ``limit`` hits, best first (ties in file order); ``tag:x`` parts filter. Raises QueryError."""
        self.last = rank(self.index, query, limit, ranking=self.ranking, chain=self.chain, today=today, tags=tags)
        return self.last.hits


def search_profiles(profiles: Iterable[Profile], query: str, limit: int = 20) -> list[Hit]:
    """Build a throwaway in-memory index of loaded profiles and run one query."""
    q = parse_query(query)
    index = SearchIndex.build(profiles)
    try:
        return index.search(q, limit)
    finally:
        index.close()


def search_path(path: Path | str, query: str, limit: int = 10, *, today: dt.date | None = None,
                config: Config | None = None, index: Index | None = None,
                tags: Sequence[str] = ()) -> tuple[Results, Stats]:
    """``openclaw-tui search``: the folder's persistent index refreshed, then ranked (NotMemory, QueryError)."""
    rest, more = split_tags(query)
    if not rest and not (more or tags):
        parse_query(rest)  # raises QueryError: nothing to search for
    roots = roots_of(path)
    if config is None:
        from ..config import load_config

        config = load_config()
    own = index is None
    idx = index if index is not None else Index.for_folder(path)
    try:
        for attempt in (1, 2):
            stats = idx.refresh(roots)
            try:
                ranking, chain = ranking_for(roots, config), chain_for(config)
                results = rank(idx, query, limit, ranking=ranking, chain=chain, today=today, tags=tags)
                break
            except sqlite3.DatabaseError as exc:  # damage the refresh did not touch: rebuild once, never trust it
                if attempt == 2 or isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                    raise
                idx.recover()
    finally:
        if own:
            idx.close()
    return results, stats
