#!/usr/bin/env python3
"""Prints the key of clang-tidy's result for one source file (scripts/tidy.sh).

The key is a SHA-256 over everything the result depends on: clang-tidy's
version, .clang-tidy, the file's compile flags and the file as the compiler
sees it, every header included (clang -E -C: comments kept, so NOLINT and the
line counts of readability-function-size are in it). The repository's root is
replaced by a placeholder first, so that two checkouts of the same sources at
different paths share their results.

Usage: tidy_key.py BUILD_DIR FILE TIDY CLANGXX EXTRA_ARG
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys


def main() -> int:
    build, source, tidy, clangxx, extra = sys.argv[1:6]
    root = os.getcwd()
    path = os.path.abspath(source)
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = [e for e in json.load(f) if os.path.abspath(os.path.join(e["directory"], e["file"])) == path]
    if not entries:
        print(f"tidy_key: {source} is not in {build}/compile_commands.json", file=sys.stderr)
        return 1
    entry = entries[0]
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    args = args[1:]
    if args and not args[0].startswith("-"):  # a launcher's compiler (ccache c++ ...)
        args = args[1:]
    flags, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("-o", "-c"):
            skip = True
        elif not a.endswith((".o", ".obj")):
            flags.append(a)
    flags = [a for a in flags if os.path.abspath(os.path.join(entry["directory"], a)) != path]
    pre = subprocess.run([clangxx, *flags, extra, "-E", "-C", "-w", path, "-o", "-"], cwd=entry["directory"],
                         capture_output=True, check=False)
    if pre.returncode != 0:
        sys.stderr.write(pre.stderr.decode(errors="replace"))
        return 1
    version = subprocess.run([tidy, "--version"], capture_output=True, check=True).stdout
    with open(".clang-tidy", "rb") as f:
        config = f.read()
    digest = hashlib.sha256()
    for part in (version, config, " ".join(flags).encode(), os.path.relpath(path).encode(), pre.stdout):
        digest.update(part.replace(root.encode(), b"<root>"))
        digest.update(b"\0")
    print(digest.hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
