"""The ``--demo`` repository: the bundled samples with a believable git history.

``build_demo`` replays a short history (agent commits, a merged branch) and ends in a pending plain-git
merge of two threads that edited the same entry, with the merge driver installed afterwards as
``git-setup`` does.  ``demo_has_changes`` tells whether a user changed anything, so quitting can ask.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

import openclaw_tui

from ..files.safe_write import atomic_write
from ..format.edit import DELETE, render_entry, set_body, set_fields
from ..format.entries import MemoryFile, parse_bytes, split_trailing
from ..format.fields import next_id
from .commitmsg import default_summary, format_message, profile_changes
from .gitrepo import ATTRIBUTES_LINE, Repo, commit_paths, install_merge_driver, is_lock_artifact, run_git

HUMAN = ("陈明", "chenming@example.com")
XIAOYU_AGENT = ("xiaoyu-agent", "xiaoyu@agents.openclaw.invalid")
ATLAS_AGENT = ("atlas-agent", "atlas@agents.openclaw.invalid")
ZH_AGENT = ("acheng-agent", "acheng@agents.openclaw.invalid")
MAIN = "main"
WORK_BRANCH = "work-persona"
THREAD_BRANCH = "agent-thread-b"


def samples_dir() -> Path | None:
    """The bundled samples: the repository checkout's, else the installed wheel's copy."""
    pkg = Path(openclaw_tui.__file__).resolve().parent
    for cand in (pkg.parent / "sample_profiles", pkg / "_samples"):
        if (cand / "profiles").is_dir():
            return cand
    return None


# no global or system git config can change the demo
ISOLATED = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "GIT_ATTR_NOSYSTEM": "1"}


def _who(author: tuple[str, str], date: str) -> dict[str, str]:
    return {
        **ISOLATED, "GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1], "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_NAME": author[0], "GIT_COMMITTER_EMAIL": author[1], "GIT_COMMITTER_DATE": date,
    }


class _Builder:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.repo = Repo(root, root / ".git")

    def git(self, *args: str, env: Mapping[str, str] | None = None, check: bool = True) -> int:
        return run_git(list(args), self.root, env=env or ISOLATED, check=check).returncode

    def read(self, rel: str) -> bytes | None:
        p = self.root / rel
        return p.read_bytes() if p.is_file() else None

    def write(self, rel: str, data: bytes | None) -> None:
        p = self.root / rel
        if data is None:
            if p.exists():
                p.unlink()
        else:
            atomic_write(p, data)

    def commit(self, rel: str, author: tuple[str, str], date: str, summary: str | None = None) -> str:
        """Commit the folder ``rel`` with a message made from its changes."""
        folder = self.root / rel
        diff = profile_changes(self.repo, folder)
        message = format_message(summary or default_summary(diff, folder.name), diff)
        return commit_paths(self.repo, rel, message, env=_who(author, date))


def _mf(data: bytes | None) -> MemoryFile:
    return parse_bytes(data or b"")


def _encode(mf: MemoryFile, text: str) -> bytes:
    return (("\ufeff" if mf.bom else "") + text).encode("utf-8", "surrogateescape")


def _hold_back(data: bytes | None, count: int) -> tuple[bytes | None, list[str]]:
    """The file without its last ``count`` blocks (when they are well-formed entries), and those blocks."""
    if data is None:
        return None, []
    mf = _mf(data)
    tail = mf.entries[-count:] if len(mf.entries) > count else []
    if not tail or any(e.error for e in tail):
        return data, []
    return _encode(mf, mf.text[: tail[0].start]), [e.raw for e in tail]


def _append_raw(data: bytes | None, raw: str) -> bytes:
    mf = _mf(data)
    return _encode(mf, mf.text + raw)


def _edit_entry(data: bytes, entry_id: str, fields: Mapping[str, object], add_line: str | None) -> bytes:
    mf = _mf(data)
    if mf.get(entry_id) is None:
        return data
    text = set_fields(mf, entry_id, fields) if fields else mf.text
    if add_line:
        mf2 = _mf(_encode(mf, text))
        entry = mf2.get(entry_id)
        assert entry is not None
        content, trailing = split_trailing(entry.body)
        if content and not content.endswith("\n"):
            content += mf2.newline
        text = set_body(mf2, entry_id, content + add_line + mf2.newline + trailing)
    return _encode(mf, text)


def _append_entry(data: bytes, meta: dict[str, object], body: str) -> bytes:
    mf = _mf(data)
    text = mf.text
    nl = mf.newline
    if text and not text.endswith("\n"):
        text += nl
    if mf.entries and not text.endswith(nl + nl):
        text += nl
    return _encode(mf, text + render_entry(meta, body, nl))


def _replace_or_append(data: bytes | None, old: str, new: str, fallback: str) -> bytes:
    text = (data or b"").decode("utf-8", "surrogateescape")
    if old in text:
        text = text.replace(old, new, 1)
    else:
        if text and not text.endswith("\n"):
            text += "\n"
        text += fallback
    return text.encode("utf-8", "surrogateescape")


def build_demo(dest: Path) -> Path:
    """Build the demo repository in ``dest`` (new or empty); returns the folder to open."""
    src = samples_dir()
    if src is None:
        raise FileNotFoundError("the bundled sample profiles are missing")
    dest = Path(dest).absolute()
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise FileExistsError(f"{dest} is not empty")
    shutil.copytree(
        src, dest, dirs_exist_ok=True, symlinks=True,
        ignore=shutil.ignore_patterns("EXPECTED_FINDINGS.md", "*.lock", "__pycache__", ".git"),
    )
    b = _Builder(dest)
    b.git("init", "-q", "-b", MAIN)
    for key, value in (
        ("user.name", HUMAN[0]), ("user.email", HUMAN[1]), ("merge.conflictStyle", "diff3"),
        ("commit.gpgsign", "false"), ("core.autocrlf", "false"),
    ):
        b.git("config", "--local", key, value)

    xi, at, ws = "profiles/xiaoyu", "profiles/atlas", "workspace"
    xi_mem, at_mem = f"{xi}/memories.md", f"{at}/memories.md"
    review_rel = f"{xi}/contexts/2026-11-27_review.md"
    daily_rel = f"{ws}/memory/2026-11-28.md"

    # 1. the state a few weeks earlier: the last entries not written yet
    final_xi = b.read(xi_mem)
    early_xi, xi_tail = _hold_back(final_xi, 2)
    mf = _mf(early_xi)
    entry = mf.get("mem-0001")
    if early_xi is not None and entry is not None and "last_hit" in entry.meta:
        early_xi = _encode(mf, set_fields(mf, "mem-0001", {"last_hit": DELETE}))
    early_at, at_tail = _hold_back(b.read(at_mem), 1)
    held = {rel: b.read(rel) for rel in (review_rel, daily_rel)}
    b.write(xi_mem, early_xi)
    b.write(at_mem, early_at)
    # the bilingual workspace: one daily log is rewritten later, dreaming promotes at the end
    zh_log, zh_mem = "workspace-zh/memory/2026-10-12.md", "workspace-zh/MEMORY.md"
    final_zh_log, final_zh_mem = b.read(zh_log), b.read(zh_mem)
    promo = b"\n## Promoted From Short-Term Memory (2026-11-29)"
    if final_zh_log is not None and final_zh_mem is not None and promo in final_zh_mem:
        b.write(zh_log, final_zh_log.replace("over by ¥320".encode(), "over by ¥230".encode()))
        b.write(zh_mem, final_zh_mem[: final_zh_mem.index(promo) + 1])
    for rel in held:
        b.write(rel, None)
    b.write(".gitattributes", f"{ATTRIBUTES_LINE}\n".encode())  # as git-setup writes it; configured at the end
    b.git("add", "-A")
    run_git(["commit", "-q", "-F", "-"], dest,
            input=b"feat(mem): import xiaoyu, atlas and the OpenClaw workspace\n\n"
                  b"- profiles/xiaoyu: added\n- profiles/atlas: added\n- workspace: added\n- workspace-zh: added\n"
                  b"- .gitattributes: added\n",
            env=_who(HUMAN, "2026-11-02T21:40:00+08:00"))

    # 2. the agents keep writing
    cur = b.read(xi_mem)
    if xi_tail:
        b.write(xi_mem, _append_raw(cur, xi_tail[0]))
        b.commit(xi, XIAOYU_AGENT, "2026-11-05T22:12:00+08:00")
        b.write(xi_mem, _append_raw(b.read(xi_mem), xi_tail[1]))
    if held.get(review_rel) is not None:
        b.write(review_rel, held[review_rel])
    b.commit(xi, XIAOYU_AGENT, "2026-11-25T21:35:00+08:00")

    # 3. a work-persona branch (atlas) merged back into main
    b.git("checkout", "-q", "-b", WORK_BRANCH)
    if at_tail:
        b.write(at_mem, _append_raw(b.read(at_mem), at_tail[0]))
        b.commit(at, ATLAS_AGENT, "2026-11-26T10:05:00+00:00")
    # an unresolved ⇄ pair outside the merge conflict: the agent heard of a new rota, the old fact stays
    at_data = b.read(at_mem) or b""
    at_mf = _mf(at_data)
    if at_mf.get("mem-0003") is not None:
        at_arch = _mf(b.read(f"{at}/contexts/archive/memories.md"))
        b.write(at_mem, _append_entry(at_data, {
            "id": next_id(at_mf.ids() + at_arch.ids()), "timestamp": "2026-11-27T09:40:00+00:00",
            "source": "chat#318", "importance": "high", "status": "active", "tags": ["oncall", "schedule"],
            "conflict": "mem-0003",
        }, "From December the on-call hand-off moves to Tuesday at 09:00 Dublin time."))
        b.commit(at, ATLAS_AGENT, "2026-11-27T09:45:00+00:00", "atlas: on-call hand-off moves (conflicts with mem-0003)")
    b.git("checkout", "-q", MAIN)
    b.write(xi_mem, final_xi)
    b.commit(xi, XIAOYU_AGENT, "2026-11-28T22:15:00+08:00")
    if held.get(daily_rel) is not None:
        b.write(daily_rel, held[daily_rel])
        b.commit(ws, XIAOYU_AGENT, "2026-11-28T23:00:00+08:00", "workspace: daily log 2026-11-28")
    if final_zh_log is not None and final_zh_mem is not None and promo in final_zh_mem:
        b.write(zh_log, final_zh_log)
        b.commit("workspace-zh", ZH_AGENT, "2026-11-06T08:30:00+08:00", "workspace-zh: correct the 2026-10-12 log")
        b.write(zh_mem, final_zh_mem)
        b.commit("workspace-zh", ZH_AGENT, "2026-11-30T03:00:00+08:00", "dreaming: promote 1 item into MEMORY.md")
    if b.git("rev-parse", "--verify", "-q", f"refs/heads/{WORK_BRANCH}", check=False) == 0:
        b.git("merge", "-q", "--no-ff", "--no-edit", "-m", f"Merge branch '{WORK_BRANCH}'", WORK_BRANCH,
              env=_who(HUMAN, "2026-11-29T09:00:00+08:00"))

    # 4. two threads change the same entry differently
    data = b.read(xi_mem) or b""
    mf = _mf(data)
    target = "mem-0012" if mf.get("mem-0012") is not None else next(iter(mf.ids()), None)
    if target is None:
        raise RuntimeError("the sample xiaoyu profile has no entry to build a conflict on")
    arch = _mf(b.read(f"{xi}/contexts/archive/memories.md"))
    new_id = next_id(mf.ids() + arch.ids())
    b.git("checkout", "-q", "-b", THREAD_BRANCH)
    thread = _edit_entry(data, target, {"source": "chat#5702", "last_hit": "2026-11-29"},
                         "11 月 29 日：复查结果正常，医生同意每天最多一杯低因美式。")
    thread = _append_entry(thread, {
        "id": new_id, "timestamp": "2026-11-29T21:18:00+08:00", "source": "chat#5703",
        "importance": "medium", "status": "active", "tags": ["饮食", "咖啡"],
    }, "用户开始在公司楼下买低因美式，不加糖。")
    b.write(xi_mem, thread)
    state_rel = f"{xi}/state.yaml"
    b.write(state_rel, _replace_or_append(b.read(state_rel), "述职材料: 40%", "述职材料: 60%",
                                          "last_thread: agent-thread-b\n"))
    b.commit(xi, XIAOYU_AGENT, "2026-11-29T21:20:00+08:00", f"thread b: {target} after the check-up")

    b.git("checkout", "-q", MAIN)
    fields: dict[str, object] = {"importance": "high"}
    target_entry = mf.get(target)
    if target_entry is not None and "conflict" in target_entry.meta:
        fields["conflict"] = DELETE
    review = _edit_entry(data, target, fields, "11 月 30 日复核：已经完全戒掉咖啡因，早上改喝大麦茶。")
    old = "mem-0007"
    if old != target and _mf(review).get(old) is not None:
        rmf = _mf(review)
        review = _encode(rmf, set_fields(rmf, old, {"status": "superseded", "superseded_by": target}))
    review = _append_entry(review, {
        "id": new_id, "timestamp": "2026-11-30T10:20:00+08:00", "source": "review",
        "importance": "low", "status": "active", "tags": ["述职"],
    }, "述职 PPT 初稿已经完成，周三前发给领导过目。")
    b.write(xi_mem, review)
    b.write(state_rel, _replace_or_append(b.read(state_rel), "述职材料: 40%", "述职材料: 50%",
                                          "last_thread: main\n"))
    b.commit(xi, HUMAN, "2026-11-30T10:30:00+08:00", f"review: {old} superseded by {target}")

    # 5. merge with plain git: the conflict stays in the working tree
    b.git("merge", "--no-edit", THREAD_BRANCH, env=_who(HUMAN, "2026-11-30T10:45:00+08:00"), check=False)
    if not (dest / ".git" / "MERGE_HEAD").exists() or b"<<<<<<<" not in (b.read(xi_mem) or b""):
        raise RuntimeError("the demo merge did not leave the expected conflict")

    # 6. git-setup: the id-aware driver for the merges to come, lock files out of `git status`
    install_merge_driver(b.repo)
    baseline = dest / ".git" / BASELINE
    baseline.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(baseline, demo_state(dest).encode() + b"\n")
    return dest


BASELINE = "openclaw-tui/demo-state"  # under .git: the digest of the demo as built


def demo_state(root: Path) -> str:
    """A digest of what a user can change in the demo at ``root``: the work tree (lock files aside),
    the index, HEAD, refs and a pending merge."""
    root = Path(root)
    h = hashlib.sha256()
    for here, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not (Path(here) == root and d == ".git"))
        for name in sorted(names):
            path = Path(here) / name
            rel = path.relative_to(root).as_posix()
            if is_lock_artifact(rel):
                continue
            try:
                data = os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
            except OSError as exc:
                data = f"unreadable: {exc.errno}".encode()
            h.update(b"F %d %s\0" % (len(data), rel.encode("utf-8", "surrogateescape")))
            h.update(data)
    for args in (["ls-files", "-s"], ["for-each-ref", "--format=%(refname) %(objectname)"],
                 ["rev-parse", "-q", "--verify", "HEAD"], ["symbolic-ref", "-q", "HEAD"],
                 ["rev-parse", "-q", "--verify", "MERGE_HEAD"]):
        proc = run_git(args, root, check=False, env=ISOLATED)
        h.update(b"G " + " ".join(args).encode() + b"\0" + proc.stdout + b"\0")
    return h.hexdigest()


def demo_has_changes(root: Path) -> bool:
    """True when the demo at ``root`` differs from the demo as built (or cannot be compared)."""
    try:
        built = (Path(root) / ".git" / BASELINE).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return True
    return demo_state(root) != built
