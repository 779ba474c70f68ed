"""``openclaw-tui mcp``: a real MCP client session (the SDK's) against the server subprocess, on copies of the samples."""

from __future__ import annotations

import base64
import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mcp_support import call, cli_json, connect, copy_samples, refused, server_env, snapshot, tool_names

READS = {"memory_search", "memory_get", "memory_context", "memory_check"}
WRITES_A = {"memory_remember", "memory_supersede", "memory_archive"}
WRITES_B = {"memory_append_log", "memory_add_item"}


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    return copy_samples(tmp_path)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


# --- reading, both layouts: the CLI's answers -----------------------------------------------------


async def test_profile_reads_answer_as_the_cli(samples: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    before = snapshot(prof)
    async with connect(str(prof)) as s:
        assert await tool_names(s) == READS  # read-only: no writing tool is offered
        found = await call(s, "memory_search", query="团子", max_results=3)
        cli = cli_json("search", str(prof), "团子", "-n", "3", "--json")
        assert [(h["path"], h["startLine"], h["endLine"], h["id"], h["score"]) for h in found["results"]] == [
            (h["path"], h["startLine"], h["endLine"], h["id"], h["score"]) for h in cli["results"]]
        hit = next(h for h in found["results"] if h["id"] == "mem-0003")
        assert "团子" in hit["snippet"] and hit["why"].startswith("text ")
        assert set(hit) >= {"path", "startLine", "endLine", "snippet", "score", "id", "why"}

        got = await call(s, "memory_get", path=hit["path"], **{"from": hit["startLine"]},
                         lines=hit["endLine"] - hit["startLine"] + 1)
        lines = (prof / "memories.md").read_text(encoding="utf-8").splitlines(keepends=True)
        assert got["text"] == "".join(lines[hit["startLine"] - 1 : hit["endLine"]])
        assert "truncated" not in got

        ctx = await call(s, "memory_context", query="团子")
        assert ctx == cli_json("context", str(prof), "--query", "团子", "--json")
        assert await call(s, "memory_context") == cli_json("context", str(prof), "--json")

        check = await call(s, "memory_check")
        assert check == cli_json("check", str(prof), "--format", "json")
        assert any(f["code"] == "unreadable-file" for f in check["findings"])  # the sample's bad UTF-8 file
    assert snapshot(prof) == before


async def test_profiles_root_paths_as_search_names_them(samples: Path) -> None:
    root = samples / "profiles"
    async with connect(str(root)) as s:
        found = await call(s, "memory_search", query="团子")
        assert "xiaoyu/memories.md" in [h["path"] for h in found["results"]]
        got = await call(s, "memory_get", path="xiaoyu/memories.md", lines=2)
        assert got["text"] == "".join((root / "xiaoyu/memories.md").read_text(encoding="utf-8")
                                      .splitlines(keepends=True)[:2])
        reason = await refused(s, "memory_get", path="memories.md")
        assert "several profiles" in reason
        assert (await call(s, "memory_check")) == cli_json("check", str(root), "--format", "json")


async def test_workspace_reads_answer_as_the_cli(samples: Path) -> None:
    ws = samples / "workspace"
    async with connect(str(ws)) as s:
        assert await tool_names(s) == READS
        found = await call(s, "memory_search", query="Tobias")
        cli = cli_json("search", str(ws), "Tobias", "-n", "6", "--json")
        assert [(h["path"], h["startLine"]) for h in found["results"]] == [(h["path"], h["startLine"]) for h in cli["results"]]
        assert found["results"], found
        got = await call(s, "memory_get", path="MEMORY.md", **{"from": 1}, lines=1)
        assert got["text"] == "# MEMORY.md - Long-Term Memory\n"
        for session in ("main", "shared"):
            assert await call(s, "memory_context", query="Tobias", session=session) == cli_json(
                "context", str(ws), "--query", "Tobias", "--session", session, "--json")
        assert await call(s, "memory_check") == cli_json("check", str(ws), "--format", "json")


async def test_paths_outside_the_folder_are_refused(samples: Path, tmp_path: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    outside = tmp_path / "secret.md"
    outside.write_text("not memory\n", encoding="utf-8")
    (prof / "contexts" / "link.md").symlink_to(outside)
    async with connect(str(prof)) as s:
        for path in ("../atlas/memories.md", "contexts/../../atlas/memories.md", str(outside), "/etc/passwd"):
            reason = await refused(s, "memory_get", path=path)
            assert "profile folder" in reason, reason
        assert "through a link" in await refused(s, "memory_get", path="contexts/link.md")
        assert "memory:///contexts/link.md" not in {str(r.uri) for r in (await s.list_resources()).resources}
        for uri in ("memory:///../atlas/memories.md", "memory:///contexts/link.md"):
            with pytest.raises(Exception) as err:  # a protocol error, the reason in it
                await s.read_resource(uri)
            assert "Traceback" not in str(err.value)


async def test_memory_files_are_resources(samples: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    async with connect(str(prof)) as s:
        listed = {str(r.uri): r for r in (await s.list_resources()).resources}
        assert "memory:///memories.md" in listed and "memory:///state.yaml" in listed
        assert not any("/." in uri for uri in listed)
        text = (await s.read_resource("memory:///memories.md")).contents[0]
        assert text.text == (prof / "memories.md").read_text(encoding="utf-8")  # type: ignore[union-attr]
        # not UTF-8: the exact bytes, as a blob
        blob = (await s.read_resource("memory:///contexts/2025-05-20_legacy.md")).contents[0]
        assert base64.b64decode(blob.blob) == (prof / "contexts/2025-05-20_legacy.md").read_bytes()  # type: ignore[union-attr]
        templates = (await s.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["memory:///{+path}"]


# --- writing: layout A ------------------------------------------------------------------------------


async def test_read_only_refuses_every_write(samples: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    ws = samples / "workspace"
    before = snapshot(samples)
    for folder, tools in ((prof, WRITES_A), (ws, WRITES_B)):
        async with connect(str(folder)) as s:
            for tool in WRITES_A | WRITES_B:
                reason = await refused(s, tool, body="x", text="y", section="Preferences", old="mem-0001",
                                       new="mem-0003", id="mem-0001")
                assert "Unknown tool" in reason
            assert not tools & await tool_names(s)
    assert snapshot(samples) == before


async def test_remember_dedupes_then_writes_through_the_protocol(samples: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    mem = prof / "memories.md"
    async with connect(str(prof), "--allow-write") as s:
        assert await tool_names(s) == READS | WRITES_A
        first = mem.read_bytes()
        body = "The user switched to decaf after 3 pm on doctor's advice."
        new = await call(s, "memory_remember", body=body, tags=["health", "家庭"], importance="medium",
                         source="chat#9001")
        assert new["written"] is True and new["id"] == "mem-0054" and new["changes"] == ["mem-0054: added"]
        assert {c["id"] for c in new["conflicts"]} >= {"mem-0003", "mem-0004"}  # entries sharing 家庭
        after = mem.read_bytes()
        assert after.startswith(first) and body.encode() in after[len(first):]  # an append; nothing else moved

        # the same text again: not written, the duplicate returned
        dup = await call(s, "memory_remember", body=body)
        assert dup["written"] is False and dup["id"] is None
        assert dup["duplicates"][0]["id"] == "mem-0054" and dup["duplicates"][0]["score"] == 1.0
        assert "mem-0054" in dup["reason"]
        # nearly the same: not written either
        near = await call(s, "memory_remember", body="The user switched to decaf after 3 pm, on doctor's advice!")
        assert near["written"] is False and near["duplicates"][0]["id"] == "mem-0054"
        assert mem.read_bytes() == after
        forced = await call(s, "memory_remember", body=body, force=True)
        assert forced["written"] is True and forced["id"] == "mem-0055"

        sup = await call(s, "memory_supersede", old="mem-0054", new="mem-0055")
        assert sup["written"] is True and sup["changes"] == ["mem-0054: superseded by mem-0055"]
        again = await call(s, "memory_supersede", old="mem-0054", new="mem-0055")
        assert again == {"written": False, "reason": "mem-0054: already superseded by mem-0055"}
        arch = await call(s, "memory_archive", id="mem-0054")
        assert arch["written"] is True and sorted(arch["files"]) == ["contexts/archive/memories.md", "memories.md"]
        assert "mem-0054" in (prof / "contexts/archive/memories.md").read_text(encoding="utf-8")

        # errors carry the CLI's one-line reason
        cli = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "supersede", str(prof), "mem-9999", "mem-0001"],
                             capture_output=True, text=True, env=server_env(), check=False)
        assert cli.returncode == 2
        reason = cli.stderr.strip().removeprefix("openclaw-tui: ")
        assert (await refused(s, "memory_supersede", old="mem-9999", new="mem-0001")).endswith(reason)
        assert "no entry" in await refused(s, "memory_remember", body="Fine text.", conflict="mem-9999")


@pytest.mark.parametrize("text, kind", [
    ("The NAS login is admin, password: hunter2-rotated", "password"),
    ("Deploy key for the blog: sk-proj-abcdefghijklmnopqrstuvwxyz012345", "API key"),
])
async def test_a_credential_is_refused_with_the_reason(samples: Path, text: str, kind: str) -> None:
    prof = samples / "profiles" / "xiaoyu"
    ws = samples / "workspace"
    before = snapshot(samples)
    async with connect(str(prof), "--allow-write") as s:
        reason = await refused(s, "memory_remember", body=text)
        assert "credential" in reason and kind in reason
        assert "hunter2" not in reason and "sk-proj" not in reason  # the value is never echoed
    async with connect(str(ws), "--allow-write") as s:
        assert "credential" in await refused(s, "memory_append_log", text=text)
        assert "credential" in await refused(s, "memory_add_item", section="Preferences", text=text)
    assert snapshot(samples) == before


async def test_personal_data_is_not_a_credential(samples: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    async with connect(str(prof), "--allow-write") as s:
        done = await call(s, "memory_remember", body="林溪的工作邮箱是 linxi@example.com")
        assert done["written"] is True


async def test_commit_commits_each_write_with_the_spec_message(samples: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    git(samples, "init", "-q", "-b", "main")
    git(samples, "add", "-A")
    git(samples, "commit", "-qm", "samples")
    async with connect(str(prof), "--allow-write", "--commit") as s:
        new = await call(s, "memory_remember", body="The user started learning to swim in December.")
        assert new["commit"] and git(samples, "rev-parse", "--short=12", "HEAD").strip() == new["commit"]
    message = git(samples, "log", "-1", "--format=%B")
    assert message == f"feat(mem): xiaoyu: {new['id']} added\n\n- {new['id']}: added\n\n"
    assert [ln for ln in git(samples, "status", "--porcelain").splitlines() if not ln.endswith(".lock")] == []

    # a commit that fails (git's index held by a process that never lets go) does not undo the write
    (samples / ".git" / "index.lock").write_bytes(b"")
    async with connect(str(prof), "--allow-write", "--commit") as s:
        kept = await call(s, "memory_remember", body="The user's swimming lessons are on Saturdays.")
    assert kept["written"] is True and kept["commit"] is None and "index.lock" in kept["commit_error"]
    assert "Saturdays" in (prof / "memories.md").read_text(encoding="utf-8")


async def test_commit_in_a_workspace_names_the_change(samples: Path) -> None:
    ws = samples / "workspace"
    git(samples, "init", "-q", "-b", "main")
    git(samples, "add", "-A")
    git(samples, "commit", "-qm", "samples")
    today = dt.date.today().isoformat()
    async with connect(str(ws), "--allow-write", "--commit") as s:
        one = await call(s, "memory_append_log", text="Lena prefers the Monday digest.")
        two = await call(s, "memory_add_item", section="Preferences", text="Monday digests, not daily ones.")
    assert one["commit"] and two["commit"] and one["commit"] != two["commit"]
    log = git(samples, "log", "-2", "--format=%B%x00")
    assert log.split("\0")[:2] == [
        "feat(mem): add an item to Preferences\n\n- MEMORY.md: changed\n",
        f"\nfeat(mem): append to memory/{today}.md\n\n- memory/{today}.md: added\n",
    ]


# --- writing: layout B ------------------------------------------------------------------------------


async def test_workspace_append_log_and_add_item(samples: Path) -> None:
    ws = samples / "workspace"
    today = dt.date.today().isoformat()
    log = ws / "memory" / f"{today}.md"
    memory = ws / "MEMORY.md"
    async with connect(str(ws), "--allow-write") as s:
        assert await tool_names(s) == READS | WRITES_B
        first = await call(s, "memory_append_log", text="Lena asked for a weekly digest of rent data.")
        assert first["written"] is True and first["files"] == [f"memory/{today}.md"]
        one = log.read_bytes()
        assert one.startswith(f"# {today}\n\n- ".encode()) and one.endswith(b" Lena asked for a weekly digest of rent data.\n")
        await call(s, "memory_append_log", text="Second line\nwith a continuation.")
        two = log.read_bytes()
        assert two.startswith(one) and two[len(one):].endswith(b" Second line\n  with a continuation.\n")

        before = memory.read_text(encoding="utf-8")
        added = await call(s, "memory_add_item", section="Preferences", text="Tea, not coffee, after 4 pm.")
        assert added["written"] is True and added["files"] == ["MEMORY.md"]
        after = memory.read_text(encoding="utf-8")
        old_lines, new_lines = before.splitlines(keepends=True), after.splitlines(keepends=True)
        at = new_lines.index("- Tea, not coffee, after 4 pm.\n")
        assert new_lines[:at] + new_lines[at + 1:] == old_lines  # one line added, nothing else touched
        assert new_lines[at - 1] == "- Local cafés over chains; no tourist traps when travelling.\n"
        await call(s, "memory_add_item", section="Work / Housing", text="Rent index v2 lands in January.")
        assert "- Rent index v2 lands in January.\n\n### Transport" in memory.read_text(encoding="utf-8")
        assert "its sections" in await refused(s, "memory_add_item", section="Hobbies", text="x")


async def test_append_log_keeps_an_existing_log_byte_for_byte(samples: Path) -> None:
    ws = samples / "workspace"
    log = ws / "memory" / f"{dt.date.today().isoformat()}.md"
    old = b"# today\r\n\r\n- 08:00 \xff not UTF-8\r\n- 09:00 no newline at the end"
    log.write_bytes(old)
    async with connect(str(ws), "--allow-write") as s:
        await call(s, "memory_append_log", text="Appended.")
    new = log.read_bytes()
    assert new.startswith(old + b"\r\n- ") and new.endswith(b" Appended.\r\n")


async def test_workspace_writes_never_leave_the_folder(samples: Path, tmp_path: Path) -> None:
    ws = samples / "workspace"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.rename(ws / "memory", tmp_path / "old-memory")
    (ws / "memory").symlink_to(elsewhere)
    async with connect(str(ws), "--allow-write") as s:
        assert "leaves the workspace" in await refused(s, "memory_append_log", text="Hello.")
    assert list(elsewhere.iterdir()) == []


# --- hostile input: errors, never a crash -------------------------------------------------------------


ALIAS_BOMB = "\n".join(['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'] + [
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi", strict=True)]) + "\ncurrent_task: x\n"


async def test_hostile_inputs_give_errors_not_crashes(samples: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    (prof / "state.yaml").write_text(ALIAS_BOMB, encoding="utf-8")
    before = snapshot(prof)
    async with connect(str(prof), "--allow-write") as s:
        assert "at most 20,000" in await refused(s, "memory_remember", body="x" * 1_000_000)
        assert "at most 2,000" in await refused(s, "memory_search", query="团子 " * 5_000)
        assert "between 1 and 50" in await refused(s, "memory_search", query="团子", max_results=100_000)
        assert "at least 1" in await refused(s, "memory_get", path="memories.md", **{"from": 0})
        assert "past its end" in await refused(s, "memory_get", path="memories.md", **{"from": 10**9})
        assert "NUL" in await refused(s, "memory_get", path="memories.md\0x")
        assert await refused(s, "memory_search", query=["not", "a", "string"])  # (the SDK's validation)
        assert "at most 32 tags" in await refused(s, "memory_remember", body="Fine.", tags=["t"] * 1000)
        check = await call(s, "memory_check")
        assert any(f["code"] == "unreadable-file" and f["file"] == "state.yaml" for f in check["findings"])
        assert (await call(s, "memory_context", query="x"))["parts"]
        # invalid UTF-8 in a file: read with a note, the file untouched
        got = await call(s, "memory_get", path="contexts/2025-05-20_legacy.md")
        assert "\ufffd" in got["text"] and "not valid UTF-8" in got["note"]
        assert (await call(s, "memory_search", query="团子"))["results"]  # still serving
    assert snapshot(prof) == before


async def test_an_alias_bomb_in_an_entry_is_a_finding_and_writes_go_on(samples: Path) -> None:
    prof = samples / "profiles" / "atlas"
    with open(prof / "memories.md", "a", encoding="utf-8") as f:
        f.write(f"\n---\nid: mem-0900\nstatus: active\n{ALIAS_BOMB}---\nbomb entry\n")
    async with connect(str(prof), "--allow-write") as s:
        check = await call(s, "memory_check")
        assert any(f["code"] == "malformed-entry" for f in check["findings"])
        assert "no entry with id mem-0900" in await refused(s, "memory_archive", id="mem-0900")
        done = await call(s, "memory_remember", body="The on-call rota now changes on Tuesdays.")
        assert done["written"] is True and done["id"] == "mem-0901"
        assert "bomb entry" in (await call(s, "memory_get", path="memories.md"))["text"]


async def test_long_reads_are_cut_and_resumable(samples: Path) -> None:
    prof = samples / "profiles" / "xiaoyu"
    big = prof / "contexts" / "2026-11-29_big.md"
    big.write_text("".join(f"line {i}\n" for i in range(1, 5001)), encoding="utf-8")
    async with connect(str(prof)) as s:
        part = await call(s, "memory_get", path="contexts/2026-11-29_big.md")
        assert part["truncated"] is True and part["lines"] == 2000 and part["next_from"] == 2001
        rest = await call(s, "memory_get", path="contexts/2026-11-29_big.md", **{"from": part["next_from"]}, lines=3)
        assert rest["text"] == "line 2001\nline 2002\nline 2003\n" and "truncated" not in rest
        wide = prof / "contexts" / "2026-11-30_wide.md"
        wide.write_text("".join(f"{i:04d}" + "x" * 1020 + "\n" for i in range(1000)), encoding="utf-8")
        part = await call(s, "memory_get", path="contexts/2026-11-30_wide.md", lines=500)
        assert part["lines"] == 255 and part["next_from"] == 256 and len(part["text"]) == 255 * 1025  # 256 KB
        with open(prof / "contexts" / "2026-12-01_huge.md", "wb") as f:
            f.truncate(65 * 2**20)  # (sparse: nothing is written)
        assert "too big" in await refused(s, "memory_get", path="contexts/2026-12-01_huge.md", lines=1)


# --- the command ------------------------------------------------------------------------------------


def run_cli(*args: str, block_sdk: bool = False) -> subprocess.CompletedProcess[str]:
    code = "import sys\n"
    if block_sdk:
        code += "sys.modules['mcp'] = None  # as if the SDK were not installed\n"
    code += "from openclaw_tui.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=server_env(),
                          stdin=subprocess.DEVNULL, check=False)


def test_without_the_sdk_one_line_and_exit_2(samples: Path) -> None:
    out = run_cli("mcp", str(samples / "workspace"), block_sdk=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "openclaw-tui: mcp needs the MCP SDK: pip install 'openclaw-tui[mcp]'\n"


def test_bad_folders_and_options_exit_2(samples: Path, tmp_path: Path) -> None:
    out = run_cli("mcp", str(tmp_path))
    assert out.returncode == 2 and out.stderr.startswith("openclaw-tui: ") and out.stderr.count("\n") == 1
    out = run_cli("mcp", str(samples / "workspace"), "--allow-write", "--commit")
    assert out.returncode == 2 and "not inside a git repository" in out.stderr
    out = run_cli("mcp", str(samples / "workspace"), "--commit")
    assert out.returncode == 2 and "--allow-write" in out.stderr
    out = run_cli("mcp", str(samples / "profiles"), "--profile", "nobody")
    assert out.returncode == 2 and "no profile named nobody" in out.stderr
