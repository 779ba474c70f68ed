"""Redaction: placeholders in the files, SHA-256 in secrets_refs.yaml, the value gone everywhere."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from openclaw_tui.core.check.redact import RedactError, apply_redaction, plan_redaction, redact_profile
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.entries import parse_bytes
from tests.unit.test_check_support import active, check, entry, make_profile, of

PHONE = "13812345678"
EMAIL = "chen.ming@example.com"
KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx12"


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its bytes (None for folders)."""
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


def all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


@pytest.fixture
def secret_profile(tmp_path: Path) -> Path:
    return make_profile(
        tmp_path,
        memories="# 联系人 " + EMAIL + "\n\n"
        + active("mem-0001", f"手机 {PHONE}，邮箱 {EMAIL}")
        + entry("mem-0002", "again " + PHONE, source=PHONE, importance="high")
        + active("mem-0003", "nothing here"),
        archive=entry("mem-0004", f"old key {KEY}", status="archived"),
        state=f"owner_phone: {PHONE}\nnote: call {PHONE} later\nlist: [{PHONE}, x]\npassword: hunter2\n",
        contexts={"c.md": f"密码：hunter2\n{PHONE}\n"},
        identity="# me\n",
        secrets_refs="# records\n- placeholder: \"{{secret:phone-1}}\"\n  kind: phone\n  entry: mem-0009\n  sha256: 00\n",
    )


def test_redact_replaces_records_and_forgets_the_values(secret_profile: Path) -> None:
    before_refs = (secret_profile / "secrets_refs.yaml").read_bytes()
    result = redact_profile(load_profile(secret_profile))
    assert {r.kind for r in result.redactions} == {"phone", "email", "api-key", "password"}
    for raw in (PHONE, EMAIL, KEY, "hunter2"):
        assert raw.encode() not in all_bytes(secret_profile), raw
    # numbering continues after the recorded phone-1; the same value keeps the same placeholder
    phones = {r.placeholder for r in result.redactions if r.kind == "phone"}
    assert phones == {"{{secret:phone-2}}"}
    mem = (secret_profile / "memories.md").read_text()
    assert "手机 {{secret:phone-2}}，邮箱 {{secret:email-1}}" in mem
    assert 'source: "{{secret:phone-2}}"' in mem  # quoted: the frontmatter stays a YAML mapping
    mf = parse_bytes((secret_profile / "memories.md").read_bytes())
    assert [e.id for e in mf.entries if e.error is None] == ["mem-0001", "mem-0002", "mem-0003"]
    assert mf.get("mem-0002").meta["source"] == "{{secret:phone-2}}"  # type: ignore[union-attr]
    state = yaml.safe_load((secret_profile / "state.yaml").read_text())
    assert state == {
        "owner_phone": "{{secret:phone-2}}",
        "note": "call {{secret:phone-2}} later",
        "list": ["{{secret:phone-2}}", "x"],
        "password": "{{secret:password-1}}",
    }
    # secrets_refs.yaml: old bytes kept, records appended with the SHA-256 of each value
    refs_bytes = (secret_profile / "secrets_refs.yaml").read_bytes()
    assert refs_bytes.startswith(before_refs)
    records = yaml.safe_load(refs_bytes)
    assert isinstance(records, list) and records[0]["entry"] == "mem-0009"
    sha = {r["placeholder"]: r["sha256"] for r in records[1:]}
    assert sha["{{secret:phone-2}}"] == hashlib.sha256(PHONE.encode()).hexdigest()
    assert sha["{{secret:api-key-1}}"] == hashlib.sha256(KEY.encode()).hexdigest()
    assert {(r["placeholder"], r["entry"]) for r in records[1:] if r["kind"] == "phone"} == {
        ("{{secret:phone-2}}", "mem-0001"),
        ("{{secret:phone-2}}", "mem-0002"),
        ("{{secret:phone-2}}", None),
    }
    # nothing left to report or redact
    assert of(check(secret_profile), "sensitive-data") == []
    assert plan_redaction(load_profile(secret_profile)) == []


def test_dry_run_writes_nothing(secret_profile: Path) -> None:
    before = snapshot(secret_profile)
    result = redact_profile(load_profile(secret_profile), dry_run=True)
    assert result.redactions and result.plan.files
    assert snapshot(secret_profile) == before


def test_redaction_only_touches_the_secret_bytes(secret_profile: Path) -> None:
    before = (secret_profile / "memories.md").read_bytes()
    redact_profile(load_profile(secret_profile))
    after = (secret_profile / "memories.md").read_bytes()
    expected = before.replace(PHONE.encode(), b"{{secret:phone-2}}").replace(EMAIL.encode(), b"{{secret:email-1}}")
    expected = expected.replace(b"source: {{secret:phone-2}}", b'source: "{{secret:phone-2}}"')
    assert after == expected


def test_secret_in_a_changed_file_is_refused(secret_profile: Path) -> None:
    profile = load_profile(secret_profile)
    reds = plan_redaction(profile)
    ctx = secret_profile / "contexts" / "c.md"
    ctx.write_text("rewritten by someone else " + PHONE + "\n")
    result = apply_redaction(profile, reds)  # rebuilt on the new content
    assert PHONE.encode() not in all_bytes(secret_profile)
    assert "rewritten by someone else {{secret:phone-2}}" in ctx.read_text()
    assert result.redactions


def test_secrets_refs_that_is_not_a_list_is_refused(tmp_path: Path) -> None:
    prof = make_profile(tmp_path, memories=active("mem-0001", PHONE), secrets_refs="records: {}\n")
    before = snapshot(prof)
    with pytest.raises(RedactError):
        redact_profile(load_profile(prof))
    assert snapshot(prof) == before


def test_nothing_to_redact_writes_nothing(tmp_path: Path) -> None:
    prof = make_profile(tmp_path, memories=active("mem-0001", "{{secret:phone-1}} only"))
    before = snapshot(prof)
    assert redact_profile(load_profile(prof)).redactions == []
    assert snapshot(prof) == before


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True, timeout=120)


def test_cli_redact_prints_placeholders_never_values(secret_profile: Path) -> None:
    before = snapshot(secret_profile)
    dry = cli("redact", str(secret_profile), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert snapshot(secret_profile) == before
    lines = dry.stdout.splitlines()
    assert "memories.md:10 phone {{secret:phone-2}}" in lines
    assert "state.yaml:4 password {{secret:password-1}}" in lines
    for raw in (PHONE, EMAIL, KEY, "hunter2"):
        assert raw not in dry.stdout
    real = cli("redact", str(secret_profile))
    assert real.returncode == 0, real.stderr
    assert real.stdout == dry.stdout
    assert PHONE.encode() not in all_bytes(secret_profile)
    again = cli("redact", str(secret_profile))
    assert again.returncode == 0 and again.stdout == ""


def test_cli_redact_needs_one_profile(tmp_path: Path) -> None:
    make_profile(tmp_path, name="a", memories=active("mem-0001", PHONE))
    make_profile(tmp_path, name="b", memories=active("mem-0001", PHONE))
    before = snapshot(tmp_path)
    res = cli("redact", str(tmp_path))
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert snapshot(tmp_path) == before
    ok = cli("redact", str(tmp_path), "--profile", "b")
    assert ok.returncode == 0 and ok.stdout.startswith("memories.md:")
    assert PHONE.encode() in (tmp_path / "a" / "memories.md").read_bytes()
    assert PHONE.encode() not in (tmp_path / "b" / "memories.md").read_bytes()
