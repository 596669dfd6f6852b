"""Docs that cannot drift: the README's and the gallery's outputs, files and pictures are
what docs/generate.py makes of them today, and the README's Python runs as written."""

from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
import textwrap

import pytest
from horse_data import REPO

SPEC = "tile a '.'\ndecide x: bool on a\n"


def generator():
    """docs/generate.py as a module."""
    spec = importlib.util.spec_from_file_location("generate_docs", REPO / "docs" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def dejavu() -> bool:
    """The pictures were drawn with DejaVu Sans: its glyphs' pixels differ from other fonts'."""
    from gridlang.pictures.canvas import _font

    return "DejaVuSans" in str(getattr(_font(12, False), "path", ""))


def test_the_docs_show_what_gridlang_prints_today():
    gen = generator()
    stale = gen.generate(check=True)
    if not dejavu():
        stale = [s for s in stale if ": picture " not in s]  # the text still counts
    assert stale == [], "\n".join(["out of date (run `python docs/generate.py`):", *stale])


def test_every_gallery_genre_has_its_output_and_picture():
    gen = generator()
    found = gen.blocks("docs/gallery.md", (REPO / "docs" / "gallery.md").read_text(encoding="utf-8"))
    runs = [b.args for b in found if b.kind == "run" and b.args.startswith("gridlang solve ")]
    listed = next(b.args.split() for b in found if b.kind == "genres")
    # every bundled genre with instances is in the table, and each listed genre has its solve and picture
    bundled = {f.parent.name for f in (REPO / "puzzles" / "instances").glob("*/*.answer.json")} - {"snake_eggs"}
    assert set(listed) == bundled and len(listed) >= 50
    assert sorted(r.split("--png docs/gallery/")[1] for r in runs) == sorted(f"{g}.png" for g in listed)
    imports = [b.args for b in found if b.kind == "run" and b.args.startswith("gridlang import ")]
    assert len(imports) >= 12  # the map each of the first genres' URL stands for
    readme = gen.blocks("README.md", (REPO / "README.md").read_text(encoding="utf-8"))
    assert [b.kind for b in readme] == ["run", "run", "run", "draw"]


def write_repo(root, doc: str) -> None:
    (root / "docs").mkdir()
    (root / "spec.grid").write_text(SPEC)
    (root / "docs" / "page.md").write_text(doc)


def test_a_changed_output_is_out_of_date_until_the_script_rewrites_it(tmp_path):
    gen = generator()
    doc = textwrap.dedent("""\
        # A page

        <!-- generated: run gridlang check spec.grid -->

            $ gridlang check spec.grid
            spec.grid: ok (1 tiles, 0 parameters, 2 decisions, 0 regions; 0.31 s)

        <!-- generated: end -->

        <!-- generated: file spec.grid -->
        <!-- generated: end -->
        """)
    write_repo(tmp_path, doc)
    page = tmp_path / "docs" / "page.md"
    assert gen.generate(check=True, root=tmp_path, docs=("docs/page.md",)) == [
        "docs/page.md:3: run gridlang check spec.grid", "docs/page.md:10: file spec.grid"]
    assert page.read_text() == doc  # --check writes nothing
    gen.generate(root=tmp_path, docs=("docs/page.md",))
    text = page.read_text()
    assert "    spec.grid: ok (1 tiles, 0 parameters, 1 decisions, 0 regions; " in text  # indented, as it was
    assert "```\ntile a '.'\ndecide x: bool on a\n```" in text  # a new block is fenced
    assert gen.generate(check=True, root=tmp_path, docs=("docs/page.md",)) == []
    gen.generate(root=tmp_path, docs=("docs/page.md",))
    assert page.read_text() == text  # the same bytes on a rerun, though the seconds differ


def test_two_opaque_pictures_of_one_size_differ_by_their_pixels(tmp_path):
    """A difference image's getbbox() looks at alpha alone: opaque pictures compared so were all the same."""
    import io

    from PIL import Image

    def png(colour) -> bytes:
        out = io.BytesIO()
        Image.new("RGBA", (4, 4), colour).save(out, format="PNG")
        return out.getvalue()

    gen = generator()
    path = tmp_path / "p.png"
    path.write_bytes(png((255, 255, 255, 255)))
    assert gen.same_picture(path, png((255, 255, 255, 255)))
    assert not gen.same_picture(path, png((0, 0, 0, 255)))


def test_timings_are_masked_and_kept_until_their_line_changes():
    gen = generator()
    old = "x\ntime: startup 0.35 s, total 0.82 s\n"
    assert gen.keep_figures("y\ntime: startup 1.76 s, total 4.06 s\n", old) == "y\ntime: startup 0.35 s, total 0.82 s\n"
    assert gen.keep_figures("time: startup 1.76 s, parse 0.1 s\n", old) == "time: startup 1.76 s, parse 0.1 s\n"


def test_a_block_without_its_end_or_of_an_unknown_kind_is_refused():
    gen = generator()
    with pytest.raises(gen.DocsError, match="page.md:1: the block has no <!-- generated: end -->"):
        gen.blocks("page.md", "<!-- generated: file a -->\n<!-- generated: file b -->\n<!-- generated: end -->\n")
    with pytest.raises(gen.DocsError, match="page.md:2: unknown kind of generated block 'output'"):
        gen.blocks("page.md", "\n<!-- generated: output x -->\n<!-- generated: end -->\n")


def test_a_failing_command_names_its_block(tmp_path):
    gen = generator()
    write_repo(tmp_path, "<!-- generated: run gridlang check missing.grid -->\n<!-- generated: end -->\n")
    with pytest.raises(gen.DocsError, match=r"docs/page.md:1: `gridlang check missing.grid` exited with 1"):
        gen.generate(check=True, root=tmp_path, docs=("docs/page.md",))


# ---------------------------------------------------------------- the README's Python

def readme_python() -> str:
    """The README's ``>>>`` examples as one doctest script."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    examples = doctest.DocTestParser().get_examples(text)
    assert len(examples) >= 3
    return text


# In the root, what a REPL sees after a plain `pip install .`: the checkout's gridlang/ first on
# the path (the current directory), and no editable-install finder; elsewhere, the installed package.
PROBE = """
import doctest, sys
if sys.argv[2] == "root":
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "")]
sys.path.insert(0, "")  # what a REPL started here puts first
text = open(sys.argv[1], encoding="utf-8").read()
test = doctest.DocTestParser().get_doctest(text, {}, "README.md", sys.argv[1], 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
runner.run(test)
print(runner.summarize(verbose=False))
sys.exit(1 if runner.failures else 0)
"""


@pytest.mark.parametrize("where", ["root", "elsewhere"])
def test_the_readmes_python_runs_from_the_root_and_from_elsewhere(where, tmp_path):
    readme_python()
    cwd = REPO if where == "root" else tmp_path
    out = subprocess.run([sys.executable, "-c", PROBE, str(REPO / "README.md"), where], capture_output=True,
                         text=True, cwd=cwd, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "failed=0" in out.stdout
