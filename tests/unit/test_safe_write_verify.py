"""A multi-file write compares each file with the bytes it expects after writing the temp files and
before the journal (safe_write.write_many / replace_all(verify=True)): a change made meanwhile is
refused with nothing written, and nothing is left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openclaw_tui.core.files import safe_write
from openclaw_tui.core.files.safe_write import ConcurrentModification, write_many


def test_a_file_changed_before_the_journal_refuses_the_whole_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_bytes(b"a old\n")
    b.write_bytes(b"b old\n" * 300_000)  # big enough to be hashed in a thread
    real = safe_write._write_temp
    calls = []

    def write_temp_then_someone_writes_b(path: Path, data: bytes, suffix: str = ".tmp") -> str:
        calls.append(path)
        tmp = real(path, data, suffix)
        if path == b:
            b.write_bytes(b"changed by a writer that ignores the lock\n")
        return tmp

    monkeypatch.setattr(safe_write, "_write_temp", write_temp_then_someone_writes_b)
    with pytest.raises(ConcurrentModification):
        write_many([(a, b"a old\n", b"a new\n"), (b, b"b old\n" * 300_000, b"b new\n")])
    assert calls == [a, b]
    assert a.read_bytes() == b"a old\n"
    assert b.read_bytes() == b"changed by a writer that ignores the lock\n"
    assert not [n for n in os.listdir(tmp_path) if n.endswith((".pending", ".tmp")) or n == safe_write.JOURNAL]


def test_an_unchanged_pair_is_written_with_its_journal_gone(tmp_path: Path) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_bytes(b"a old\n")
    b.write_bytes(b"b old\n" * 300_000)
    write_many([(a, b"a old\n", b"a new\n"), (b, b"b old\n" * 300_000, b"b new\n")])
    assert (a.read_bytes(), b.read_bytes()) == (b"a new\n", b"b new\n")
    assert not [n for n in os.listdir(tmp_path) if n.endswith((".pending", ".tmp")) or n == safe_write.JOURNAL]
