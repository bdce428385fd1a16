#!/usr/bin/env python3
"""Rewrites the expected outputs (Examples/*.out.jsonl, the bad-input corpus's .out/.err, and the
← lines of protocol.md's examples) from what the built binary prints now.

Run after a deliberate change to the wire output, then review `git diff` line by line: the tests
compare against these files, so an unreviewed regeneration hides regressions.

usage: Scripts/regenerate-golden-files.py [path/to/signup-rpc]   (default .build/debug/signup-rpc)
"""
import pathlib
import shlex
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
binary = sys.argv[1] if len(sys.argv) > 1 else str(root / ".build/debug/signup-rpc")


def run(arguments, data):
    result = subprocess.run([binary] + arguments, input=data, capture_output=True, cwd=root)
    # A binary that crashed (a signal) prints no golden file: stop before any is overwritten by it.
    if result.returncode < 0:
        sys.exit(f"regenerate-golden-files: {binary} {' '.join(arguments)} ended by signal {-result.returncode}:\n"
                 + result.stderr.decode(errors="replace")[-2000:])
    return result


def flags(path):
    return shlex.split(path.read_text()) if path.exists() else []


for source in sorted((root / "Examples").glob("*.jsonl")):
    if source.name.endswith(".out.jsonl"):
        continue
    stem = source.name[: -len(".jsonl")]
    result = run(["--clock", "virtual"] + flags(source.with_name(stem + ".flags")), source.read_bytes())
    source.with_name(stem + ".out.jsonl").write_bytes(result.stdout)

probe = b'{"jsonrpc":"2.0","id":"probe","method":"clock.advance","params":{"by":0}}'
for source in sorted((root / "Tests/SignupRPCTests/BadInput").glob("*.jsonl")):
    stem = source.with_suffix("")
    probe_file = stem.with_suffix(".probe")
    line = probe_file.read_bytes().strip(b"\n") if probe_file.exists() else probe
    result = run(["--clock", "virtual", "--log-level", "warning"] + flags(stem.with_suffix(".flags")),
                 source.read_bytes() + b"\n" + line + b"\n")
    stem.with_suffix(".out").write_bytes(result.stdout)
    errors = stem.with_suffix(".err")
    if result.stderr:
        errors.write_bytes(result.stderr)
    elif errors.exists():
        errors.unlink()

document = root / "protocol.md"
lines = document.read_text().split("\n")
output, example = [], None
for line in lines:
    if line == "```example":
        example = {"arguments": [], "input": []}
    elif example is not None and line == "```":
        data = "".join(text + "\n" for text in example["input"]).encode()
        printed = run(example["arguments"], data).stdout.decode().splitlines()
        output.extend("← " + text for text in printed)
        example = None
    elif example is not None:
        if line.startswith("$ signup-rpc"):
            example["arguments"] = line[len("$ signup-rpc"):].split()
        elif line.startswith("← "):
            continue
        elif line.startswith("→ "):
            example["input"].append(line[2:])
    output.append(line)
document.write_text("\n".join(output))
