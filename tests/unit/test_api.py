"""openclaw_tui.api: the runnable example, the write protocol underneath, and no Textual."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.api import EditError, NotMemory, open_profile
from openclaw_tui.core.format.entries import parse_bytes
from tests.conftest import REPO_ROOT

EXAMPLE = REPO_ROOT / "examples" / "api_example.py"


def run_example(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=120)


@pytest.fixture
def atlas(tmp_path: Path, samples: Path) -> Path:
    shutil.copytree(samples / "profiles" / "atlas", tmp_path / "atlas")
    return tmp_path / "atlas"


def test_the_example_runs_on_its_own_throwaway_copy() -> None:
    r = run_example()
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:9] == [
        "opened atlas: 15 entries in memories.md",
        "remembered mem-0018; shares tags with: mem-0003, mem-0011",
        "same text again: written=False, id=mem-0018, duplicates=['mem-0018']",
        "remembered mem-0019; near duplicates: ['mem-0018']",
        "supersede mem-0018 by mem-0019: mem-0018: superseded by mem-0019",
        "dry run would change contexts/archive/memories.md, memories.md (written=False)",
        "archive mem-0018: written=True",
        "refused: importance 'urgent' is not one of high, medium, low",
        lines[8],
    ]
    assert lines[8].startswith("search: mem-0019 (")
    assert lines[9].startswith("context: ")
    assert lines[10] == "check: 0 errors"


def test_the_example_on_a_given_profile_leaves_exactly_these_files(atlas: Path) -> None:
    mem_before = (atlas / "memories.md").read_bytes()
    arch_before = (atlas / "contexts" / "archive" / "memories.md").read_bytes()
    others = {p: p.read_bytes() for p in atlas.rglob("*") if p.is_file() and p.name != "memories.md"}
    assert run_example(str(atlas)).returncode == 0
    mem_after = (atlas / "memories.md").read_bytes()
    assert mem_after.startswith(mem_before)  # appended only: earlier bytes untouched
    now = {e.id: e for e in parse_bytes(mem_after).well_formed()}
    assert "mem-0018" not in now
    assert now["mem-0019"].meta["conflict"] == "mem-0018" and now["mem-0019"].meta["source"] == "chat#43"
    arch_after = (atlas / "contexts" / "archive" / "memories.md").read_bytes()
    assert arch_after.startswith(arch_before)
    moved = {e.id: e for e in parse_bytes(arch_after).well_formed()}["mem-0018"]
    assert moved.meta["status"] == "archived" and moved.meta["superseded_by"] == "mem-0019"
    assert "archived_at" in moved.meta
    assert {p: p.read_bytes() for p in others} == others  # lock files are new, not changed files


def test_remember_dry_run_and_bad_input_write_nothing(atlas: Path) -> None:
    mem = open_profile(atlas)
    before = (atlas / "memories.md").read_bytes()
    dry = mem.remember("A new fact.", tags=["oncall"], dry_run=True)
    assert dry.id == "mem-0018" and not dry.written and "+A new fact.\n" in dry.change.diff
    for bad in ({"importance": "urgent"}, {"conflict": "mem-0999"}, {"fields": {"ttl": "soon"}},
                {"fields": {"id": "mem-0001"}}):
        with pytest.raises(EditError):
            mem.remember("x", **bad)  # type: ignore[arg-type]
    with pytest.raises(EditError):
        mem.remember("   ")
    with pytest.raises(EditError):
        mem.supersede("mem-0001", "mem-0999")
    with pytest.raises(EditError):
        mem.archive()
    assert (atlas / "memories.md").read_bytes() == before
    assert not (atlas / "memories.md.lock").exists()


def test_open_profile_refuses_what_is_not_memory_and_a_workspace_is_read_only(tmp_path: Path, samples: Path) -> None:
    with pytest.raises(NotMemory):
        open_profile(tmp_path)
    with pytest.raises(NotMemory):
        open_profile(samples / "profiles")  # several profiles: name one
    assert open_profile(samples / "profiles", "atlas").path.name == "atlas"
    ws = open_profile(samples / "workspace")
    assert ws.layout == "openclaw" and ws.search("trip")
    with pytest.raises(EditError):
        ws.remember("x", dry_run=True)


def test_context_is_the_core_builder(atlas: Path) -> None:
    from openclaw_tui.core.search.context import agent_context, resolve_root

    mem = open_profile(atlas)
    doc = mem.context("on-call").to_json()
    via_index = agent_context(resolve_root(atlas), "on-call").to_json()
    assert doc["parts"] == via_index["parts"]
    assert sorted(x["id"] for x in doc["left_out"]) == sorted(x["id"] for x in via_index["left_out"])
    assert doc["layout"] == "profile" and doc["parts"] and doc["total"]["chars"] > 0


def test_two_agents_remembering_at_once_lose_nothing(atlas: Path) -> None:
    code = ("import sys\nfrom openclaw_tui.api import open_profile\nm = open_profile(sys.argv[1])\n"
            "for i in range(15):\n    print(m.remember(f'fact {sys.argv[2]}-{i}', source='w' + sys.argv[2]).id)\n")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(atlas), str(w)], stdout=subprocess.PIPE, text=True)
             for w in (1, 2)]
    ids = [line for p in procs for line in p.communicate(timeout=120)[0].split()]
    assert all(p.returncode == 0 for p in procs)
    assert len(ids) == len(set(ids)) == 30  # every caller got its own id back
    now = {e.id: e.body.strip() for e in parse_bytes((atlas / "memories.md").read_bytes()).well_formed()}
    assert {f"fact {w}-{i}" for w in (1, 2) for i in range(15)} <= set(now.values())
    assert all(now[i].startswith("fact ") for i in ids)
