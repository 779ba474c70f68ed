"""A fixed bilingual corpus for ranking tests (search, context, screens)."""

from __future__ import annotations

from pathlib import Path

TODAY = "2026-06-01"


def entry(ident: str, body: str, **fields: str) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\nid: {ident}\n{extra}---\n{body}\n\n"


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


MEMORIES = "# 记忆 / memories\n\n" + "".join([
    entry("mem-0001", "The user drinks green tea every morning. 用户每天早上喝绿茶。",
          timestamp="2026-05-31T08:00:00+08:00", importance="medium", tags="[tea, 习惯]"),
    entry("mem-0002", "Green tea, green tea and more green tea: the user loves green tea.",
          timestamp="2025-06-01T08:00:00+08:00", importance="low", tags="[tea]"),
    entry("mem-0003", "用户喜欢喝美式咖啡，每天早上两杯，不加糖。", importance="medium", tags="[咖啡]"),
    entry("mem-0004", "用户喜欢喝美式咖啡，每天早上两杯，不加糖！", importance="medium", tags="[咖啡]"),
    entry("mem-0005", "医生说用户要少喝咖啡，改喝低因的。", importance="high", tags="[咖啡, health]"),
    entry("mem-0006", "A tea that is green is not the phrase: tea green.", importance="low", tags="[misc]"),
    entry("mem-0007", "The user gave up coffee for tea in 2025.", importance="medium", status="superseded",
          superseded_by="mem-0005", tags="[咖啡, tea]"),
    entry("mem-0008", "Cold entry: the user liked iced coffee in summer.", importance="low", status="cold",
          tags="[咖啡]"),
    entry("mem-0009", "Low note: 用户提过一次咖啡馆的名字。", importance="low", tags="[地点]"),
    entry("mem-0010", "办公室的菜单上有美式，也有拿铁和各种果汁，还有很多别的饮料可以选。", importance="low", tags="[办公室]"),
])


def make_profile(root: Path) -> Path:
    p = root / "profiles" / "mia"
    write(p / "memories.md", MEMORIES)
    write(p / "identity.md", "# Mia\n\nA calm assistant. 说话简短。\n")
    write(p / "state.yaml", "current_task: prepare the 2026-06-02 planning review\nfocus: mem-0005\n")
    write(p / "contexts" / "2026-06-02_planning.md", "# Planning\n\n- coffee budget\n")
    write(p / "contexts" / "2026-05-01_trip.md", "# Trip\n\n- pack tea\n")
    write(p / "contexts" / "2026-04-01_health.md", "# Health\n\n- 咖啡 less\n")
    write(p / "contexts" / "archive" / "memories.md",
          entry("mem-0000", "Archived: the user drank coffee at night.", status="archived", tags="[咖啡]"))
    write(p / "contexts" / "archive" / "2025-01-01_trip.md", "# Old trip\n")
    return p
