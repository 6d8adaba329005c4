#!/usr/bin/env python3
"""Every reference a reader meets in the documents resolves inside the repository.

  scripts/check_links.py [ROOT]     (default: the current folder)

Checks README.md, docs/*.md and results/README.md:
  - every Markdown link and image, [text](target) and ![alt](target), names a file or folder that
    exists, relative to the document (web addresses are not followed); a #anchor names a heading of
    the target (or of the document itself), as GitHub makes anchors from headings;
  - every path written in the text that begins with a top-level folder of the repository
    (`results/gpu-h200/rap-ncu.md`, algorithms/registry.h) names something that exists, from the
    root. A path may stand for several: `validate.{md,csv}` for both, `results/gpu*/x` or
    `results/gpu-<device>/x` or `results/NAME.md` for at least one match (a capitalised word or a
    <word> is a placeholder);
  - README.md's table in "How the tree is built" lists every top-level folder.
Prints one line per broken reference, FILE:LINE: what, and exits 1 when there is any.
"""
import glob
import os
import re
import subprocess
import sys

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
TRAILING = ".,:;?!)'\"`"


def top_level(root):
    """The repository's top-level folders, as git knows them (a build folder is not one)."""
    try:
        names = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True,
                               text=True).stdout.split("\n")
        folders = {n.split("/", 1)[0] for n in names if "/" in n}
    except (OSError, subprocess.CalledProcessError):
        folders = {n for n in os.listdir(root) if os.path.isdir(os.path.join(root, n))
                   and not n.startswith("build") and n != ".git"}
    return sorted(folders)


def slug(text):
    """GitHub's anchor of a heading: inline code marks and links reduced to their text, lower
    case, punctuation but '-' and '_' dropped, spaces turned into '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("`", "").lower()
    return "".join(c for c in text if c.isalnum() or c in "-_ ").replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    fence = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            m = None if fence else HEADING.match(line)
            if m:
                s = slug(m.group(2))
                n = seen.get(s, 0)
                seen[s] = n + 1
                out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def expand_braces(path):
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(path[:m.start()] + alt + path[m.end():])
    return out


def resolves(root, path):
    """True when `path` (from the root) names something, placeholders and globs standing for any."""
    for p in expand_braces(path):
        full = os.path.join(root, p)
        if os.path.exists(full):
            continue
        pattern = re.sub(r"<[^<>/]*>", "*", p)
        pattern = re.sub(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9_]*(?![a-z0-9])", "*", pattern)
        if "*" in pattern and glob.glob(os.path.join(root, pattern)):
            continue
        return False
    return True


def check_document(root, rel, folders, problems):
    path = os.path.join(root, rel)
    here = os.path.dirname(path)
    own = anchors(path)
    inline = re.compile(r"(?<![\w./<>*-])((?:%s)/(?:[^\s`'\"()\[\],;|{}]|\{[^{}\s]*\})*)"
                        % "|".join(re.escape(f) for f in folders))
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines, 1):
        where = "%s:%d" % (rel, number)
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):  # https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(here, file)) if file else path
            if not os.path.exists(dest):
                problems.append("%s: link to %s, which does not exist" % (where, target))
                continue
            if anchor and dest.endswith(".md") and anchor not in anchors(dest):
                problems.append("%s: link to %s: no heading of %s has the anchor #%s"
                                % (where, target, os.path.relpath(dest, root), anchor))
        text = LINK.sub(lambda m: " " * len(m.group(0)), line)
        for m in inline.finditer(text):
            p = m.group(1).rstrip(TRAILING)
            if "..." in p or "://" in p:
                continue
            if not resolves(root, p):
                problems.append("%s: the path %s names nothing in the repository" % (where, p))
    if not own and rel == "README.md":
        problems.append("README.md: no headings")


def check_tree_table(root, folders, problems):
    """README.md's "How the tree is built" table names every top-level folder."""
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## How the tree is built\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        problems.append("README.md: no section \"How the tree is built\"")
        return
    listed = set(re.findall(r"^\| `([^`/]+)/` \|", m.group(1), re.M))
    for folder in folders:
        if folder not in listed:
            problems.append("README.md: the table of \"How the tree is built\" does not list %s/" % folder)
    for folder in sorted(listed - set(folders)):
        problems.append("README.md: the table of \"How the tree is built\" lists %s/, which is not a folder"
                        " of the repository" % folder)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    folders = top_level(root)
    documents = ["README.md"] + ["docs/" + n for n in sorted(os.listdir(os.path.join(root, "docs")))
                                 if n.endswith(".md")]
    if os.path.exists(os.path.join(root, "results", "README.md")):
        documents.append("results/README.md")
    problems = []
    for rel in documents:
        check_document(root, rel, folders, problems)
    check_tree_table(root, folders, problems)
    for p in problems:
        print(p)
    print("check_links: %d documents, %d broken references" % (len(documents), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
