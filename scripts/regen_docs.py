#!/usr/bin/env python3
"""Re-runs every `$ impactkit ...` line of the ```console blocks of README.md and
docs/*.md with target/release/impactkit and writes its output under it (what
tests/it/docs.rs compares). Review the diff: every changed line is a change of behaviour."""
import pathlib, shlex, subprocess, sys

root = pathlib.Path(__file__).resolve().parent.parent
binary = str(root / "target/release/impactkit")


def split_args(line):
    out, cur, quoted = [], "", False
    for c in line:
        if c == '"':
            quoted = not quoted
        elif c == " " and not quoted:
            if cur:
                out.append(cur)
                cur = ""
        else:
            cur += c
    if cur:
        out.append(cur)
    return out


def regen(path):
    lines = path.read_text().split("\n")
    out, i, in_console, changed = [], 0, False, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```console"):
            in_console = True
        elif line.startswith("```"):
            in_console = False
        elif in_console and line.startswith("$ impactkit "):
            out.append(line)
            r = subprocess.run([binary] + split_args(line[len("$ impactkit "):]),
                               capture_output=True, text=True, cwd=root)
            got = (r.stdout + r.stderr).rstrip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("$ impactkit ") and not lines[j].startswith("```"):
                j += 1
            old = "\n".join(lines[i + 1:j])
            if old != got:
                changed += 1
            if got:
                out.extend(got.split("\n"))
            i = j
            continue
        out.append(line)
        i += 1
    path.write_text("\n".join(out))
    return changed


for p in [root / "README.md"] + sorted((root / "docs").glob("*.md")):
    n = regen(p)
    if n:
        print(f"{p.relative_to(root)}: {n} example(s) changed")
