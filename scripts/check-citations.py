#!/usr/bin/env python3
"""Checks that every citation of a docs/ section names a real section.

Usage: scripts/check-citations.py [ROOT]   (default: the repository)

Reads the code (lib/, tests/, demo/, cmake/, scripts/) and the docs
(docs/*.md, README.md) for
  - docs/NAME.md, "Section" or docs/NAME.md ("Section") (NAME.md alone
    inside docs/ and README.md), with more names chained on:
    , "Subsection" or and "Other section";
  - docs/NAME.md §N, docs/NAME.md, section N   (a numbered heading "N. ...");
  - links docs/NAME.md#anchor, NAME.md#anchor (from docs/), #anchor (the
    same file).
A citation may wrap across comment lines (`docs/model.md,` then
`// "Wave pressure"`). A section's name is a heading of NAME.md (its number
"N. " left off, or shortened to its first words: "Headline figures" for
"Headline figures: a real sea"); a name chained after the first, or after
§N, may also be a paragraph's or a list item's bold run-in label
(**In time**). An anchor is a heading's GitHub anchor. Prints each broken citation as file:line and exits 1 if
there is any.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
CODE_DIRS = ["lib", "tests", "demo", "cmake", "scripts"]
CODE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".txt", ".cmake", ".in", ".sh", ".py", ".md")


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


class Doc:
    """A markdown file's headings and bold run-in labels, outside code blocks."""

    def __init__(self, path):
        self.headings, self.labels, self.numbers, self.anchors = [], [], set(), []
        fenced = False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced:
                heading = re.match(r"#{1,6} +(.*?)[ #]*$", line)
                label = re.match(r"(?:[-*] +)?\*\*([^*]+?)\.?\*\*", line)
                if heading:
                    self.headings.append(heading.group(1))
                    self.anchors.append(anchor(heading.group(1)))
                    number = re.match(r"(\d+)\. +(.*)", heading.group(1))
                    if number:
                        self.numbers.add(number.group(1))
                        self.headings.append(number.group(2))
                elif label:
                    self.labels.append(label.group(1))
        # A repeated heading's anchor takes -1, -2, ... as GitHub numbers them.
        seen = {}
        for i, a in enumerate(self.anchors):
            seen[a] = seen.get(a, -1) + 1
            self.anchors[i] = f"{a}-{seen[a]}" if seen[a] else a

    def names(self, name, labels):
        """Whether `name` is a heading, or its first words (or a label, if `labels`)."""
        for heading in self.headings + (self.labels if labels else []):
            if heading == name or (heading.startswith(name) and not heading[len(name)].isalnum()):
                return True
        return False


docs = {}
checked = [0]  # citations of a section or anchor read


def doc(name):
    path = os.path.join(ROOT, "docs", name) if name != "README.md" else os.path.join(ROOT, name)
    if name not in docs:
        docs[name] = Doc(path) if os.path.isfile(path) else None
    return docs[name]


def files():
    for folder in CODE_DIRS:
        for base, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in sorted(names):
                if name.endswith(CODE_SUFFIXES) or name == "CMakeLists.txt":
                    yield os.path.join(base, name)
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if name.endswith(".md"):
            yield os.path.join(ROOT, "docs", name)
    yield os.path.join(ROOT, "README.md")


# A line break and the next line's comment marker (//, ///, #, *) and
# indentation: a citation reads across them.
WRAP = re.compile(r"[ \t]*\n[ \t]*(?:///?|#|\*(?!\*))?[ \t]*")
QUOTE = r'"([^"\n]+)"'
CITATION = re.compile(r"(?<![\w/.-])(docs/)?([a-z][a-z0-9_-]*\.md)(?:(?:,? §|,? section )(\d+))?((?:(?:,|;| and| \() ?" + QUOTE + r")*)")
LINK = re.compile(r"\]\((docs/)?([a-z][a-z0-9_-]*\.md)?#([^)\s]+)\)|(?<![\w/(])(docs/)([a-z][a-z0-9_-]*\.md)#([\w-]+)")


def check(path):
    """The broken citations in one file, as messages."""
    try:
        raw = open(path, encoding="utf-8").read()
    except UnicodeDecodeError:
        return []
    rel = os.path.relpath(path, ROOT)
    in_docs = rel.startswith("docs" + os.sep)
    # Joined text, and for each of its characters the line it came from.
    text, lines, line, at = [], [], 1, 0
    for wrap in WRAP.finditer(raw):
        text.append(raw[at : wrap.start()])
        lines.extend([line] * (wrap.start() - at))
        text.append(" ")
        lines.append(line)
        line += 1
        at = wrap.end()
    text.append(raw[at:])
    lines.extend([line] * (len(raw) - at))
    text = "".join(text)
    broken = []

    def report(pos, what):
        broken.append(f"{rel}:{lines[pos]}: {what}")

    for m in CITATION.finditer(text):
        prefix, name, number, chain = m.group(1), m.group(2), m.group(3), m.group(4)
        if not prefix and not (in_docs or rel == "README.md"):
            continue  # a bare x.md in code is not a docs/ citation
        if not prefix and name == "README.md":
            continue
        target = doc(name)
        if target is None:
            if prefix or number or chain:
                report(m.start(), f"docs/{name} does not exist")
            continue
        checked[0] += bool(number) + chain.count('"') // 2
        if number and number not in target.numbers:
            report(m.start(), f"docs/{name} has no section {number}")
        for i, quoted in enumerate(re.finditer(QUOTE, chain)):
            if not target.names(quoted.group(1), labels=i > 0 or bool(number)):
                report(m.start(), f'docs/{name} has no section "{quoted.group(1)}"')
    for m in LINK.finditer(text):
        prefix, name, tag = (m.group(1), m.group(2), m.group(3)) if m.group(3) else (m.group(4), m.group(5), m.group(6))
        if name is None:  # #anchor: this file's
            if not (in_docs or rel == "README.md"):
                continue
            name = os.path.basename(rel)
        elif not prefix and not in_docs:
            continue
        target = doc(name)
        checked[0] += 1
        if target is None:
            report(m.start(), f"docs/{name} does not exist")
        elif tag not in target.anchors:
            report(m.start(), f"docs/{name} has no heading with the anchor #{tag}")
    return broken


def main():
    broken = [message for path in files() for message in check(path)]
    summary = f"check-citations: {checked[0]} citations of docs/ sections, {len(broken)} broken"
    print("\n".join(broken + [summary]))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
