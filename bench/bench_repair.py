"""What the check's repair suggestions cost, and how long finding repairs takes, on a big profile.

    python bench/bench_repair.py [--entries 100000] [--dangling 40] [--repeat 3]

Generates (bench/generate.py) a profile, and a copy whose state.yaml adds
``--dangling`` references to ids no entry defines, and whose mem-000001
(named by state.yaml) is superseded, and one more entry at the end of
memories.md names ``--dangling / 2`` more undefined ids in its body.  Prints, best of ``--repeat`` runs (the machine is shared: the best
run is the least disturbed one):

- ``check_profile`` on each, and the part of it spent attaching suggestions
  (``suggest.attach``: the only work the check gained);
- ``find_problems`` (candidates of every reference finding, no git) and
  ``plan_all_safe`` on the copy.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import write_profile  # noqa: E402

from openclaw_tui.core.check import rules as check_mod  # noqa: E402
from openclaw_tui.core.check.repair import find_problems, plan_all_safe  # noqa: E402
from openclaw_tui.core.check.suggest import attach  # noqa: E402
from openclaw_tui.core.files.profile import load_profile  # noqa: E402

TODAY = dt.date(2026, 11, 30)


def best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--dangling", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        clean = write_profile(Path(tmp), args.entries, "clean")
        broken = write_profile(Path(tmp), args.entries, "broken")
        state = broken / "state.yaml"
        n = args.entries
        extra = "".join(f"  - mem-{n + 1 + i:06d}\n" for i in range(args.dangling))
        state.write_text(state.read_text() + "broken:\n" + extra, encoding="utf-8")
        # mem-000001 (named by state.yaml) superseded by mem-000002: one safe repair
        mem = broken / "memories.md"
        text = mem.read_text(encoding="utf-8")
        at = text.index("status: active", text.index("id: mem-000001\n"))
        text = text[:at] + "status: superseded\nsuperseded_by: mem-000002" + text[at + len("status: active"):]
        refs = " ".join(f"mem-{n + 1001 + i:06d}" for i in range(args.dangling // 2))
        text += f"---\nid: mem-{n + 1:06d}\nstatus: active\ntags: [x]\n---\nDangling: {refs}\n"
        mem.write_text(text, encoding="utf-8")
        for name, path in (("clean", clean), ("broken", broken)):
            profile = load_profile(path, ".", "profile")
            t_check, findings = best(lambda p=profile: check_mod.check_profile(p, today=TODAY), args.repeat)
            assert isinstance(findings, list)
            bare = [f.__class__(*[getattr(f, k) for k in ("code", "profile", "file", "line", "id", "message",
                                                            "profile_path")]) for f in findings]
            t_attach, _ = best(lambda p=profile, b=bare: attach(p, b), args.repeat)
            refs = sum(1 for f in findings if f.suggestions)
            print(f"{name:>6}: {args.entries:,} entries, {len(findings)} findings ({refs} with suggestions): "
                  f"check_profile {t_check:.3f} s, of which suggestions {t_attach * 1000:.1f} ms")
        profile = load_profile(broken, ".", "profile")
        t_find, problems = best(lambda: find_problems(profile, today=TODAY, history=False), args.repeat)
        assert isinstance(problems, list)
        t_safe, run = best(lambda: plan_all_safe(profile, problems, today=TODAY), 1)
        done = len(run.done) if hasattr(run, "done") else 0
        print(f"broken: find_problems {t_find:.3f} s ({len(problems)} problems); "
              f"plan_all_safe {t_safe:.3f} s ({done} safe repair)")


if __name__ == "__main__":
    main()
