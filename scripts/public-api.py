#!/usr/bin/env python3
"""The public API's names, from clang's syntax tree of every header in
lib/include/keel: each namespace-level type, function, constant and alias,
each public member and enumerator, with its type, one a line, sorted. The
list is checked in (lib/public-api.txt) and the tests compare it with the
headers (ctest public_api_is_the_checked_list), so that a change of the API
is a decision that shows in review.

Also refuses the library's plumbing in the headers: a public name whose
type mentions a detail:: type, a detail namespace, or a friend other than
keel::Internals (the library's one way to what a class keeps private): the
public headers are the user's (docs/integration.md, "The public API").

Usage: scripts/public-api.py BUILD_DIR            print the list
       scripts/public-api.py BUILD_DIR --check    compare with lib/public-api.txt
       scripts/public-api.py BUILD_DIR --write    rewrite lib/public-api.txt
BUILD_DIR is a configured build tree (for keel/config.hpp). Needs clang++-14.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = os.path.join(ROOT, "lib", "include", "keel")
LIST = os.path.join(ROOT, "lib", "public-api.txt")

# Declarations that are part of the API, and what they are called in the list.
KINDS = {
    "CXXRecordDecl": "type",
    "EnumDecl": "enum",
    "EnumConstantDecl": "enumerator",
    "FunctionDecl": "function",
    "CXXMethodDecl": "method",
    "CXXConstructorDecl": "constructor",
    "CXXConversionDecl": "method",
    "FieldDecl": "field",
    "VarDecl": "constant",
    "TypeAliasDecl": "alias",
    "TypedefDecl": "alias",
    "FunctionTemplateDecl": "function template",
}


def in_public_headers(node):
    """Whether `node` is declared in lib/include/keel (its location's file,
    which clang names only when it changes, is tracked by the walk)."""
    return node.get("_file", "").startswith(HEADERS)


def syntax_trees(build_dir):
    """clang's JSON syntax tree of a file that includes every public header,
    as the top-level declarations of namespace keel."""
    clang = shutil.which("clang++-14") or shutil.which("clang++")
    if not clang:
        sys.exit("public-api: clang++-14 not found (scripts/install-deps.sh core)")
    headers = sorted(h for h in os.listdir(HEADERS) if h.endswith(".hpp"))
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as source:
        source.write("".join(f"#include <keel/{h}>\n" for h in headers))
    # The build's precision, as Keel::keel hands it to its users.
    with open(os.path.join(build_dir, "CMakeCache.txt")) as cache:
        double = re.search(r"^KEEL_DOUBLE_PRECISION:BOOL=(ON|TRUE|1)$", cache.read(), re.M) is not None
    try:
        command = [clang, "-std=c++20", "-fsyntax-only"] + (["-DBT_USE_DOUBLE_PRECISION"] if double else [])
        command += ["-I", os.path.join(ROOT, "lib", "include"), "-I", os.path.join(build_dir, "lib", "include"),
                    "-isystem", "/usr/include/bullet", "-Xclang", "-ast-dump=json", "-Xclang", "-ast-dump-filter=keel",
                    source.name]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("public-api: the public headers do not compile:\n" + run.stderr)
        out = run.stdout
    finally:
        os.unlink(source.name)
    decoder, at, trees = json.JSONDecoder(), 0, []
    while True:
        while at < len(out) and out[at] != "{":
            at += 1
        if at >= len(out):
            return trees
        tree, at = decoder.raw_decode(out, at)
        if tree.get("kind") == "NamespaceDecl" and tree.get("name") == "keel":
            trees.append(tree)


def walk(node, scope, file, access, names, leaks):
    """Adds the public names under `node` (in `scope`, declared in `file`,
    with `access` in its class) to `names`, and the library's plumbing
    (a public name whose type names a detail:: type, a detail namespace, a
    friend other than Internals) to `leaks`."""
    file = node.get("loc", {}).get("file", file)
    if "expansionLoc" in node.get("loc", {}):
        file = node["loc"]["expansionLoc"].get("file", file)
    node["_file"] = file
    kind = node.get("kind")
    name = node.get("name", "")
    if kind == "AccessSpecDecl":
        return node.get("access")
    if kind == "FriendDecl" and in_public_headers(node):
        befriended = node.get("type", {}).get("qualType", "")
        if not re.fullmatch(r"class (keel::(\w+::)?)?Internals", befriended):
            leaks.add(f"friend {befriended or 'function'} in {'::'.join(scope)}")
    if node.get("isImplicit") or kind in ("FriendDecl", "StaticAssertDecl"):
        return access
    if kind == "NamespaceDecl":
        if name == "detail":
            if in_public_headers(node):
                leaks.add(f"namespace {'::'.join(scope + [name])}")
            return access  # the library's
        inner = scope if node.get("isInline") else scope + [name]  # the ABI namespace is not the user's
        child_access = "public"
        for child in node.get("inner", []):
            child_access = walk(child, inner, file, child_access, names, leaks) or child_access
        return access
    if access in ("private", "protected") or not name or not in_public_headers(node):
        return access
    if kind in KINDS:
        qualified = "::".join(scope + [name])
        declared = node.get("type", {}).get("qualType", "")
        if kind == "CXXRecordDecl":
            if "inner" not in node:
                return access  # a forward declaration
            declared = node.get("tagUsed", "")
        entry = f"{KINDS[kind]} {qualified}" + (f" : {declared}" if declared else "")
        entry += " = delete" if node.get("explicitlyDeleted") else ""
        names.add(re.sub(r"keel::(single|double)_precision::", "keel::", entry))
        if "detail::" in declared:
            leaks.add(entry)
    if kind in ("CXXRecordDecl", "EnumDecl", "ClassTemplateDecl"):
        child_access = "private" if node.get("tagUsed") == "class" else "public"
        for child in node.get("inner", []):
            child_access = walk(child, scope + [name], file, child_access, names, leaks) or child_access
    return access


def public_names(build_dir):
    names, leaks = set(), set()
    for tree in syntax_trees(build_dir):
        walk(tree, [], "", "public", names, leaks)
    return sorted(names), sorted(leaks)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    names, leaks = public_names(sys.argv[1])
    mode = sys.argv[2] if len(sys.argv) > 2 else ""
    if leaks:
        print("public-api: the library's plumbing in the public headers (keep detail:: types and friends "
              "other than keel::Internals in lib/src):\n  " + "\n  ".join(leaks))
    if mode == "--write":
        with open(LIST, "w") as f:
            f.write("".join(n + "\n" for n in names))
        print(f"public-api: {len(names)} names written to {os.path.relpath(LIST, ROOT)}")
    elif mode == "--check":
        with open(LIST) as f:
            listed = [line.rstrip("\n") for line in f if line.strip()]
        added, removed = sorted(set(names) - set(listed)), sorted(set(listed) - set(names))
        for n in removed:
            print("- " + n)
        for n in added:
            print("+ " + n)
        if added or removed:
            print(f"public-api: the public headers differ from {os.path.relpath(LIST, ROOT)} "
                  f"({len(added)} added, {len(removed)} removed). If the change is meant, run "
                  f"scripts/public-api.py BUILD_DIR --write and commit the list with it.")
            sys.exit(1)
        print(f"public-api: {len(names)} public names, as listed")
    else:
        print("\n".join(names))
        print(f"public-api: {len(names)} public names", file=sys.stderr)
    if leaks:
        sys.exit(1)


if __name__ == "__main__":
    main()
