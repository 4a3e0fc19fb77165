#!/usr/bin/env python3
"""Checks that every Swift code block a user reads is compiled in CI.

A block in README.md, a DocC article or a `///` comment passes when either
- its first non-blank line is a comment that says `fragment` (it shows a piece of something,
  such as a `case` of a switch or a declaration without its body), or
- its lines, in order, appear in one Swift file under Tests/ (which `swift build --build-tests`
  compiles) or under an example package's Sources/ or Tests/ (which `.ci/run` builds and tests):
  the block is then a copy of code that builds, and a test exercises it.

Lines are compared without whitespace or comments, so a formatter's line breaks do not matter,
but each must start where a line of the test file starts; lines of closing brackets alone are
skipped. A snippet's top-level `let` or `func` may be
compiled as a `static` member of a namespace, which keeps the names of many snippets apart.

    Scripts/snippets.py --check      # exit 1 and list each block that is neither
    Scripts/snippets.py --verbose    # also say which test file holds each compiled block
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(\s*)```+\s*(\w*)")
TRIVIAL = re.compile(r"^[\]\)\}\s,;]*$")


COMMENT = re.compile(r"(^|\s)//.*$")  # not the `//` of a URL, which follows a colon
STATIC = re.compile(r"\b(static|nonisolated)\s+")


def normalize(line):
    return re.sub(r"\s+", "", STATIC.sub("", COMMENT.sub("", line)))


def significant(lines):
    result = []
    for line in lines:
        text = normalize(line)
        if not text or TRIVIAL.match(text) or text in ("...", "…"):
            continue
        result.append(text)
    return result


def blocks_in(lines, origin):
    """Yields (origin, first line number, language, lines) for each fenced block."""
    inside = None
    for number, line in enumerate(lines, start=1):
        match = FENCE.match(line)
        if inside is None:
            if match:
                inside = (number, match.group(2).lower(), [])
        elif match and not match.group(2):
            yield origin, inside[0], inside[1], inside[2]
            inside = None
        else:
            inside[2].append(line)


def documentation_blocks():
    for path in [ROOT / "README.md", *sorted(ROOT.glob("Sources/*/*.docc/*.md"))]:
        yield from blocks_in(path.read_text().splitlines(), path.relative_to(ROOT))
    for path in sorted(ROOT.glob("Sources/**/*.swift")):
        comment = []
        for line in path.read_text().splitlines():
            stripped = line.strip()
            comment.append(stripped[3:] if stripped.startswith("///") else "")
        yield from blocks_in(comment, path.relative_to(ROOT))


def is_fragment(lines):
    for line in lines:
        if line.strip():
            return re.search(r"//.*\bfragment\b", line, re.IGNORECASE) is not None
    return False


class Compiled:
    """A test file's significant lines joined without whitespace, and where each line starts."""

    def __init__(self, path):
        lines = significant(path.read_text().splitlines())
        self.text = "".join(lines)
        self.line_starts, offset = set(), 0
        for line in lines:
            self.line_starts.add(offset)
            offset += len(line)

    def matched_in_order(self, needles):
        """How many of `needles` appear, in order, each where a line of the file starts (so
        `report.repairs` is not found inside `print(report.repairs)`), though a formatter may
        have carried the rest of it onto the lines after."""
        position = 0
        for count, needle in enumerate(needles):
            found = self.text.find(needle, position)
            while found >= 0 and found not in self.line_starts:
                found = self.text.find(needle, found + 1)
            if found < 0:
                return count
            position = found + len(needle)
        return len(needles)


def main(arguments):
    verbose = "--verbose" in arguments
    # The example packages are built, and their tests run, in CI too (`.ci/run`); `.build*`
    # folders hold dependencies' checkouts, which are not the examples' code.
    examples = [path for path in ROOT.glob("Examples/*/[ST]*/**/*.swift")
                if path.relative_to(ROOT).parts[2] in ("Sources", "Tests")]
    tests = [*ROOT.glob("Tests/**/*.swift"), *examples]
    compiled = {path.relative_to(ROOT): Compiled(path) for path in sorted(tests)}
    failures, counted = [], 0
    for origin, number, language, lines in documentation_blocks():
        if language not in ("swift", ""):
            continue
        if language == "" and not any("let " in l or "func " in l or "import " in l for l in lines):
            continue  # an untagged block of output or a shell line, not Swift
        counted += 1
        if is_fragment(lines):
            continue
        needles = significant(lines)
        home, matched = max(((path, file.matched_in_order(needles)) for path, file in compiled.items()),
                            key=lambda candidate: candidate[1])
        if matched < len(needles):
            failures.append(f"{origin}:{number}: a Swift block that no test compiles and that is not marked "
                            f"`// fragment` (closest: {home}, which lacks `{needles[matched]}`)")
        elif verbose:
            print(f"{origin}:{number}: compiled in {home}")
    for failure in failures:
        print(failure)
    print(f"{counted} Swift blocks, {len(failures)} neither compiled in Tests/ nor marked as fragments")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
