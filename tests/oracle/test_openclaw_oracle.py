"""OpenClaw's own code as the oracle of ``context``: its bootstrap builder and session-start block
(tests/openclaw_oracle.mjs, run by node on the pinned npm package openclaw@2026.9.6) and
``openclaw-tui context --json`` must name the same files, the same sizes (UTF-16 units) and the same
injected bytes (sha256), on the samples and on generated workspaces.

The package is looked for in ``$OPENCLAW_NODE_MODULES``, else ``.ci-npm/node_modules`` in the repo
(``.ci/run`` installs it there).  Without node or the package the test is skipped with the reason,
except under ``CI=true``, where that is a failure.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from openclaw_tui.cli import main as cli_main

REPO = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).resolve().parents[1] / "openclaw_oracle.mjs"
TODAY = "2026-11-20"
SESSIONS = ("main", "shared", "subagent", "cron")


def _node_modules() -> Path:
    where = Path(os.environ.get("OPENCLAW_NODE_MODULES") or REPO / ".ci-npm" / "node_modules")
    node = shutil.which("node")
    reason = None
    if node is None:
        reason = "node is not installed"
    elif not (where / "openclaw" / "package.json").is_file():
        reason = f"the openclaw package is not installed in {where} (set OPENCLAW_NODE_MODULES)"
    else:
        version = json.loads((where / "openclaw" / "package.json").read_text(encoding="utf-8")).get("version")
        if version != "2026.9.6":
            reason = f"{where}/openclaw is {version}, not the pinned 2026.9.6"
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the OpenClaw oracle cannot run under CI: {reason}")
        pytest.skip(reason)
    return where


def _write(path: Path, text: str, mtime: float | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def _agents(n: int) -> str:
    """An AGENTS.md with policy lines of every kind among prose, fences and CJK rules."""
    rows = ["# Agents", "", "Some prose that introduces the rules below."]
    for i in range(n):
        rows += [f"- Rule {i}: you must run the tests before every commit {'🙂' * (i % 3)}",
                 f"Prose line {i} explaining things in detail, without any keyword at all.",
                 f"{i + 1}. Never push to main directly; open a PR on github instead.",
                 "```sh", f"git commit -m 'step {i}'", "```",
                 f"禁止在生产环境直接修改数据 {i}。", "",
                 "  * indented item " + "x" * (i * 7 % 300), ""]
    return "\n".join(rows) + "\n\n\n"


def _workspaces(base: Path) -> list[tuple[Path, dict]]:
    """(workspace, openclaw.json) pairs covering the release's rules."""
    out: list[tuple[Path, dict]] = []
    day = 1_795_000_000.0  # an mtime base; slugged notes differ by minutes

    def ws(name: str, files: dict[str, str], config: dict | None = None) -> Path:
        root = base / name / "workspace"
        for rel, text in files.items():
            _write(root / rel, text)
        out.append((root, config or {}))
        if config:
            (root.parent / "openclaw.json").write_text(json.dumps(config), encoding="utf-8")
        return root

    emoji = "Emoji 😀 everywhere 🎉 and flags 🇨🇳🇺🇸 ok. "
    ws("emoji", {"AGENTS.md": "# A 🤖\n" + emoji * 10, "SOUL.md": emoji * 3 + "\n \t\n",
                 "IDENTITY.md": "- name: 🦞\n", "USER.md": emoji * 120,
                 "MEMORY.md": "# Memory\n" + "".join(f"- item {i} {emoji}\n" for i in range(700)),
                 "memory/2026-11-20.md": emoji * 40, "memory/2026-11-19.md": "🎉" * 700})
    ws("cjk", {"AGENTS.md": _agents(3), "SOUL.md": "冷静。\n", "IDENTITY.md": "名字：小龙虾\n",
               "USER.md": "<!-- observed: 2026-05-01 | status: active -->\n" + "用户喜欢乌龙茶，不喜欢咖啡。" * 400,
               "MEMORY.md": "# 记忆\n" + "".join(f"- 第{i}条：用户在周末去爬山。\n" for i in range(2500)),
               "memory/2026-11-20.md": "# 今天\n" + "- 用户问了天气。\n" * 200})
    ws("over-limit", {"AGENTS.md": _agents(120), "SOUL.md": "s" * 25_000, "IDENTITY.md": "i\n",
                      "USER.md": "u" * 4_545, "MEMORY.md": "# M\n" + "- m\n" * 8_000})
    ws("over-total", {"AGENTS.md": _agents(40), "SOUL.md": "s" * 900, "IDENTITY.md": "i" * 700,
                      "USER.md": "u" * 900, "MEMORY.md": "m" * 5000},
       {"agents": {"defaults": {"bootstrapMaxChars": 1500, "bootstrapTotalMaxChars": 3100}}})
    ws("tiny-limits", {"AGENTS.md": _agents(2), "SOUL.md": "s" * 300, "USER.md": "u 😀" * 60,
                       "MEMORY.md": "m" * 300},
       {"agents": {"defaults": {"bootstrapMaxChars": 90, "bootstrapTotalMaxChars": 260}}})
    ws("missing", {"MEMORY.md": "# Memory\n- one\n", "memory.md": "lowercase\n", "TOOLS.md": "tools\n"})
    ws("lowercase-only", {"AGENTS.md": "a\n", "memory.md": "# lowercase memory\n- x\n", "HEARTBEAT.md": "hb\n"})
    notes = ws("session-notes", {"AGENTS.md": "a\n", "SOUL.md": "s\n", "IDENTITY.md": "i\n",
                                 "memory/2026-11-20.md": "# today\n" + "- did a thing\n" * 150,
                                 "memory/2026-11-19.md": "# yesterday\n- y\n"},
               {"agents": {"defaults": {"startupContext": {"dailyMemoryDays": 3, "maxFileChars": 300,
                                                          "maxTotalChars": 2000}}}})
    for i in range(7):  # more session notes of one day than the four the block takes
        _write(notes / "memory" / f"2026-11-20-{1000 + i * 7:04d}.md", f"# Session: {i}\n" + "note ```x``` " * 40,
               day + 60 * ((i * 3) % 7))
    _write(notes / "memory" / "2026-11-20-trip.md", "# trip\n- packed\n", day + 30)
    _write(notes / "memory" / "2026-11-18-old.md", "# two days ago\n- z\n", day - 3600)
    _write(notes / "memory" / "2026-11-20-blank.md", "  \n\n", day + 10)
    ws("big-log", {"AGENTS.md": "a\n", "SOUL.md": "s\n", "IDENTITY.md": "i\n",
                   "memory/2026-11-20.md": "- a long day\n" * 1800, "memory/2026-11-19.md": "- 昨天\n" * 900,
                   "memory/2026-11-19-a.md": "- small\n"})
    ws("bootstrap-leftover", {"AGENTS.md": "a\n", "SOUL.md": "my own soul\n", "BOOTSTRAP.md": "# Bootstrap\nhi\n",
                              "memory/2026-11-20.md": "- today\n"})
    odd = ws("bytes", {"AGENTS.md": "a\n", "IDENTITY.md": "i\n"})
    (odd / "SOUL.md").write_bytes(b"\xef\xbb\xbfBOM first\r\nbad \xff\xfe \xe2\x82 end \xf0\x9f\x98\r\n\t \n")
    (odd / "MEMORY.md").write_bytes(b"\xef\xbb\xbf" + "- 😀 x\u2028y\u00a0\n".encode() * 900 + b"\xed\xa0\x80 \x00 tail\n")
    ws("startup-off", {"AGENTS.md": "a\n", "memory/2026-11-20.md": "- today\n"},
       {"agents": {"defaults": {"startupContext": {"enabled": False, "maxFileChars": 2.7e9}}}})
    ws("bootstrap-pending", {"BOOTSTRAP.md": "# Bootstrap\nset me up\n", "AGENTS.md": "a\n"})
    agent = ws("agent-override", {"AGENTS.md": _agents(10), "USER.md": "u" * 700, "MEMORY.md": "m" * 2000})
    cfg = {"agents": {"defaults": {"bootstrapMaxChars": 5000},
                      "entries": {"work": {"workspace": str(agent), "bootstrapMaxChars": 600,
                                           "bootstrapTotalMaxChars": 1800}}}}
    (agent.parent / "openclaw.json").write_text(json.dumps(cfg), encoding="utf-8")
    out[-1] = (agent, cfg)
    for sample in ("workspace", "workspace-zh"):
        out.append((REPO / "sample_profiles" / sample, {}))
    return out


def _ours(workspace: Path, session: str, config: dict) -> dict:
    args = ["context", str(workspace), "--session", session, "--today", TODAY, "--json"]
    if config:
        args += ["--openclaw-config", str(workspace.parent / "openclaw.json")]
    out = io.BytesIO()
    wrapper = io.TextIOWrapper(out, encoding="utf-8")  # the command writes to sys.stdout.buffer
    with redirect_stdout(wrapper):
        code = cli_main(args)
    wrapper.flush()
    wrapper.detach()
    assert code == 0, (workspace, session)
    doc: dict = json.loads(out.getvalue().decode("utf-8"))
    return doc


def _agent_of(config: dict, workspace: Path) -> str:
    for agent_id, entry in config.get("agents", {}).get("entries", {}).items():
        if entry.get("workspace") == str(workspace):
            return agent_id
    return "main"


def test_context_agrees_with_openclaws_own_builder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    modules = _node_modules()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.openclaw of the machine's user
    monkeypatch.delenv("OPENCLAW_CONFIG_PATH", raising=False)
    monkeypatch.delenv("OPENCLAW_STATE_DIR", raising=False)
    cases = [(ws, cfg, session) for ws, cfg in _workspaces(tmp_path) for session in SESSIONS]
    request = [{"workspace": str(ws), "session": s, "config": cfg, "agentId": _agent_of(cfg, ws), "today": TODAY}
               for ws, cfg, s in cases]
    env = dict(os.environ, TZ="UTC", HOME=str(tmp_path / "home"))
    run = subprocess.run(["node", str(HARNESS), str(modules)], input=json.dumps(request), capture_output=True,
                         text=True, env=env, cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    theirs = json.loads(run.stdout)
    facts = agree = 0
    wrong: list[str] = []
    for (ws, cfg, session), oracle in zip(cases, theirs, strict=True):
        ours = _ours(ws, session, cfg)
        label = f"{ws.parent.name if ws.name == 'workspace' else ws.name}/{session}"
        want = [(f["name"], f["chars"], f["sha256"]) for f in oracle["files"]]
        got = [(f["file"], f["chars"], f["sha256"]) for f in ours["injected"]]
        checks = [("files", [w[0] for w in want], [g[0] for g in got])]
        for w, g in zip(want, got, strict=False):
            checks += [(f"{w[0]} chars", w[1], g[1]), (f"{w[0]} sha256", w[2], g[2])]
        block = oracle["session_start"]
        mine = ours.get("session_start")
        checks.append(("session-start block", block and (block["chars"], block["sha256"], block["files"]),
                       mine and (mine["chars"], mine["sha256"], mine["files"])))
        for what, w, g in checks:
            facts += 1
            if w == g:
                agree += 1
            else:
                wrong.append(f"{label}: {what}: OpenClaw {w!r}, ours {g!r}")
    blocks = sum(1 for o in theirs if o["session_start"])
    big = sum(1 for o in theirs for f in o["files"] if f["chars"] >= 1000)
    with capsys.disabled():
        print(f"\nOpenClaw 2026.9.6 oracle: {agree} of {facts} facts agree ({len(cases)} workspace/session cases, "
              f"{blocks} session-start blocks)")
    assert blocks >= 15 and big >= 20  # the cases exercise the block and the cuts, not only empty answers
    assert not wrong, "\n".join(wrong[:40])
