"""A few games of ``benchmarks/brain_soak.py``: the soak runs clean on the plies brains
(pbrain and UCI) and catches a brain that answers garbage wrongly. The smoke tests check the
protocol, not the clock: a time margin of 0.5 s keeps them from failing on a loaded machine
(the soak's timing figures are its benchmark runs', docs/pbrain.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOAK = ROOT / "benchmarks" / "brain_soak.py"
FAKE = ROOT / "tests" / "arena" / "engines" / "fake_pbrain.py"
FAILURES = ("forfeits", "illegal_moves", "crashes", "protocol_failures", "start_failures")


def soak(tmp_path: Path, *args: str) -> tuple[int, dict]:
    out = tmp_path / "soak.json"
    done = subprocess.run(
        [sys.executable, str(SOAK), "--quiet", "--out", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, json.loads(out.read_text())


@pytest.mark.slow
def test_pbrain_soak_smoke(tmp_path: Path) -> None:
    code, data = soak(
        tmp_path, "--games", "2", "--rules", "renju", "--sizes", "15", "--garbage", "1",
        "--st", "0.1", "--tc", "", "--timemargin", "0.5",
    )  # fmt: skip
    assert code == 0, data["failures"]
    assert data["games"] == 2 and all(data[k] == 0 for k in FAILURES)
    assert data["garbage_lines"] > 10 and data["setups"] == ["gomoku renju 15"]
    assert 100 < data["peak_rss_mb"] < 1000
    assert len(data["peak_rss_mb_by_game"]) == 2
    assert data["peak_rss_mb_by_game"][-1] == data["peak_rss_mb"]
    timing = data["reply_minus_limit_ms"]
    assert timing["moves"] > 10 and timing["p50"] < 0


@pytest.mark.slow
def test_uci_soak_smoke(tmp_path: Path) -> None:
    code, data = soak(
        tmp_path, "--protocol", "uci", "--games", "2", "--garbage", "1", "--st", "0.05",
        "--tc", "", "--max-moves", "30", "--timemargin", "0.5",
    )  # fmt: skip
    assert code == 0, data["failures"]
    assert data["games"] == 2 and all(data[k] == 0 for k in FAILURES)
    assert data["races"] > 0 and data["garbage_lines"] > 0
    assert data["reply_minus_limit_ms"]["moves"] >= 30


def test_soak_catches_a_brain_that_takes_garbage(tmp_path: Path) -> None:
    """The arena's fake brain ignores INFO and dies on ``TURN x,y``: the soak must say so."""
    code, data = soak(
        tmp_path, "--games", "2", "--rules", "freestyle", "--sizes", "15", "--garbage", "1",
        "--st", "0.2", "--tc", "", "--brain", f"{sys.executable} {FAKE} sane",
    )  # fmt: skip
    assert code == 1
    assert data["protocol_failures"] + data["crashes"] > 0, data


def test_garbage_names_empty_cells_only_where_the_board_has_them() -> None:
    """TAKEBACK of an empty cell must get ERROR: on a full board (a drawn game's last move) no
    cell is named (the third soak's one protocol failure was this bug of the soak's)."""
    import importlib.util
    import random

    spec = importlib.util.spec_from_file_location("brain_soak", SOAK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rng = random.Random(3)
    cells = [f"{x},{y}" for y in range(5) for x in range(5)]
    for filled in (1, 12, 24, 25):
        occupied = rng.sample(cells, filled)
        for _ in range(200):
            for line, expected in module.pbrain_garbage(rng, 5, 5, occupied):
                if line.startswith("TAKEBACK"):
                    assert line == "TAKEBACK" or line.split()[1] not in occupied, line
                    assert expected == "ERROR"


@pytest.mark.slow
@pytest.mark.parametrize("quirk", ["slowstart", "dropturn"])
def test_soak_against_a_peer_binary(tmp_path: Path, quirk: str) -> None:
    """``--rapfi PATH``: plies against a peer's binary, here the arena's fake brain behind a
    launcher, with one of Rapfi's two quirks (a first move over the limit, a TURN dropped right
    after its move): the referee's start-up allowance and replay must keep both from deciding a
    game (slowstart's 0.8 s is over the 0.7 s that the margin allows), and the fake, which plays
    the cell nearest the centre, loses every game to plies."""
    peer = tmp_path / "pbrain-peer"
    peer.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} {quirk}\n")
    peer.chmod(0o755)
    code, data = soak(
        tmp_path, "--games", "2", "--rules", "freestyle", "--sizes", "15", "--garbage", "1",
        "--st", "0.5", "--tc", "", "--timemargin", "0.2", "--rapfi", str(peer),
    )  # fmt: skip
    assert code == 0, data["failures"]
    assert data["games"] == 2 and all(data[k] == 0 for k in FAILURES), data
    assert data["plies_score_vs_rapfi"] == 2 and data["garbage_lines"] > 0
    assert 0 < data["rapfi_peak_rss_mb"] < 100 < data["peak_rss_mb"]
