"""Deterministic generator of large profiles for benchmarks and scale tests.

    python bench/generate.py OUT_DIR --entries 100000

Writes OUT_DIR/<name>/ with memories.md (mixed Chinese and English bodies,
200 tags), state.yaml and a few contexts referencing entry ids.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

TAGS = [f"tag{i:03d}" for i in range(180)] + [
    "preference", "coffee", "health", "work", "family", "travel", "咖啡", "健康", "工作", "家庭",
    "project", "meeting", "reading", "music", "sport", "food", "schedule", "finance", "pets", "study",
]
ZH = [
    "用户表示自己现在不能摄入咖啡因，喝美式会有心悸反应。",
    "用户每周三晚上去游泳，喜欢在安静的泳道。",
    "用户正在准备下个月的产品发布会，需要每天提醒进度。",
    "用户的女儿在学钢琴，周六上午上课。",
    "用户偏好简洁的回答，不喜欢太多表情符号。",
]
EN = [
    "The user prefers meetings after 10am and dislikes Monday standups.",
    "The user is allergic to peanuts; avoid suggesting recipes with them.",
    "The user keeps notes in Obsidian and syncs them with git.",
    "The user is learning Rust and wants small daily exercises.",
    "The user's manager is called Dana and reviews reports on Fridays.",
]


def entry_text(i: int, rng: random.Random) -> str:
    ident = f"mem-{i:06d}"
    day = 1 + i % 28
    month = 1 + (i // 28) % 12
    tags = rng.sample(TAGS, rng.randint(1, 4))
    importance = ("high", "medium", "low")[i % 3]
    lines = [
        "---",
        f"id: {ident}",
        f"timestamp: 2025-{month:02d}-{day:02d}T{i % 24:02d}:{i % 60:02d}:00+08:00",
        f"source: chat#{1000 + i}",
        f"importance: {importance}",
        "status: active",
        "tags: [" + ", ".join(tags) + "]",
    ]
    if i % 50 == 7 and i > 10:
        lines.append(f"conflict: mem-{i - 3:06d}")
    if i % 97 == 5:
        lines.append("ttl: 2030-12-31")
    lines.append("---")
    body = rng.choice(ZH) if i % 2 else rng.choice(EN)
    if i % 40 == 3 and i > 2:
        body += f"\n\nSee also mem-{i - 2:06d}."
    lines.append(body)
    lines.append("")
    return "\n".join(lines) + "\n"


def memories_text(n: int, seed: int = 42) -> str:
    rng = random.Random(seed)
    return "# Long-term memory\n\n" + "".join(entry_text(i, rng) for i in range(1, n + 1))


def write_profile(root: Path, n: int, name: str = "assistant", seed: int = 42) -> Path:
    prof = root / name
    (prof / "contexts" / "archive").mkdir(parents=True, exist_ok=True)
    (prof / "skills").mkdir(exist_ok=True)
    (prof / "memories.md").write_text(memories_text(n, seed), encoding="utf-8")
    (prof / "identity.md").write_text("# Assistant\n\nA helpful assistant.\n", encoding="utf-8")
    step = max(1, n // 20)
    refs = "\n".join(f"  - mem-{i:06d}" for i in range(1, n + 1, step))
    (prof / "state.yaml").write_text(f"current_task: review\nfocus:\n{refs}\n", encoding="utf-8")
    for d in range(1, 4):
        (prof / "contexts" / f"2025-06-0{d}_notes.md").write_text(
            f"# Notes {d}\n\nFollow up on mem-{min(n, d * 3):06d}.\n", encoding="utf-8"
        )
    (prof / "skills" / "work.md").write_text("# Work\n\nBe concise.\n", encoding="utf-8")
    return prof


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", type=Path)
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--name", default="assistant")
    args = ap.parse_args()
    print(write_profile(args.out, args.entries, args.name))


if __name__ == "__main__":
    main()
