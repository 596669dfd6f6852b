"""Pictures within the command's limits: files that are not pictures, or are too large to
decode, get one sentence naming the file; a large picture is read within the time and
memory limits, or stopped by them, honestly reported."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from horse_data import REPO
from PIL import Image
from screens import SCREENS, shot, true_map

from gridlang.cli import main

HORSE = REPO / "puzzles" / "horse.grid"
needs_screens = pytest.mark.skipif(SCREENS is None, reason="../shared/data/screens is not here")


def png_header(path: Path, width: int, height: int) -> Path:
    """A PNG file whose header claims ``width`` x ``height`` RGB pixels, with almost no data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))
    return path


def gif_header(path: Path, width: int, height: int) -> Path:
    """A GIF file whose header claims ``width`` x ``height`` pixels."""
    path.write_bytes(b"GIF89a" + struct.pack("<HH", width, height) + b"\x00\x00\x00" + b","
                     + struct.pack("<HHHH", 0, 0, width, height) + b"\x00\x02\x02\x44\x01\x00;")
    return path


def refused(args: list[str], capsys) -> str:
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


# ---------------------------------------------------------------- not pictures, or too large to decode

@pytest.mark.parametrize("width, height, pixels", [
    (20_000, 20_000, "400,000,000 pixels"),                     # Pillow's decompression-bomb limit
    (2**31 - 1, 2**31 - 1, "4,611,686,014,132,420,609 pixels"),
    (12_000, 9_000, "12,000 x 9,000 pixels"),                   # within Pillow's limit, beyond gridlang's
])
def test_a_png_claiming_too_many_pixels_is_one_sentence(width, height, pixels, tmp_path, capsys):
    path = png_header(tmp_path / "huge.png", width, height)
    assert refused(["import-image", str(path)], capsys) == (
        f"{path}: error: the picture is {pixels}; gridlang reads pictures of at most 100,000,000 pixels "
        f"(10,000 x 10,000)\n")


def test_a_gif_claiming_65535_squared_pixels_is_one_sentence(tmp_path, capsys):
    path = gif_header(tmp_path / "huge.gif", 65535, 65535)
    assert refused(["solve", str(HORSE), "--image", str(path), "--budget", "3"], capsys) == (
        f"{path}: error: the picture is 4,294,836,225 pixels; gridlang reads pictures of at most 100,000,000 "
        f"pixels (10,000 x 10,000)\n")


def test_a_picture_larger_than_the_memory_limit_leaves_is_refused_before_decoding(tmp_path, capsys):
    path = png_header(tmp_path / "large.png", 9000, 9000)  # 324 MB decoded
    # a fresh process, as a user's is: this test process may already hold more than 300 MB
    run = subprocess.run([sys.executable, "-m", "gridlang", "import-image", str(path), "--memory-limit", "300M"],
                         capture_output=True, text=True, timeout=120)
    err = run.stderr
    assert run.returncode == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    assert re.fullmatch(rf"{re.escape(str(path))}: error: the picture is 9,000 x 9,000 pixels; reading it needs "
                        r"about 446 MB, more than the memory limit of 300 MB leaves \(\d+ MB\); give a smaller "
                        r"picture or raise --memory-limit\n", err), err


def test_files_that_are_not_pictures_are_one_sentence_each(tmp_path, capsys):
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    whole = tmp_path / "whole.png"
    Image.effect_noise((300, 300), 60).convert("RGB").save(whole)
    truncated = tmp_path / "truncated.png"
    truncated.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    cases = {
        HORSE: "this is not a picture gridlang reads (Pillow reads PNG, JPEG, GIF, BMP, WebP)",
        empty: "the file is empty, not a picture",
        truncated: "the file ends before the picture does (truncated)",
        tmp_path / "none.png": "no such file",
        tmp_path: "this is a folder, not a picture",
    }
    for path, sentence in cases.items():
        assert refused(["import-image", str(path)], capsys) == f"{path}: error: {sentence}\n"
    assert refused(["solve", str(HORSE), "--image", str(truncated), "--budget", "3"], capsys) == (
        f"{truncated}: error: the file ends before the picture does (truncated)\n")


# ---------------------------------------------------------------- time

@pytest.fixture(scope="module")
def blank_png(tmp_path_factory) -> Path:
    """A plain 7,000 x 7,000 grey PNG: decoding it takes a while, reading it finds no grid."""
    path = tmp_path_factory.mktemp("big") / "blank.png"
    Image.new("L", (7000, 7000), 128).save(path)
    return path


def test_the_time_limit_stops_the_decoding_of_a_large_picture(blank_png, capsys):
    args = ["import-image", str(blank_png), "--time-limit", "0.05"]
    assert main(args) == 1  # the first run also loads the modules that read pictures: start-up, not bounded here
    capsys.readouterr()
    started = time.perf_counter()
    assert main(args) == 1
    elapsed = time.perf_counter() - started
    err = capsys.readouterr().err
    assert err.startswith(f"{blank_png}: error: the time limit ran out while the picture was read (")
    assert elapsed < 2 * 0.05 + 1.0  # the whole picture took about 1 s to decode on a busy machine


def test_solve_reports_unknown_when_the_time_limit_runs_out_while_the_picture_is_read(blank_png, capsys):
    assert main(["solve", str(HORSE), "--image", str(blank_png), "--budget", "3", "--time-limit", "0.05"]) == 3
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "status UNKNOWN   backend auto"
    assert out[1] == ("no solution found within the time limit of 0.05 s, and none ruled out: the time limit "
                      "ran out while the picture was read")


# ---------------------------------------------------------------- large screenshots within the limits

def _peak(args: list[str]) -> tuple[int, str, str, int]:
    """Run ``gridlang ARGS`` in a fresh process; its exit code, output, error and peak resident size (bytes)."""
    code = ("import resource, sys; from gridlang.cli import main; c = main(sys.argv[1:]); "
            "sys.stdout.flush(); print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); "
            "sys.exit(c)")
    run = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    *err, peak = run.stderr.splitlines()
    return run.returncode, run.stdout, "\n".join(err), int(peak) * 1024


@pytest.mark.slow
@needs_screens
@pytest.mark.parametrize("factor, limit", [(4, "300M"), (8, "500M")])
def test_a_screenshot_enlarged_to_thousands_of_pixels_is_read_within_the_memory_limit(factor, limit, tmp_path):
    im = shot("2026.01.23").convert("RGB")
    path = tmp_path / f"x{factor}.png"
    im.resize((im.width * factor, im.height * factor), Image.NEAREST).save(path)
    code, out, err, peak = _peak(["import-image", str(path), "--memory-limit", limit])
    assert (code, out.split(), err) == (0, true_map("2026.01.23"), "")
    assert peak <= 1.15 * int(limit[:-1]) * 2**20
