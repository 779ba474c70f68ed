"""Memory over time from git history, one point per commit: entries by status (layout A) or each
injected file's size and the total as ``context`` counts them (layout B), plus the findings count.
"""

from __future__ import annotations

import datetime as dt
import io
import posixpath
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..config import Limits
from ..format.entries import parse_bytes
from ..git.gitrepo import GitError, find_repo, read_blob, run_git
from ..git.semantic_diff import ARCHIVE, MEMORIES
from ..i18n import N_, _
from ..workspace.injection import CURRENT_RELEASE
from .inbox import _commits, layout_of

# the names of series and limit lines that are words, not file names (they stay English in the JSON)
WORDS = (N_("active"), N_("superseded"), N_("cold"), N_("archived"), N_("malformed"), N_("compacted"),
         N_("total"), N_("per file"))


def label(name: str) -> str:
    """A series' or a limit line's name as the chart shows it, in the reader's language."""
    return _(name) if name in WORDS else name


@dataclass
class Trends:
    layout: str
    commits: list[tuple[str, str, str]] = field(default_factory=list)  # (sha, date, subject), oldest first
    series: dict[str, list[int]] = field(default_factory=dict)  # name -> one value per commit
    limits: dict[str, int] = field(default_factory=dict)  # name of a limit line -> its value
    findings: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return asdict(self) | {"commits": [list(c) for c in self.commits]}


def _statuses(data: bytes | None, out: dict[str, int], archived: bool) -> None:
    if data is None:
        return
    for e in parse_bytes(data).entries:
        key = "malformed" if e.error else "archived" if archived else (e.status or "active")
        out[key] = out.get(key, 0) + 1


@contextmanager
def _exported(repo_root: Path, sha: str, prefix: str) -> Iterator[Path | None]:
    """The folder's tree at ``sha``, exported to a temporary folder (None when git cannot)."""
    proc = run_git(["archive", "--format=tar", sha, "--", prefix or "."], repo_root, check=False)
    if proc.returncode != 0:
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="openclaw-tui-trend.") as tmp:
        with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        folder = Path(tmp, prefix)
        yield folder if folder.is_dir() else None


def _findings(folder: Path | None, today: dt.date | None, release: str | None) -> int:
    from ..check.rules import check_discovery
    from ..files.profile import Discovery, load_profile

    if folder is None:
        return 0
    layout = layout_of(folder)
    prof = load_profile(folder, ".", layout)
    kind = "workspace" if layout == "openclaw" else "profile"
    return len(list(check_discovery(Discovery(folder, kind, [prof]), today=today, release=release)))


def _bootstrap_point(folder: Path | None, limits: Limits, release: str, point: dict[str, int]) -> None:
    """Each injected file's size and the total injected, as ``context`` counts them (main session)."""
    from ..workspace.bootstrap import bootstrap_sizes

    if folder is None:
        return
    parts = bootstrap_sizes(folder, limits, release)
    point.update({p.name: p.chars_raw for p in parts if not p.missing})
    point["total"] = sum(p.chars_injected for p in parts)


def trends(folder: Path | str, limit: int = 30, *, findings: bool = True, today: dt.date | None = None) -> Trends:
    """The folder's series over its last ``limit`` commits (see the module docstring)."""
    folder = Path(folder).absolute()
    repo = find_repo(folder)
    if repo is None:
        raise GitError(["log"], 128, f"{folder} is not inside a git repository")
    prefix = repo.rel(folder)
    layout = layout_of(folder)
    commits = list(reversed(_commits(repo, folder, None, None, limit)))
    out = Trends(layout, [(c.sha, c.date, c.subject) for c in commits])
    lim, release = Limits(), CURRENT_RELEASE
    if layout == "openclaw":
        from ..workspace.openclaw_config import load_openclaw_config

        oc = load_openclaw_config(folder)
        lim, release = oc.limits, oc.release
        out.limits = {"per file": lim.bootstrap_max_chars, "total": lim.bootstrap_total_max_chars}

    rows: list[dict[str, int]] = []
    for c in commits:
        point: dict[str, int] = {}
        if layout == "profile":
            _statuses(read_blob(repo, c.sha, posixpath.join(prefix, MEMORIES)), point, False)
            _statuses(read_blob(repo, c.sha, posixpath.join(prefix, ARCHIVE)), point, True)
            if findings:
                with _exported(repo.root, c.sha, prefix) as tree:
                    out.findings.append(_findings(tree, today, None))
        else:
            with _exported(repo.root, c.sha, prefix) as tree:
                _bootstrap_point(tree, lim, release, point)
                if findings:
                    out.findings.append(_findings(tree, today, release))
        rows.append(point)
    names = list(dict.fromkeys(k for r in rows for k in r))
    out.series = {k: [r.get(k, 0) for r in rows] for k in names}
    return out
