"""Review what dreaming promoted into MEMORY.md: a queue, then accept, reject or edit.

The queue: items carrying dreaming's marks, or new since the last reviewed commit in a "Promoted
From…" section, minus those accepted.  Accepts are recorded in the user's cache folder, never in
the workspace; reject and edit are plans (undo puts the item back).
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from ..config import cache_dir
from ..format.entries import decode
from ..i18n import N_
from ..lifecycle.plan import FileChange, Plan
from .edits import edit_row, remove_row, row_title, strip_metadata
from .model import MemoryModel, MemRow, load_memory, parse_log, parse_memory_text


@dataclass
class QueueItem:
    row: MemRow
    source_lines: list[tuple[str, int, str]] = field(default_factory=list)  # (log, line, text)
    source_missing: bool = False
    new_in_git: bool = False
    recall: dict[str, object] | None = None  # its entry of memory/.dreams/short-term-recall.json, when present

    @property
    def score(self) -> str | None:
        return self.row.score.get("score")

    @property
    def flags(self) -> list[str]:
        """The queue's flags (not findings): ``MemRow.junk``, and ``source-missing`` when its log is gone."""
        return self.row.junk + (["source-missing"] if self.source_missing else [])

    @property
    def why(self) -> str:
        """Why it was promoted, from what dreaming recorded: its recall entry's counts, else its score."""
        r = self.recall
        if r:
            recalls = _int(r.get("recallCount"))
            total = _num(r.get("totalScore"))
            queries = r.get("queryHashes")
            days = r.get("recallDays")
            parts = [f"recalled {recalls}x"]
            if recalls:
                parts.append(f"avg score {total / recalls:.3f}")
            parts.append(f"max {_num(r.get('maxScore')):.3f}")
            if isinstance(queries, list):
                parts.append(f"{len(queries)} distinct queries")
            if isinstance(days, list):
                parts.append(f"on {len(days)} days")
            daily, grounded = _int(r.get("dailyCount")), _int(r.get("groundedCount"))
            if daily or grounded:
                parts.append(f"{daily} daily, {grounded} grounded signals")
            tags = r.get("conceptTags")
            if isinstance(tags, list) and tags:
                parts.append("concepts " + ", ".join(str(t) for t in tags[:5]))
            return "; ".join(parts) + " (memory/.dreams/short-term-recall.json)"
        if self.row.score:
            return " ".join(f"{k} {v}" for k, v in self.row.score.items()) + " (its [score=…] bracket)"
        return ""


def _num(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _int(value: object) -> int:
    return int(_num(value))


RECALL_STORE = "memory/.dreams/short-term-recall.json"


def recall_entries(workspace: Path) -> list[dict[str, object]]:
    """The entries of dreaming's short-term recall store, or [] when there is none or it cannot be read."""
    try:
        data = json.loads((workspace / RECALL_STORE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        return []
    return [e for e in entries.values() if isinstance(e, dict) and isinstance(e.get("path"), str)]


def empty_reason(workspace: Path | str, memory: MemoryModel | None, dreaming_enabled: bool | None) -> str:
    """Why the review queue is empty, in English words (the JSON's); each is marked: text shows ``_(reason)``."""
    ws = Path(workspace)
    if memory is None:
        return N_("no MEMORY.md: nothing was promoted")
    if not any(r.promoted for r in memory.items):
        if dreaming_enabled is False:
            return N_("no item of MEMORY.md carries a promotion marker or a [score=…] bracket "
                      "(dreaming is off in openclaw.json)")
        if dreaming_enabled is None:
            return N_("no item of MEMORY.md carries a promotion marker or a [score=…] bracket "
                      "(dreaming is not configured in openclaw.json, or no openclaw.json was found)")
        return N_("no item of MEMORY.md carries a promotion marker or a [score=…] bracket "
                  "(dreaming is on: it has not promoted anything yet)")
    accepted, _commit = reviewed(ws)
    if accepted:
        return N_("every promoted item has been reviewed (accepted items leave the queue)")
    return N_("every promoted item has been reviewed")


def _state_path() -> Path:
    return cache_dir() / "dreaming-reviewed.json"


def _ws_key(workspace: Path) -> str:
    return hashlib.sha256(os.path.realpath(workspace).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _load_state() -> dict[str, dict[str, object]]:
    try:
        data = json.loads(_state_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def reviewed(workspace: Path) -> tuple[set[str], str | None]:
    entry = _load_state().get(_ws_key(workspace), {})
    keys = entry.get("accepted", []) if isinstance(entry, dict) else []
    commit = entry.get("commit") if isinstance(entry, dict) else None
    return {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set(), \
        commit if isinstance(commit, str) else None


def review_record(workspace: Path, keys: list[str], commit: str | None = None) -> FileChange:
    """The change of the cache file that records ``keys`` as reviewed (a plan carries it, so undo takes
    it back with the rest)."""
    path = _state_path()
    try:
        before: bytes | None = path.read_bytes()
    except FileNotFoundError:
        before = None
    state = _load_state()
    accepted, old_commit = reviewed(workspace)
    state[_ws_key(workspace)] = {
        "path": str(workspace), "accepted": sorted(accepted | set(keys)), "commit": commit or old_commit,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    return FileChange(path, before, json.dumps(state, ensure_ascii=False, indent=1).encode("utf-8"))


def is_review_record(path: Path) -> bool:
    """True for the cache file of review records (not a workspace file: never committed)."""
    return path == _state_path()


def _old_keys(workspace: Path, rel: str, commit: str) -> set[str] | None:
    """The row keys of ``rel`` at ``commit`` (none when it did not exist), or None outside git."""
    from ..git.gitrepo import find_repo, read_blob

    repo = find_repo(workspace)
    if repo is None:
        return None
    data = read_blob(repo, commit, posixpath.join(repo.rel(workspace), rel))
    return {r.key for r in parse_memory_text(decode(data or b"")[0])}


def _source(workspace: Path, item: QueueItem) -> None:
    for promo in item.row.promotions:
        log = workspace / promo.path
        if not log.is_file():
            item.source_missing = True
            continue
        text, _b, _ok = decode(log.read_bytes())
        lo = promo.start_line or 1
        hi = promo.end_line or lo
        for ln in parse_log(text):
            if lo <= ln.number <= hi:
                item.source_lines.append((promo.path, ln.number, ln.text))


def review_queue(workspace: Path | str, memory: MemoryModel | None = None) -> list[QueueItem]:
    """The promoted items still to review (``memory``: MEMORY.md as read already, if it was)."""
    ws = Path(workspace)
    mem = memory if memory is not None else load_memory(ws)
    if mem is None:
        return []
    accepted, commit = reviewed(ws)
    old = _old_keys(ws, mem.rel, commit) if commit else None
    recalls = recall_entries(ws)
    out: list[QueueItem] = []
    for row in mem.items:
        if row.key in accepted:
            continue
        in_promoted = any(h.lower().startswith("promoted from") for h in row.heading_path)
        new_in_git = old is not None and row.key not in old and in_promoted
        if not (row.promoted or new_in_git):
            continue
        item = QueueItem(row, new_in_git=new_in_git)
        _source(ws, item)
        item.recall = next((e for e in recalls for p in row.promotions
                            if e.get("path") == p.path and (p.start_line is None or e.get("startLine") == p.start_line)),
                           None)
        out.append(item)
    return out


def accept(workspace: Path, item: QueueItem, *, strip: bool = False) -> Plan:
    """The plan (the caller applies it) that records the item as reviewed and, with ``strip``, removes
    its machine metadata; undoing it puts the item back in the queue."""
    from ..git.gitrepo import find_repo, head_sha

    ws = Path(workspace)
    repo = find_repo(ws)
    commit = head_sha(repo) if repo is not None else None

    def build() -> Plan:
        record = review_record(ws, [item.row.key], commit)
        plan = strip_plan(ws, item) if strip else None
        if plan is None:
            plan = Plan(f"accept {row_title(item.row.key)}", [record])
        else:
            plan.changes.append(record)
            plan.title = f"accept, {plan.title}"
        plan.rebuild = build
        return plan

    return build()


def strip_plan(workspace: Path, item: QueueItem) -> Plan | None:
    """What accepting with ``strip`` would write (nothing recorded)."""
    if not (item.row.markers or item.row.metadata):
        return None
    return strip_metadata(_mem_path(Path(workspace)), item.row.key, item.row.line)


def reject(workspace: Path, item: QueueItem) -> Plan:
    return remove_row(_mem_path(Path(workspace)), item.row.key, item.row.line)


def edit(workspace: Path, item: QueueItem, text: str) -> Plan:
    return edit_row(_mem_path(Path(workspace)), item.row.key, text, item.row.line)


def _mem_path(ws: Path) -> Path:
    return ws / "MEMORY.md" if (ws / "MEMORY.md").is_file() else ws / "memory.md"
