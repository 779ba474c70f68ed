"""Property tests of the inbox's revert and approve on ugly MEMORY.md texts: CRLF, a BOM, fences,
CJK, items moved between sections.  Reverting (or approving) one change touches that row's bytes
only, and leaves every other change in the inbox."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from openclaw_tui.core.inbox.actions import _apply
from openclaw_tui.core.inbox.inbox import Change, compute
from openclaw_tui.core.inbox.mark import Mark
from openclaw_tui.core.inbox.segments import segments_of

WORDS = st.sampled_from(["记账", "月报", "tea", "Dublin", "`code`", "猫", "年糕", "deploy", "α", "PDF", "¥42", "on-call"])
TEXT = st.lists(WORDS, min_size=2, max_size=5).map(" ".join)


@st.composite
def documents(draw):  # type: ignore[no-untyped-def]
    n_sections = draw(st.integers(2, 4))
    sections = [[f"{i}.{j} {draw(TEXT)}" for j in range(draw(st.integers(0, 4)))] for i in range(n_sections)]
    titles = [f"S{i} {draw(WORDS)}" for i in range(n_sections)]
    style = {"nl": draw(st.sampled_from(["\n", "\r\n"])), "bom": draw(st.booleans()),
             "fence": draw(st.integers(-1, n_sections - 1))}
    return titles, sections, style


def render(titles: list[str], sections: list[list[str]], style: dict) -> bytes:
    nl = style["nl"]
    out = ["# MEMORY.md 长期记忆", ""]
    for i, (title, items) in enumerate(zip(titles, sections, strict=True)):
        out += [f"## {title}", ""] + [f"- {t}" for t in items]
        if style["fence"] == i:
            out += ["```", "- 不是条目 not an item", "## not a heading", "```"]
        out.append("")
    data = nl.join(out).encode()
    return (b"\xef\xbb\xbf" if style["bom"] else b"") + data


@st.composite
def edited(draw):  # type: ignore[no-untyped-def]
    titles, sections, style = draw(documents())
    new = [list(s) for s in sections]
    for step in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["move", "rewrite", "add", "remove"]))
        full = [i for i, s in enumerate(new) if s]
        if op == "add" or not full:
            i = draw(st.integers(0, len(new) - 1))
            new[i].insert(draw(st.integers(0, len(new[i]))), f"n{step} {draw(TEXT)}")
            continue
        i = draw(st.sampled_from(full))
        j = draw(st.integers(0, len(new[i]) - 1))
        if op == "move":
            item = new[i].pop(j)
            k = draw(st.sampled_from([x for x in range(len(new)) if x != i]))
            new[k].insert(draw(st.integers(0, len(new[k]))), item)
        elif op == "rewrite":
            new[i][j] = new[i][j] + " 更新 updated"
        else:
            new[i].pop(j)
    return render(titles, sections, style), render(titles, new, style)


LF = {"nl": "\n", "bom": False, "fence": -1}
# two items of one section swapped (the counterexample hypothesis found); a duplicate moved past another item
SWAPPED = (render(["S0 tea", "S1 记账"], [[], ["1.0 记账 记账", "1.1 记账 记账"]], LF),
           render(["S0 tea", "S1 记账"], [[], ["1.1 记账 记账", "1.0 记账 记账"]], LF))
DUPLICATES = (render(["S0 猫", "S1 tea"], [["x 年糕", "y tea", "x 年糕"], ["z"]], LF),
              render(["S0 猫", "S1 tea"], [["x 年糕", "x 年糕", "y tea"], ["z"]], LF))
# an item moved to another section after a row that was rewritten: reverted, it goes back after that row
FENCE = {"nl": "\n", "bom": False, "fence": 0}
MOVED_PAST_REWRITE = (render(["S0 记账", "S1 记账"], [["0.0 记账 记账", "0.1 记账 记账"], []], FENCE),
                      render(["S0 记账", "S1 记账"], [["0.0 记账 记账 更新 updated"], ["0.1 记账 记账"]], FENCE))

# an item moved out past a swap, and a row rewritten next to it: a swap reads either way, so a move
# within a section is named by its section and a rewrite stays a change of its own
SWAP_AND_MOVE_OUT = (render(["S0 记账", "S1 记账"], [[], ["1.0 记账 记账", "1.1 记账 记账", "1.2 记账 记账"]], FENCE),
                     render(["S0 记账", "S1 记账"], [["1.2 记账 记账"], ["1.1 记账 记账", "n1 记账 记账"]], FENCE))


def inbox_of(mark: bytes, now: bytes) -> list[Change]:
    return compute(Path("."), Mark(Path("."), {"MEMORY.md": mark}, "data"), {"MEMORY.md": now}, "openclaw")


def without(data: bytes, key) -> str:  # type: ignore[no-untyped-def]
    """The text of ``data`` without the row ``key`` (cut where it is: a duplicate's text is not unique)."""
    from openclaw_tui.core.format.entries import decode

    text = decode(data)[0]
    seg = next(s for s in segments_of("MEMORY.md", text) if s.key == key)
    return text[:seg.start] + text[seg.end:]


@given(edited())
@example(SWAPPED)
@example(DUPLICATES)
@example(MOVED_PAST_REWRITE)
@example(SWAP_AND_MOVE_OUT)
def test_revert_one_change_touches_only_its_row(pair: tuple[bytes, bytes]) -> None:
    mark, now = pair
    changes = inbox_of(mark, now)
    assert bool(changes) == (mark != now)  # every edit shows
    for c in changes:
        after = _apply({"MEMORY.md": now}, {"MEMORY.md": mark}, [c], forward=False)["MEMORY.md"]
        assert after is not None
        assert after.startswith(b"\xef\xbb\xbf") == now.startswith(b"\xef\xbb\xbf")
        (u,) = c.units
        a, n = after.decode("utf-8-sig"), now.decode("utf-8-sig")
        if u.new is not None:
            n = without(now, u.new)
        if u.old is not None:  # a move only (keep): the row went back with the bytes it has now
            a = without(after, u.new if u.keep else u.old)
        assert a == n  # the rest of the file, byte for byte
        assert sorted(x.id for x in inbox_of(mark, after)) == sorted(x.id for x in changes if x.id != c.id)


@given(edited())
@example(SWAPPED)
@example(DUPLICATES)
@example(MOVED_PAST_REWRITE)
@example(SWAP_AND_MOVE_OUT)
def test_approve_one_change_moves_only_its_row_into_the_mark(pair: tuple[bytes, bytes]) -> None:
    mark, now = pair
    changes = inbox_of(mark, now)
    for c in changes:
        new_mark = _apply({"MEMORY.md": mark}, {"MEMORY.md": now}, [c], forward=True)["MEMORY.md"]
        assert new_mark is not None
        assert sorted(x.id for x in inbox_of(new_mark, now)) == sorted(x.id for x in changes if x.id != c.id)


@given(edited())
@example(SWAPPED)
@example(DUPLICATES)
@example(MOVED_PAST_REWRITE)
@example(SWAP_AND_MOVE_OUT)
def test_revert_all_gives_back_the_mark(pair: tuple[bytes, bytes]) -> None:
    mark, now = pair
    after = _apply({"MEMORY.md": now}, {"MEMORY.md": mark}, inbox_of(mark, now), forward=False)["MEMORY.md"]
    assert after is not None and inbox_of(mark, after) == []


# --- layout A: entries over memories.md and the archive ---------------------------------------------

BODIES = st.sampled_from(["记账 月报", "Priya prefers tea.", "```\n---\nid: fake\n---\n```", "猫叫年糕。\nline two",
                          "¥42 on-call"])


@st.composite
def profiles(draw):  # type: ignore[no-untyped-def]
    n = draw(st.integers(2, 6))
    entries = {f"mem-{i:04d}": draw(BODIES) + f"\nnote {i}" for i in range(1, n + 1)}
    style = {"nl": draw(st.sampled_from(["\n", "\r\n"])), "bom": draw(st.booleans())}
    mem, arch = dict(entries), {}
    for step in range(draw(st.integers(1, 3))):
        ids = list(mem)
        op = draw(st.sampled_from(["body", "archive", "remove", "add", "supersede"]))
        if op == "add" or not ids:
            mem[f"mem-{90 + step:04d}"] = draw(BODIES) + " new"
            continue
        eid = draw(st.sampled_from(ids))
        if op == "body":
            mem[eid] += " 更新"
        elif op == "archive":
            arch[eid] = mem.pop(eid)
        elif op == "remove":
            mem.pop(eid)
        elif not mem[eid].startswith("SUPERSEDED "):
            mem[eid] = "SUPERSEDED " + mem[eid]
    return entries, mem, arch, style


def render_entries(entries: dict[str, str], style: dict, head: str = "# memories 记忆\n\n") -> bytes:
    nl = style["nl"]
    parts = [head]
    for eid, body in entries.items():
        status = "superseded" if body.startswith("SUPERSEDED ") else "active"
        parts.append(f"---\nid: {eid}\ntimestamp: 2026-01-01T00:00:00+00:00\nstatus: {status}\n---\n"
                     f"{body.removeprefix('SUPERSEDED ')}\n\n")
    text = "".join(parts).replace("\n", nl)
    return (b"\xef\xbb\xbf" if style["bom"] else b"") + text.encode()


def profile_inbox(mark: dict[str, bytes], now: dict[str, bytes]) -> list[Change]:
    return compute(Path("."), Mark(Path("."), mark, "data"), now, "profile")


@given(profiles())
@example(({"mem-0001": "记账 月报\nnote 1", "mem-0002": "```\n---\nid: fake\n---\n```\nnote 2"},
          {"mem-0092": "```\n---\nid: fake\n---\n``` new"},
          {"mem-0001": "记账 月报\nnote 1", "mem-0002": "```\n---\nid: fake\n---\n```\nnote 2"},
          {"nl": "\n", "bom": False}))  # entries are their ids: never placed next to a "similar" one
def test_revert_one_entry_change_touches_only_that_entry(case) -> None:  # type: ignore[no-untyped-def]
    entries, mem, arch, style = case
    mark = {"memories.md": render_entries(entries, style)}
    now = {"memories.md": render_entries(mem, style)}
    if arch:
        now["contexts/archive/memories.md"] = render_entries(arch, style, "")
    changes = profile_inbox(mark, now)
    assert bool(changes) == (mark != now)
    for c in changes:
        after = _apply(dict(now), mark, [c], forward=False)
        done = {k: v for k, v in after.items() if v is not None}
        assert sorted(x.id for x in profile_inbox(mark, done)) == sorted(x.id for x in changes if x.id != c.id)
        for rel, data in now.items():  # every file keeps its BOM and every other entry's bytes
            if rel not in {u.rel for u in c.units}:
                assert done.get(rel) == data
            elif done.get(rel) is not None:
                assert done[rel].startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf")
