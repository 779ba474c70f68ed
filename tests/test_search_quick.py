"""``quick.search_current``: a fresh search answered from a current index alone, never from a stale one.

Real folders and files in a temporary directory; the full way (``search_path``) is the reference: after any
change, ``search_current`` either steps aside (None) or gives exactly the full way's results.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from openclaw_tui.core.search.quick import search_current
from openclaw_tui.core.search.reader import FOLDERS_FILE, index_file_for, read_folders
from openclaw_tui.core.search.search import search_path


def entry(i: int, body: str) -> str:
    return f"---\nid: mem-{i:03d}\ntimestamp: 2026-11-{1 + i % 28:02d}T10:00:00\ntags: [t{i % 3}]\n---\n{body}\n\n"


def make_root(root: Path) -> Path:
    for name, words in (("mia", "coffee 咖啡 tea"), ("leo", "咖啡馆 coffee beans")):
        p = root / "profiles" / name
        (p / "contexts").mkdir(parents=True)
        (p / "skills").mkdir()
        (p / "memories.md").write_text("".join(entry(i, f"{words} note {i}") for i in range(30)), encoding="utf-8")
        (p / "contexts" / "work.md").write_text("# Work\n\n- coffee at nine\n- 咖啡 after lunch\n", encoding="utf-8")
    return root


def settle() -> None:
    time.sleep(0.06)  # past the racy window of folders and files (``reader.RACY_FINE_NS``: 25 ms)


def full(root: Path, query: str) -> list[dict[str, object]]:
    results, _stats = search_path(root, query, 10)
    return [h.to_json() for h in results.hits]


def quick(root: Path, query: str) -> list[dict[str, object]] | None:
    got = search_current(str(root), query, 10)
    return None if got is None else [h.to_json() for h in got[0].hits]


def current(root: Path, query: str) -> list[dict[str, object]]:
    """A full search that leaves a witness, then the quick answer (which must be there and the same)."""
    settle()
    want = full(root, query)
    got = quick(root, query)
    assert got == want, "a current, settled index is answered from the index alone, as the full way answers"
    return want


CHANGES = {
    "a new context file": lambda p: (p / "profiles/mia/contexts/new.md").write_text("- zebra 斑马 coffee\n"),
    "a new skill in a new folder": lambda p: ((p / "profiles/mia/skills/deep").mkdir(),
                                              (p / "profiles/mia/skills/deep/s.md").write_text("- zebra 斑马\n")),
    "a context file removed": lambda p: (p / "profiles/leo/contexts/work.md").unlink(),
    "a new profile": lambda p: ((p / "profiles/zed").mkdir(),
                                (p / "profiles/zed/memories.md").write_text(entry(1, "zebra 斑马 coffee"))),
    "an entry appended": lambda p: (p / "profiles/leo/memories.md").open("a").write(entry(99, "zebra 斑马")),
    "a profile renamed": lambda p: (p / "profiles/leo").rename(p / "profiles/lea"),
    "a profile's marker removed": lambda p: (p / "profiles/leo/memories.md").rename(p / "profiles/leo/old.txt"),
    "a hidden file beside the profiles": lambda p: (p / "profiles/.DS_Store").write_bytes(b"\0"),
    "a folder's mode": lambda p: os.chmod(p / "profiles/mia/contexts", 0o700),
}


@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize("query", ["coffee", "咖啡", "zebra", "斑马"])
def test_after_any_change_quick_steps_aside_or_answers_as_the_full_way(tmp_path, change: str, query: str) -> None:
    root = make_root(tmp_path / "root")
    current(root, query)
    CHANGES[change](root)
    got = quick(root, query)  # right after the change (its folder's ctime moved, or a file's size and mtime)
    want = full(root, query)
    assert got is None, f"{change}: the index was not current, the full way had to look"
    if query in ("zebra", "斑马") and change not in ("a context file removed", "a profile renamed",
                                                    "a profile's marker removed", "a hidden file beside the profiles",
                                                    "a folder's mode"):
        assert want, f"{change}: the new text is found"
    assert current(root, query) == want  # settled again: the quick answer is back, the same


def test_a_symlink_among_the_folders_is_always_searched_the_full_way(tmp_path) -> None:
    root = make_root(tmp_path / "root")
    current(root, "coffee")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.md").write_text("- coffee elsewhere\n", encoding="utf-8")
    (root / "profiles/mia/contexts/link").symlink_to(outside)
    settle()
    full(root, "coffee")
    assert quick(root, "coffee") is None  # no witness kept while a link is there: where it points may change
    (root / "profiles/mia/contexts/link").unlink()
    current(root, "coffee")


def test_a_config_file_or_a_workspace_takes_the_full_way(tmp_path, monkeypatch) -> None:
    root = make_root(tmp_path / "root")
    current(root, "coffee")
    conf = tmp_path / "config.toml"
    conf.write_text("[search]\nhalf_life_days = 0\n", encoding="utf-8")
    monkeypatch.setenv("OPENCLAW_TUI_CONFIG", str(conf))
    assert quick(root, "coffee") is None  # its settings (weights, providers) are the full way's to read
    monkeypatch.delenv("OPENCLAW_TUI_CONFIG")
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- coffee\n", encoding="utf-8")
    settle()
    full(ws, "coffee")
    assert quick(ws, "coffee") is None  # a workspace's own OpenClaw settings win: read the full way
    assert not Path(index_file_for(ws) + FOLDERS_FILE).exists()  # (nor is a witness kept that none would read)
    for suffix in ("", "-wal", "-shm"):  # an index removed under its witness: the full way, no file made
        Path(index_file_for(root) + suffix).unlink(missing_ok=True)
    assert quick(root, "coffee") is None and not Path(index_file_for(root)).exists()


def test_the_witness_is_the_folders_and_files_the_full_way_found(tmp_path) -> None:
    root = make_root(tmp_path / "root")
    current(root, "coffee")
    witness = read_folders(index_file_for(root) + FOLDERS_FILE)
    assert witness is not None
    given, roots, folders, files = witness
    assert given == str(root) and [r[2] for r in roots] == ["profiles/leo", "profiles/mia"]
    names = {os.path.relpath(f[0], root) for f in folders}
    assert {".", "profiles", "profiles/mia", "profiles/mia/contexts", "profiles/mia/skills"} <= names
    assert files == sorted(files) and str(root / "profiles/mia/contexts/work.md") in files
    # a damaged witness is no witness
    side = index_file_for(root) + FOLDERS_FILE
    data = Path(side).read_bytes()
    for cut in (b"", data[:-3], data.replace(b"end", b"enD"), data[:20]):
        Path(side).write_bytes(cut)
        assert read_folders(side) is None and quick(root, "coffee") is None
