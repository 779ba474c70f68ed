"""How far the check's audit can be trusted on real memory: precision and recall per finding code.

    python bench/audit_accuracy.py CORPUS_DIR [--labels FILE]

CORPUS_DIR holds one folder per OpenClaw workspace (each a git work tree, so that ``--history``
can read it) and ``labels.jsonl`` (or ``--labels FILE``): one JSON object a line,

    {"repo": "NAME", "code": "sensitive-data", "file": "MEMORY.md", "line": 98,
     "verdict": "tp" | "fp" | "missed", "credential": true}

``tp``/``fp``: a finding a reviewer wants / does not want; ``missed``: something a reviewer wants
flagged that the check did not report (an ``fp`` label the check no longer reports counts as
"fp avoided": the false alarms of earlier versions); ``credential``: the item is a credential (for the
credential recall).  A finding with no label counts as a false positive (label it).  The corpus
holds real people's memory and credentials: it stays out of the repository; the bench prints
places and counts, never a value.  Only error and warning codes are measured.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from openclaw_tui.core.check.codes import CODES
from openclaw_tui.core.check.rules import check_profile
from openclaw_tui.core.files.profile import load_profile

Key = tuple[str, str, str, "int | None"]


def load_labels(path: Path) -> dict[Key, dict]:
    out: dict[Key, dict] = {}
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        row = json.loads(raw)
        if row.get("verdict") not in ("tp", "fp", "missed"):
            sys.exit(f"{path}:{n}: verdict must be tp, fp or missed")
        out[(row["repo"], row["code"], row["file"], row.get("line"))] = row
    return out


def findings(corpus: Path) -> dict[tuple[Key, str], None]:
    """Every error and warning finding of every workspace of ``corpus`` (with --history), as (key, severity)."""
    out: dict[tuple[Key, str], None] = {}
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir() and not p.name.startswith(".")):
        profile = load_profile(folder)
        for f in check_profile(profile, history=True):
            if f.severity in ("error", "warning"):
                out[((folder.name, f.code, f.file, f.line), f.severity)] = None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path, metavar="CORPUS_DIR")
    ap.add_argument("--labels", type=Path, help="the labels file (default: CORPUS_DIR/labels.jsonl)")
    args = ap.parse_args(argv)
    labels = load_labels(args.labels or args.corpus / "labels.jsonl")
    found = findings(args.corpus)
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    unlabelled: Counter[str] = Counter()
    for key, sev in found:
        code = f"{key[1]} ({sev})"  # sensitive-data is an error for a credential, a warning otherwise
        label = labels.get(key)
        if label is None:
            unlabelled[code] += 1
            fp[code] += 1
        elif label["verdict"] == "fp":
            fp[code] += 1
        else:
            tp[code] += 1
    found_keys = {key for key, _sev in found}
    avoided: Counter[str] = Counter()
    cred_total = cred_found = 0
    for key, label in labels.items():
        sev = "error" if label.get("credential") else CODES[key[1]].severity
        if label["verdict"] == "missed" and key not in found_keys:
            missed[f"{key[1]} ({sev})"] += 1
        if label["verdict"] == "fp" and key not in found_keys:
            avoided[f"{key[1]} ({sev})"] += 1
        if label.get("credential") and label["verdict"] != "fp":
            cred_total += 1
            cred_found += key in found_keys
    repos = sorted(p.name for p in args.corpus.iterdir() if p.is_dir() and not p.name.startswith("."))
    print(f"corpus: {len(repos)} workspaces, {len(found)} error/warning findings, {len(labels)} labels")
    print(f"{'code (severity)':<34} {'found':>5} {'tp':>4} {'fp':>4} {'missed':>6} {'precision':>9} {'recall':>7}"
          f" {'fp avoided':>10}")
    for code in sorted(set(tp) | set(fp) | set(missed) | set(avoided)):
        n = tp[code] + fp[code]
        precision = f"{tp[code] / n:.1%}" if n else "-"
        wanted = tp[code] + missed[code]
        recall = f"{tp[code] / wanted:.1%}" if wanted else "-"
        print(f"{code:<34} {n:>5} {tp[code]:>4} {fp[code]:>4} {missed[code]:>6} {precision:>9} {recall:>7} {avoided[code]:>10}")
    if unlabelled:
        print(f"unlabelled findings (counted as false): {dict(unlabelled)}")
    total_tp, total_n = sum(tp.values()), sum(tp.values()) + sum(fp.values())
    print(f"all error/warning findings: precision {total_tp / total_n:.1%}" if total_n else "no findings")
    if cred_total:
        print(f"credential recall: {cred_found}/{cred_total} = {cred_found / cred_total:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
