"""`openclaw-tui get`: exact bytes of lines, and nothing outside the profile folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def cli(*args: str | Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *map(str, args)],
                          capture_output=True, timeout=120)


RAW = (b"\xef\xbb\xbf# preamble\r\n---\r\nid: mem-0001\r\n---\r\nfirst \xe5\x92\x96\xe5\x95\xa1\r\n\r\n"
       b"---\nid: mem-0002\n---\nbad byte \xff here\nno newline at the end")


@pytest.fixture
def prof(tmp_path: Path) -> Path:
    p = tmp_path / "profiles" / "a"
    (p / "contexts").mkdir(parents=True)
    (p / "memories.md").write_bytes(RAW)
    (p / "contexts" / "note.md").write_bytes(b"one\ntwo\nthree\n")
    b = tmp_path / "profiles" / "b"
    b.mkdir()
    (b / "memories.md").write_bytes(b"---\nid: mem-0001\n---\nprofile b\n")
    (tmp_path / "secret.txt").write_bytes(b"outside\n")
    return p


def test_whole_file_is_printed_byte_for_byte(prof: Path) -> None:
    r = cli("get", prof, "memories.md")
    assert r.returncode == 0 and r.stdout == RAW


def test_line_and_count_select_exact_lines(prof: Path) -> None:
    lines = RAW.split(b"\n")
    r = cli("get", prof, "memories.md", "--line", "2", "--count", "3")
    assert r.stdout == b"---\r\nid: mem-0001\r\n---\r\n"
    r = cli("get", prof, "memories.md", "--line", "10", "--count", "100")
    assert r.stdout == b"bad byte \xff here\nno newline at the end" == b"\n".join(lines[9:])
    assert cli("get", prof, "memories.md", "--line", "11").stdout == b"no newline at the end"
    assert cli("get", prof, "contexts/note.md", "--count", "1").stdout == b"one\n"


def test_search_hits_can_be_fetched_with_get(prof: Path) -> None:
    out = json.loads(cli("search", prof, "咖啡", "--json").stdout)
    (hit,) = out["results"]
    r = cli("get", prof, hit["file"], "--line", str(hit["start_line"]),
            "--count", str(hit["end_line"] - hit["start_line"] + 1))
    assert r.stdout == b"---\r\nid: mem-0001\r\n---\r\nfirst \xe5\x92\x96\xe5\x95\xa1\r\n"


def test_a_root_with_several_profiles(prof: Path) -> None:
    root = prof.parent
    assert cli("get", root, "memories.md", "--profile", "b").stdout == b"---\nid: mem-0001\n---\nprofile b\n"
    assert cli("get", root.parent, "profiles/b/memories.md", "--line", "4").stdout == b"profile b\n"
    r = cli("get", root, "memories.md")
    assert r.returncode == 2 and b"--profile" in r.stderr
    assert cli("get", root, "memories.md", "--profile", "zz").returncode == 2


@pytest.mark.parametrize(
    "file",
    ["../b/memories.md", "../../secret.txt", "contexts/../../b/memories.md", "{abs}", "link/secret.txt",
     "outside-link", "missing.md", "contexts", ""],
)
def test_refused_paths_exit_2_and_print_nothing(prof: Path, file: str) -> None:
    os.symlink(prof.parent.parent, prof / "link")
    os.symlink(prof.parent.parent / "secret.txt", prof / "outside-link")
    r = cli("get", prof, file.format(abs=prof.parent.parent / "secret.txt"))
    assert r.returncode == 2 and r.stdout == b""
    assert len(r.stderr.decode().strip().splitlines()) == 1


@pytest.mark.parametrize("opts", [("--line", "0"), ("--line", "12"), ("--count", "0"), ("--line", "x")])
def test_bad_line_numbers_exit_2(prof: Path, opts: tuple[str, str]) -> None:
    r = cli("get", prof, "memories.md", *opts)
    assert r.returncode == 2 and r.stdout == b""


def test_empty_file_prints_nothing(tmp_path: Path) -> None:
    (tmp_path / "memories.md").write_bytes(b"")
    r = cli("get", tmp_path, "memories.md")
    assert r.returncode == 0 and r.stdout == b""


def test_not_a_profile_exits_2(tmp_path: Path) -> None:
    r = cli("get", tmp_path, "memories.md")
    assert r.returncode == 2 and r.stderr.startswith(b"openclaw-tui: ")
