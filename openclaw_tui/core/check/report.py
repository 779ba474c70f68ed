"""Reports of the consistency check: JSON (spec shape), text, SARIF 2.1.0 and the audit log."""

from __future__ import annotations

import datetime as dt
import os
import posixpath
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..files.profile import Discovery, Profile
from ..i18n import _
from .codes import CODES, SEVERITY_ORDER
from .findings import Finding
from .messages import SEVERITY_WORDS, localize, localize_hint

JSON_VERSION = 1
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SRCROOT = "%SRCROOT%"


def summary(findings: Iterable[Finding]) -> dict[str, int]:
    counts = Counter(f.severity for f in findings)
    return {s: counts[s] for s in SEVERITY_ORDER}


def to_json(discovery: Discovery, findings: Sequence[Finding], root_as_given: str) -> dict[str, Any]:
    """The document of ``check --format json`` (spec shape, version 1)."""
    return {
        "version": JSON_VERSION,
        "root": root_as_given,
        "profiles": [
            {"name": p.name, "path": p.rel, "layout": p.layout, "entries": p.entry_count()}
            for p in discovery.profiles
        ],
        "findings": [f.to_json() for f in findings],
        "summary": summary(findings),
    }


def display_path(f: Finding, several: bool) -> str:
    """The finding's file, with the profile's path in front when the check covered several profiles."""
    if several and f.profile_path not in ("", "."):
        return posixpath.join(f.profile_path, f.file)
    return f.file


def to_text(discovery: Discovery, findings: Sequence[Finding]) -> str:
    """``file:line: severity code message`` lines, then ``N errors, N warnings, N info``."""
    several = len(discovery.profiles) > 1
    lines = []
    for f in findings:
        where = display_path(f, several)
        if f.line is not None:
            where = f"{where}:{f.line}"
        message = _one_line(localize(f.code, f.message))
        if f.suggestions:
            message = _("%(message)s; %(hint)s") % {"message": message, "hint": _one_line(localize_hint(f.hint))}
        lines.append(f"{where}: {_(SEVERITY_WORDS[f.severity])} {f.code} {message}")
    counts = summary(findings)
    lines.append(_("%(errors)d errors, %(warnings)d warnings, %(info)d info") % {
        "errors": counts["error"], "warnings": counts["warning"], "info": counts["info"]})
    return "\n".join(lines) + "\n"


def sarif_root(path: Path) -> Path:
    """What SARIF URIs are relative to: the git work tree holding ``path`` (code scanning resolves
    ``%SRCROOT%`` against it), else the current folder."""
    from ..git.gitrepo import find_repo

    repo = find_repo(path)
    return (repo.root if repo is not None else Path.cwd()).resolve()


def to_sarif(discovery: Discovery, findings: Sequence[Finding], srcroot: Path | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one rule per finding code; each location a URI relative to ``%SRCROOT%``
    (``srcroot``, default ``sarif_root``), or an absolute ``file:`` URI for a file outside it."""
    base = (srcroot or sarif_root(discovery.root)).resolve()
    checked = discovery.root.resolve()
    index = {c: i for i, c in enumerate(CODES)}
    rules = [
        {
            "id": code,
            "name": "".join(part.capitalize() for part in code.split("-")),
            "shortDescription": {"text": c.explanation},
            "defaultConfiguration": {"level": SARIF_LEVEL[c.severity]},
        }
        for code, c in CODES.items()
    ]
    results = []
    for f in findings:
        full = checked / display_path(f, True)
        try:
            artifact = {"uri": quote(full.relative_to(base).as_posix(), safe="/"), "uriBaseId": SRCROOT}
        except ValueError:
            artifact = {"uri": full.as_uri()}
        location: dict[str, Any] = {"physicalLocation": {"artifactLocation": artifact}}
        if f.line is not None:
            location["physicalLocation"]["region"] = {"startLine": f.line}
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": SARIF_LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [location],
            "properties": {"profile": f.profile, "id": f.id},
        }
        if f.suggestions:
            _add_fixes(result, f, location)
        results.append(result)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "openclaw-tui",
                "informationUri": "https://github.com/openclaw/openclaw",
                "rules": rules,
            }
        },
        "originalUriBaseIds": {SRCROOT: {"uri": base.as_uri() + ("" if base.as_uri().endswith("/") else "/")}},
        "results": results,
        "columnKind": "unicodeCodePoints",  # the columns of fixes count characters
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _add_fixes(result: dict[str, Any], f: Finding, location: dict[str, Any]) -> None:
    """Rewrites become SARIF ``fixes`` (exact columns); every suggestion is also in the properties."""
    result["properties"]["suggestions"] = [s.to_json() for s in f.suggestions]
    fixes = []
    for s in f.suggestions:
        if s.edit is None:
            continue
        line, start, end, new = s.edit
        fixes.append({
            "description": {"text": f"{s.action} {s.target}: {s.why}"},
            "artifactChanges": [{
                "artifactLocation": dict(location["physicalLocation"]["artifactLocation"]),
                "replacements": [{
                    "deletedRegion": {"startLine": line, "startColumn": start, "endLine": line, "endColumn": end},
                    "insertedContent": {"text": new},
                }],
            }],
        })
    if fixes:
        result["fixes"] = fixes


def _one_line(text: str) -> str:
    return " ".join(text.split()) if ("\n" in text or "\r" in text) else text


def audit_line(f: Finding, when: dt.datetime) -> str:
    """``<UTC ISO-8601 time> <severity> <code> <file>[:<line>] <message>``."""
    stamp = when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    where = f.file if f.line is None else f"{f.file}:{f.line}"
    return f"{stamp} {f.severity} {f.code} {where} {_one_line(f.message)}"


def append_audit_log(profile: Profile, findings: Iterable[Finding], when: dt.datetime | None = None) -> int:
    """Append the profile's findings to its audit.log (locked, fsynced); returns the lines written."""
    mine = [f for f in findings if f.profile == profile.name and f.profile_path == profile.rel]
    if not mine:
        return 0
    when = when or dt.datetime.now(dt.UTC)
    data = "".join(audit_line(f, when) + "\n" for f in mine).encode("utf-8")
    path = profile.audit_log_path
    from ..files.safe_write import locked  # only here: a plain check writes nothing

    with locked(path), open(os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644), "r+b") as fh:
        if fh.seek(0, os.SEEK_END) > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":  # a log whose last line has no newline gets one first
                data = b"\n" + data
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    return len(mine)
