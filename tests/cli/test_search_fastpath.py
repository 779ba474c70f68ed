"""A fresh ``search`` process: argparse's help and errors, platformdirs' folders, the same output in-process and
as a whole process, and the lean helpers of the query side giving what the library would."""

from __future__ import annotations

import subprocess
import sys

import pytest

from openclaw_tui import cli
from openclaw_tui.core import config


def test_help_and_errors_are_argparse_s(tmp_path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "search", *args], capture_output=True,
                              text=True, check=False)

    helped = run(str(tmp_path), "q", "--help")
    assert helped.returncode == 0 and "--explain" in helped.stdout and "usage: openclaw-tui search" in helped.stdout
    bad = run(str(tmp_path))
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.splitlines()[-1].startswith("openclaw-tui search: error") or "required" in bad.stderr
    n = run(str(tmp_path), "q", "-n", "x")
    assert n.returncode == 2 and "invalid int value" in n.stderr
    # the fast path reaches the command: a folder that is no memory is its one-line error
    notmem = run(str(tmp_path), "q")
    assert notmem.returncode == 2 and notmem.stderr.startswith("openclaw-tui: ") and len(notmem.stderr.splitlines()) == 1


@pytest.mark.parametrize("env", [
    {}, {"XDG_CACHE_HOME": "/x/cache", "XDG_CONFIG_HOME": "/x/conf"}, {"XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": ""},
    {"XDG_CACHE_HOME": "relative", "XDG_CONFIG_HOME": "rel"}, {"XDG_CACHE_HOME": "/x/c/", "HOME": "/"},
    {"XDG_CACHE_HOME": " /x", "XDG_CONFIG_HOME": "/x "}, {"XDG_CACHE_HOME": "//net/c"},
])
def test_the_cache_and_config_folders_are_platformdirs_ones(monkeypatch, env: dict[str, str]) -> None:
    import platformdirs

    for k, v in env.items():
        monkeypatch.setenv(k, v)
    if not env:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv(config.ENV_FILE, raising=False)
    assert config.cache_dir() == __import__("pathlib").Path(platformdirs.user_cache_dir("openclaw-tui", appauthor=False))
    assert config.config_path().parent == __import__("pathlib").Path(
        platformdirs.user_config_dir("openclaw-tui", appauthor=False))


def test_a_cjk_neighbour_is_a_word_boundary() -> None:
    """A query's word is found beside a CJK character, not inside a longer word; its CJK runs anywhere."""
    from openclaw_tui.core.search.text import parse_query

    q = parse_query("tea 咖啡")
    assert [m.group() for m in q.pattern.finditer("咖啡tea teas 咖啡馆Tea")] == ["咖啡", "tea", "咖啡", "Tea"]


def test_a_config_file_is_read_by_the_same_search(tmp_path, monkeypatch) -> None:
    """The lean path is only for no config file: a config file's weights are in force (and named)."""
    import json

    from tests.search_corpus import make_profile

    mia = make_profile(tmp_path / "corpus")
    conf = tmp_path / "config.toml"
    conf.write_text("[search]\nhalf_life_days = 0\nmmr_lambda = 1\n", encoding="utf-8")
    argv = [sys.executable, "-m", "openclaw_tui.cli", "search", str(mia), "coffee", "--json"]
    plain = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)
    assert plain["ranking"]["source"] == "defaults" and plain["ranking"]["half_life_days"] == 30
    configured = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True,
                                           env={**__import__("os").environ, config.ENV_FILE: str(conf)}).stdout)
    assert configured["ranking"] == {**plain["ranking"], "source": "config", "half_life_days": 0.0, "mmr_lambda": 1.0}


def test_the_default_ranking_is_the_default_settings_one() -> None:
    from openclaw_tui.core.search.rank import Ranking, ranking_from

    assert ranking_from(config.SearchSettings()) == Ranking()
    assert ranking_from(config.load_config(tmp_missing := __import__("pathlib").Path("/nonexistent/c.toml")).search) \
        == Ranking() and not tmp_missing.exists()


def test_a_whole_process_prints_what_main_prints_in_process(tmp_path, capsysbinary) -> None:
    """``main(argv)`` called in-process and a whole process (``main()``, as the console script and ``python -m``
    call it) print the same bytes and status, their output flushed whole."""
    from tests.search_corpus import make_profile

    mia = make_profile(tmp_path / "corpus")
    assert cli.main(["search", str(mia), "coffee"]) == 0
    assert b"coffee" in capsysbinary.readouterr().out
    after = "import sys\nfrom openclaw_tui.cli import main\nsys.exit(main())"
    whole = subprocess.run([sys.executable, "-c", after, "search", str(mia), "coffee", "--json"], capture_output=True,
                           check=False)
    inproc = subprocess.run([sys.executable, "-c", "import sys\nfrom openclaw_tui.cli import main\n"
                             "sys.exit(main(sys.argv[1:]))", "search", str(mia), "coffee", "--json"],
                            capture_output=True, check=False)
    assert whole.returncode == inproc.returncode == 0 and b'"coffee"' in whole.stdout
    assert whole.stdout == inproc.stdout and whole.stdout.endswith(b"}\n")
    for query in ("咖啡", "咖啡 茶", "喜欢"):  # Chinese --json, the issue's row: a whole process prints the same bytes
        argv = ["search", str(mia), query, "--json", "-n", "20"]
        whole = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *argv], capture_output=True, check=False)
        inproc = subprocess.run([sys.executable, "-c", "import sys\nfrom openclaw_tui.cli import main\n"
                                 "sys.exit(main(sys.argv[1:]))", *argv], capture_output=True, check=False)
        assert (whole.returncode, whole.stdout, whole.stderr) == (inproc.returncode, inproc.stdout, inproc.stderr)
        assert whole.returncode == 0 and f'"query": "{query}"'.encode() in whole.stdout
        assert query == "咖啡 茶" or whole.stdout.count(b'"citation": "memories.md#L') >= 2  # (results to compare)
    bad = subprocess.run([sys.executable, "-c", after, "search", str(mia), "coffee", "-n", "0"], capture_output=True,
                         check=False)  # a usage error: status 2, its one line on stderr (flushed), nothing else
    assert bad.returncode == 2 and bad.stdout == b"" and bad.stderr == b"openclaw-tui: -n must be at least 1 (got 0)\n"
    big = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "search", str(mia), "the", "-n", "200"],
                         capture_output=True, check=False)  # more than a pipe buffer's worth? all of it, in order
    assert big.returncode == 0 and big.stdout.endswith(b" results\n")


def test_the_search_records_compare_hash_pickle_and_copy(tmp_path) -> None:
    """Equality by fields and class, hashing and refused assignment when frozen, repr, pickle and copy."""
    import copy
    import dataclasses
    import pickle
    from pathlib import Path

    from openclaw_tui.core.search.index import Stats
    from openclaw_tui.core.search.rank import Hit, Ranking, Results
    from openclaw_tui.core.search.reader import Root, Row
    from openclaw_tui.core.search.text import Chunk, parse_query

    root = Root("p", ".", Path("/x/p"), "profile")
    row = Row(1, Path("/x/p/memories.md"), root, "memories.md", 0, 9, 4, 1, 3, "mem-1", "entry", None, "h", "raw")
    hit = Hit("p", ".", "memories.md", 1, 3, "mem-1", 0.5, "snip", 2, ((0, 4),), Path("/x/p/memories.md"), "entry",
              text_score=0.5, date="2026-01-02")
    frozen = [root, hit, Ranking(), parse_query("咖啡 coffee"), Chunk(0, 1, 1, 1)]
    for rec in [*frozen, row, Stats(files=3), Results([hit], "note", None, Ranking())]:
        assert pickle.loads(pickle.dumps(rec)) == rec == copy.deepcopy(rec) == copy.copy(rec)
        assert rec != object() and repr(rec).startswith(type(rec).__name__ + "(")
    for rec in frozen:
        assert hash(rec) == hash(copy.copy(rec))
        with pytest.raises(AttributeError):  # (a field: Python 3.11's slotted dataclass raises TypeError for others)
            setattr(rec, dataclasses.fields(rec)[0].name, "x")
    assert Root("p", ".", Path("/x/p"), "profile") == root and Root("q", ".", Path("/x/p"), "profile") != root
    assert Ranking(mmr_lambda=1.0) != Ranking() and Ranking(source="defaults") == Ranking()
    row.start = 5  # (a Row, as before, is not frozen)
    assert row != copy.copy(Row(1, Path("/x/p/memories.md"), root, "memories.md", 0, 9, 4, 1, 3, "mem-1", "entry",
                                None, "h", "raw"))
    with pytest.raises(TypeError):
        hash(row)
    assert "score=0.5" in repr(hit)
    q = parse_query("coffee")
    assert pickle.loads(pickle.dumps(q)).pattern.search("Coffee!").span() == (0, 6)


UGLY = ["", "plain", '"quoted" \\ back\\slash', "\x00\x01\x08\t\n\x0b\x0c\r\x1b\x1f \x7f \x80 \x9f",
        "\u2028\u2029 \ufeff \ud800 lone \udfff \udc80", "咖啡 用户 ☕ 😀 \U0001f468\u200d\U0001f469", "</script>&<'>",
        "\\u0041 \\n", "é ß ſ K"]


def test_clean_without_its_regexes_is_what_they_gave() -> None:
    """``text.clean`` (each snippet line) uses a translate table and a plain UTF-8 test instead of compiling two
    character classes in every fresh process: on any text it gives what the two regexes gave (or raises alike)."""
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from openclaw_tui.core.search import text

    surrogate, control = re.compile("[\udc80-\udcff]"), re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")

    def regexes(s: str) -> str:
        if surrogate.search(s):
            s = s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        return control.sub("\ufffd", s.replace("\t", " "))

    def outcome(fn: object, s: str) -> object:
        try:
            return fn(s)  # type: ignore[operator]
        except UnicodeError as exc:
            return type(exc)

    odd = list("ab \t\n\r\x00\x01\x08\x0b\x1f\x7f\x80\x85\u2028\u2029\u2027\u202a咖\ud800\udc80\udcff\udd00\udbff\ufffd😀")
    for s in ["", "plain 咖啡", "a\tb\x00c\x7f\u2028d\n", "bad \udc80\udcff byte", "lone \ud800", "\ud800\udc80"]:
        assert outcome(text.clean, s) == outcome(regexes, s)
    assert text.clean("a\tb\x01\u2029\udcff") == "a b\ufffd\ufffd\ufffd"

    @settings(max_examples=1500, deadline=None, database=None)
    @given(st.lists(st.sampled_from(odd)).map("".join) | st.text())
    def check(s: str) -> None:
        assert outcome(text.clean, s) == outcome(regexes, s)

    check()
    assert text.has_surrogates("x\udc80") and not text.has_surrogates("x\ud800咖")
    assert text.without_surrogates("a\udc80\ud800") == "a\ufffd\ud800"


def test_the_files_a_search_checks_are_those_resolving_every_path_gave(tmp_path) -> None:
    """``files_of`` (the freshness check of every ``search``) takes a file or folder with no symlink below the
    profile as inside it without resolving both paths from ``/``; with links (in, out, dangling, a linked
    folder, a linked profile) and odd entries (a folder named like a file, a fifo) it lists what resolving
    every path (``places.inside``) listed."""
    import os
    from pathlib import Path

    from openclaw_tui.core.format import places
    from openclaw_tui.core.format.places import ARCHIVE_REL, inside
    from openclaw_tui.core.search import index_files as ix
    from openclaw_tui.core.search.text import indexed_rel

    def walk(root: Path, folder: Path) -> list[Path]:
        try:
            if not folder.is_dir() or not inside(root, folder):
                return []
        except OSError:
            return []
        out = []
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames.sort()
            out += [Path(dirpath) / n for n in sorted(filenames) if n.endswith(".md")]
        return out

    def resolved(root: ix.Root) -> list[tuple[str, Path]]:  # files_of as it was: every path resolved
        base = root.path
        if root.layout == "openclaw":
            cands = [base / n for n in (*places.BOOTSTRAP_NAMES, "DREAMS.md")] + walk(base, base / "memory")
        else:
            cands = [base / "memories.md", base / ARCHIVE_REL, base / "identity.md", base / "state.yaml"]
            cands += [p for p in walk(base, base / "contexts") if p != base / ARCHIVE_REL] + walk(base, base / "skills")
        out, seen = [], set()
        for p in cands:
            rel = p.relative_to(base).as_posix()
            if rel in seen or not indexed_rel(root.layout, rel):
                continue
            seen.add(rel)
            try:
                if (p.exists() or p.is_symlink()) and inside(base, p) and p.is_file():
                    out.append((rel, p))
            except OSError:
                continue
        return out

    outside = tmp_path / "outside"
    (outside / "ctx").mkdir(parents=True)
    (outside / "secret.md").write_text("x", encoding="utf-8")
    (outside / "ctx" / "o.md").write_text("x", encoding="utf-8")
    prof = tmp_path / "real" / "prof"
    (prof / "contexts" / "deep").mkdir(parents=True)
    (prof / "skills").mkdir()
    (prof / "memories.md").write_text("---\nid: mem-1\n---\nx\n", encoding="utf-8")
    (prof / "identity.md").mkdir()  # a folder where a file is expected
    (prof / "contexts" / "a.md").write_text("x", encoding="utf-8")
    (prof / "contexts" / "deep" / "b.md").write_text("x", encoding="utf-8")
    (prof / "contexts" / "out.md").symlink_to(outside / "secret.md")
    (prof / "contexts" / "in.md").symlink_to(prof / "contexts" / "a.md")
    (prof / "contexts" / "gone.md").symlink_to(tmp_path / "nothing.md")
    (prof / "contexts" / "linked").symlink_to(outside / "ctx")
    (prof / "contexts" / "fifo.md").parent.mkdir(exist_ok=True)
    os.mkfifo(prof / "contexts" / "fifo.md")
    (prof / "skills" / "s.md").write_text("x", encoding="utf-8")
    (tmp_path / "alias").symlink_to(tmp_path / "real")  # the profile reached through a link
    cases = [ix.Root("prof", ".", prof, "profile"), ix.Root("prof", ".", tmp_path / "alias" / "prof", "profile")]
    (prof / "archive").mkdir(exist_ok=True)
    other = tmp_path / "other"
    other.mkdir()
    (other / "memories.md").write_text("x", encoding="utf-8")
    (other / "contexts").symlink_to(outside / "ctx")  # the whole folder elsewhere
    (other / "skills").symlink_to(prof / "skills")
    cases.append(ix.Root("other", ".", other, "profile"))
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "AGENTS.md").write_text("x", encoding="utf-8")
    (ws / "MEMORY.md").symlink_to(outside / "secret.md")
    (ws / "memory" / "2026-01-02.md").write_text("x", encoding="utf-8")
    (ws / "memory" / "2026-01-03.md").symlink_to(ws / "AGENTS.md")
    cases.append(ix.Root("ws", ".", ws, "openclaw"))
    for root in cases:
        assert ix.files_of(root) == resolved(root)
    got = [rel for rel, _p in ix.files_of(cases[0])]
    assert "contexts/a.md" in got and "contexts/in.md" in got and "contexts/out.md" not in got
    assert "contexts/fifo.md" not in got and "contexts/linked/o.md" not in got and "identity.md" not in got


def test_a_query_of_cjk_runs_and_words_is_found_in_text() -> None:
    """A query with no word (CJK runs only) and one with a word find their terms' spans in raw text."""
    from openclaw_tui.core.search.query import parse_query

    text = "用户说咖啡因和咖啡馆 Tea tea"
    assert [m.span() for m in parse_query("咖啡 咖啡馆").pattern.finditer(text)] == [(3, 5), (7, 10)]
    assert [m.span() for m in parse_query("tea 咖啡").pattern.finditer(text)] == [(3, 5), (7, 9), (11, 14), (15, 18)]
