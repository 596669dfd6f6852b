"""Write the docs' generated blocks: what the commands print, the files they show, the pictures.

    python docs/generate.py            # rewrite every generated block and picture
    python docs/generate.py --check    # list what is out of date; exit 1 if anything is

A generated block of a Markdown file sits between two HTML comments, each
on a line of its own; the first says what the block is:

    <!-- generated: run gridlang solve puzzles/nurikabe.grid --map ... --unique -->
    ...
    <!-- generated: end -->

``run CMD``
    ``$ CMD`` and what the command prints on standard output, in a code
    block. A ``--png FILE`` or ``--svg FILE`` in it (paths from the
    repository's root) writes that picture too.
``draw CMD``
    the command line alone, in a code block; the command runs for the
    pictures it writes.
``file PATH``
    the text of a file of the repository, in a code block.
``packages PICTURE``
    the map of the house: a table of gridlang's packages, each with its job
    and the packages it imports, and their graph drawn to ``PICTURE``
    (``docs/packages.py``).
``genres NAME...``
    a table of genres: each spec's ``puzzle`` name (a link to its section),
    its lines of rules (neither blank, a comment, a ``draw`` nor the URL ``format``), its ``decide``
    statements and the number of its instances (``puzzles/instances/NAME``).

Everything between the two comments is rewritten; edit the first comment,
never the block. A code block keeps the form it has (fenced, or indented
by four spaces; a new one is fenced). Commands run from the repository's
root, each in a fresh ``python -m gridlang``, one at a time (two at a time
with ``--check``). Figures of seconds (``0.35 s``) are masked when an
output is compared with the one in the file: a line that differs from one
of the block only in them is left as it is, so the timings stay until
their line changes, and a picture whose pixels are unchanged is not
written again; a second run writes the same bytes.
"""

from __future__ import annotations

import argparse
import functools
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/gallery.md", "docs/why.md", "docs/architecture.md")
"""The files with generated blocks, from the repository's root."""

COMMAND = "python docs/generate.py"
START = re.compile(r"^<!-- generated: (?P<kind>[a-z]+) (?P<args>.+?) -->$", re.M)
END = "<!-- generated: end -->"
KINDS = ("run", "draw", "file", "genres", "packages")
SECONDS = re.compile(r"\b\d+\.\d+ s\b")
PICTURE_FLAGS = ("--png", "--svg")
TIMEOUT = 300.0
"""Seconds a command may take."""
OUTCOMES = (0, 2)
"""The exit codes of a command that a block may show: solved, and proved infeasible (what
``--explain`` explains)."""


class DocsError(Exception):
    """A marker the script cannot follow, or a command that fails."""


@dataclass
class Block:
    """One generated block.

    Attributes:
        doc: the file, from the repository's root.
        line: the 1-based line of its first comment.
        kind: ``run``, ``draw``, ``file``, ``genres`` or ``packages``.
        args: what follows the kind in the comment.
        start: offset of the block's text (after the first comment's line).
        end: offset of the second comment.
        old: the block's text as it is.
    """

    doc: str
    line: int
    kind: str
    args: str
    start: int
    end: int
    old: str

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks(doc: str, text: str) -> list[Block]:
    """The generated blocks of one file, in order.

    Raises:
        DocsError: an unknown kind, or a block without its end.
    """
    found = []
    for m in START.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        if m.group("kind") not in KINDS:
            raise DocsError(f"{doc}:{line}: unknown kind of generated block {m.group('kind')!r} "
                            f"(kinds: {', '.join(KINDS)})")
        start = m.end() + 1
        end = text.find(END, start)
        following = START.search(text, start)
        if end < 0 or (following is not None and following.start() < end):
            raise DocsError(f"{doc}:{line}: the block has no {END} before the next one")
        found.append(Block(doc, line, m.group("kind"), m.group("args"), start, end, text[start:end]))
    return found


# ---------------------------------------------------------------- commands

@dataclass
class Run:
    """A command run for a block: what it printed and the pictures it drew (path -> bytes)."""

    stdout: str
    pictures: dict[str, bytes]


def run(command: str, where: str, root: Path = ROOT) -> Run:
    """Run ``gridlang ...`` in a fresh Python in ``root``, its pictures drawn to a temporary folder.

    Raises:
        DocsError: the command is not gridlang's, exits with a code outside :data:`OUTCOMES` or
            runs past :data:`TIMEOUT`.
    """
    argv = shlex.split(command)
    if not argv or argv[0] != "gridlang":
        raise DocsError(f"{where}: a generated command starts with 'gridlang': {command}")
    with tempfile.TemporaryDirectory(prefix="gridlang-docs-") as tmp:
        args, pictures = [], {}
        for i, arg in enumerate(argv[1:], 1):
            if argv[i - 1] in PICTURE_FLAGS:
                pictures[arg] = Path(tmp) / f"{len(pictures)}{Path(arg).suffix}"
                arg = str(pictures[arg])
            args.append(arg)
        try:
            out = subprocess.run([sys.executable, "-m", "gridlang", *args], cwd=root, capture_output=True,
                                 encoding="utf-8", env={**os.environ, "PYTHONIOENCODING": "utf-8"},
                                 timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise DocsError(f"{where}: `{command}` ran for more than {TIMEOUT:g} s") from None
        if out.returncode not in OUTCOMES:
            raise DocsError(f"{where}: `{command}` exited with {out.returncode}:\n{out.stderr}")
        return Run(out.stdout, {name: path.read_bytes() for name, path in pictures.items()})


def commands(found: list[Block], workers: int = 1, root: Path = ROOT) -> dict[str, Run]:
    """Every command of ``found`` run, ``workers`` at a time (the blocks' ``where`` name a failure)."""
    todo = {b.args: b.where for b in found if b.kind in ("run", "draw")}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        runs = {command: pool.submit(run, command, where, root) for command, where in todo.items()}
        return {command: future.result() for command, future in runs.items()}


# ---------------------------------------------------------------- block texts

def code(lines: list[str], old: str) -> str:
    """``lines`` as a code block in the form of ``old``: indented by four spaces, or fenced."""
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    if old.strip("\n").startswith("    "):
        return "\n" + "\n".join(f"    {line}" if line else "" for line in lines) + "\n\n"
    fence = "```"
    while any(line.startswith(fence) for line in lines):
        fence += "`"
    return "\n" + "\n".join([fence, *lines, fence]) + "\n\n"


def genres_table(names: list[str], root: Path = ROOT) -> str:
    """The gallery's table of genres (see the module's docstring)."""
    from gridlang.language import ast
    from gridlang.language.parser import parse_file

    rows = ["| genre | lines of rules | decisions | instances |", "| --- | --- | --- | --- |"]
    for name in names:
        path = root / "puzzles" / f"{name}.grid"
        tree = parse_file(path)
        title = tree.puzzle.name if tree.puzzle else name
        anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        formats = {n for f in tree.of(ast.Format) for n in range(f.span.line, max(i.span.line for i in f.items) + 1)}
        rules = [line.strip() for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if line.strip() and not line.strip().startswith(("#", "draw ")) and k not in formats]
        decide = ", ".join(f"`{line.removeprefix('decide ')}`".replace("|", "\\|") for line in rules
                           if line.startswith("decide "))
        instances = len(list((root / "puzzles" / "instances" / name).glob("*.txt")))
        rows.append(f"| [{title}](#{anchor}) | {len(rules)} | {decide} | {instances} |")
    return "\n" + "\n".join(rows) + "\n\n"


def render(block: Block, runs: dict[str, Run], root: Path = ROOT) -> str:
    """The text a block should hold."""
    if block.kind == "run":
        return code([f"$ {block.args}", *runs[block.args].stdout.splitlines()], block.old)
    if block.kind == "draw":
        return code([block.args], block.old)
    if block.kind == "file":
        path = root / block.args
        if not path.is_file():
            raise DocsError(f"{block.where}: no file {block.args}")
        return code(path.read_text(encoding="utf-8").splitlines(), block.old)
    if block.kind == "packages":
        return house(root)[0]
    return genres_table(block.args.split(), root)


@functools.lru_cache(maxsize=2)
def house(root: Path = ROOT) -> tuple[str, bytes]:
    """The ``packages`` block's table and picture (``docs/packages.py``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_packages", root / "docs" / "packages.py")
    packages = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(packages)
    graph, order = packages.edges(), packages.layers(root)
    return packages.table(graph, order), packages.picture(graph, order)


def masked(text: str) -> str:
    """``text`` with its figures of seconds replaced by ``#.## s``."""
    return SECONDS.sub("#.## s", text)


def keep_figures(new: str, old: str) -> str:
    """``new`` with each line that differs from a line of ``old`` only in figures of seconds
    replaced by that line, so that timings measured before stay until the line changes."""
    before = {}
    for line in old.split("\n"):
        before.setdefault(masked(line), line)
    return "\n".join(before.get(masked(line), line) for line in new.split("\n"))


# ---------------------------------------------------------------- pictures

def same_picture(path: Path, data: bytes) -> bool:
    """True when the file at ``path`` exists and shows what ``data`` shows (the same pixels;
    an SVG the same text)."""
    if not path.is_file():
        return False
    if path.suffix.lower() != ".png":
        return path.read_bytes() == data
    from PIL import Image

    with Image.open(path) as old, Image.open(io.BytesIO(data)) as new:
        if old.size != new.size:
            return False
        # Compared pixel by pixel: a difference image's getbbox() looks at the alpha channel alone
        # (Pillow 10+), so two opaque pictures of one size would always pass as the same.
        return old.convert("RGBA").tobytes() == new.convert("RGBA").tobytes()


# ---------------------------------------------------------------- the whole run

def generate(check: bool = False, root: Path = ROOT, docs: tuple[str, ...] = DOCS) -> list[str]:
    """Bring every generated block and picture of ``docs`` up to date, or, with ``check``, only say
    which are not.

    Args:
        check: only compare, write nothing.
        root: the repository (the docs' paths, the commands' directory).
        docs: the files, from ``root``.

    Returns:
        One line per block or picture out of date (``FILE:LINE: kind args``),
        written unless ``check``.

    Raises:
        DocsError: a malformed block, a missing file, a failing command.
    """
    texts = {doc: (root / doc).read_text(encoding="utf-8") for doc in docs}
    found = {doc: blocks(doc, text) for doc, text in texts.items()}
    # Checking compares outputs with their figures masked, so it may run two commands at a time;
    # the timings written are taken one command at a time.
    runs = commands([b for bs in found.values() for b in bs], workers=2 if check else 1, root=root)
    stale = []
    for doc, text in texts.items():
        parts, at = [], 0
        for block in found[doc]:
            new = keep_figures(render(block, runs, root), block.old)
            if new != block.old:
                stale.append(f"{block.where}: {block.kind} {block.args}")
            parts += [text[at:block.start], new]
            at = block.end
            drawn = (runs[block.args].pictures if block.kind in ("run", "draw")
                     else {block.args: house(root)[1]} if block.kind == "packages" else {})
            for name, data in drawn.items():
                target = root / name
                if os.path.relpath(target, (root / doc).parent) not in text and name not in text:
                    stale.append(f"{block.where}: {name} is drawn but the page does not show it")
                if not same_picture(target, data):
                    stale.append(f"{block.where}: picture {name}")
                    if not check:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(data)
        parts.append(text[at:])
        if not check and "".join(parts) != text:
            (root / doc).write_text("".join(parts), encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only list what is out of date; exit 1 if anything is")
    args = parser.parse_args(argv)
    try:
        stale = generate(check=args.check)
    except DocsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for line in stale:
        print(("out of date: " if args.check else "rewritten: ") + line)
    if args.check and stale:
        print(f"run `{COMMAND}` to bring the docs up to date", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
