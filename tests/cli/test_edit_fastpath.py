"""``set``, ``supersede`` and ``archive`` on a file not parsed yet (the command line's case) find their
entries with ``locate`` and splice the bytes; they must write exactly what the full parse writes, and
refuse exactly what it refuses."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.core.files.store import MemoryDoc
from openclaw_tui.core.format.edit import DELETE
from openclaw_tui.core.lifecycle.archive import plan_archive
from openclaw_tui.core.lifecycle.operations import plan_set, plan_supersede
from openclaw_tui.core.lifecycle.plan import Files, Plan
from tests.helpers_memgen import GenFile, memory_files
from tests.unit.test_locate import IDS, tricky_blocks, tricky_text

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import memories_text, write_profile  # noqa: E402

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.function_scoped_fixture])
NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
CHANGES = [
    {"importance": "low"}, {"status": "cold"}, {"tags": ["a", "b"]}, {"importance": DELETE},
    {"custom": "x: y"}, {"ttl": "2030-01-01"}, {"id": "mem-99"}, {"importance": "bogus"},
]


def files(folder: Path, data: bytes, lazy: bool) -> Files:
    mem, arc = folder / "memories.md", folder / "contexts" / "archive" / "memories.md"
    mem.write_bytes(data)
    files = Files(MemoryDoc.load(mem, lazy=lazy), MemoryDoc.load(arc, lazy=lazy))
    assert files.memories.parsed is not lazy
    return files


def outcome(make) -> tuple[str, object]:  # type: ignore[no-untyped-def]
    try:
        plan: Plan = make()
    except Exception as exc:  # noqa: BLE001 - the same refusal is what must match
        return ("refused", type(exc).__name__)
    return ("plan", [(c.path.name, c.before, c.after) for c in plan.changes], plan.changed, plan.archived,
            sorted((p.name, sorted(ids)) for p, ids in plan.touched.items()))


def same_everywhere(tmp: Path, data: bytes, ids: list[str], change: dict, other: str) -> None:
    (tmp / "contexts" / "archive").mkdir(parents=True, exist_ok=True)
    for entry_id in ids:
        cases = [
            lambda f, i=entry_id: plan_set(f, i, change),
            lambda f, i=entry_id: plan_set(f, i, {}, "A new body.\n"),
            lambda f, i=entry_id: plan_supersede(f, i, other),
            lambda f, i=entry_id: plan_archive(f, i, NOW),
        ]
        for case in cases:
            full = outcome(lambda c=case: c(files(tmp, data, lazy=False)))
            fast = outcome(lambda c=case: c(files(tmp, data, lazy=True)))
            assert fast == full


@SETTINGS
@given(tricky_text(), st.sampled_from(CHANGES), st.sampled_from(IDS), st.booleans())
def test_edits_on_tricky_text_equal_the_full_parse(tmp_path_factory, text: str, change: dict, other: str,
                                                   bom: bool) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    same_everywhere(tmp_path_factory.mktemp("t"), data, IDS[:3], change, other)


@SETTINGS
@given(tricky_blocks(), st.sampled_from(CHANGES), st.sampled_from(IDS), st.booleans())
def test_edits_on_tricky_blocks_equal_the_full_parse(tmp_path_factory, text: str, change: dict, other: str,
                                                     bom: bool) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    same_everywhere(tmp_path_factory.mktemp("b"), data, IDS[:3], change, other)


@SETTINGS
@given(memory_files(), st.sampled_from(CHANGES))
def test_edits_on_generated_files_equal_the_full_parse(tmp_path_factory, gen: GenFile, change: dict) -> None:
    ids = [i for kind, i in gen.expected if kind == "entry" and i][:3] or ["mem-0001"]
    same_everywhere(tmp_path_factory.mktemp("g"), gen.data, ids, change, ids[-1])


def test_edits_on_a_typical_file_equal_the_full_parse(tmp_path: Path) -> None:
    text = memories_text(300)
    data = text.encode()
    same_everywhere(tmp_path, data, ["mem-000001", "mem-000007", "mem-000150", "mem-000300", "mem-999"],
                    {"importance": "low"}, "mem-000002")


def test_the_fast_path_is_taken_and_parses_nothing_else(tmp_path: Path) -> None:
    data = memories_text(300).encode()
    f = files(tmp_path, data, lazy=True)
    plan = plan_set(f, "mem-000150", {"importance": "low"})
    assert not f.memories.parsed  # found, edited and spliced without parsing the file
    assert plan.changes[0].after.count(b"\n---\n") == data.count(b"\n---\n")
    f = files(tmp_path, data, lazy=True)
    plan = plan_supersede(f, "mem-000290", "mem-000012")  # two windows far apart, the anchor nearest the edit
    assert not f.memories.parsed
    full = plan_supersede(files(tmp_path, data, lazy=False), "mem-000290", "mem-000012")
    assert plan.changes[0].after == full.changes[0].after


def test_set_from_the_command_line_changes_one_line(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, 2000)
    before = (prof / "memories.md").read_bytes()
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "set", str(prof), "mem-001000",
                          "importance=high", "tags=[x, 咖啡]"], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    after = (prof / "memories.md").read_bytes()
    diff = [(a, b) for a, b in zip(before.split(b"\n"), after.split(b"\n"), strict=True) if a != b]
    assert [b for _, b in diff] == [b"importance: high", b"tags: [x, \xe5\x92\x96\xe5\x95\xa1]"]


def test_a_lazily_loaded_profile_parses_on_first_use(tmp_path: Path) -> None:
    from openclaw_tui.core.files.profile import resolve_profile
    from openclaw_tui.core.format.entries import parse as full_parse

    prof = write_profile(tmp_path, 50)
    lazy = resolve_profile(prof, lazy=True)
    assert lazy.memories is not None and not lazy.memories.parsed
    data = (prof / "memories.md").read_bytes()
    assert lazy.memories.render(lazy.memories.text) == data
    assert [e.raw for e in lazy.memories.mf.entries] == [e.raw for e in full_parse(data.decode()).entries]
    assert lazy.memories.parsed
    assert resolve_profile(prof).memories.parsed  # the default stays eager (the UI reads off its thread)
