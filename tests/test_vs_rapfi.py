"""benchmarks/vs_rapfi.py without Rapfi: the brains' specs (node limits for the screen) and
its bad-input errors."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from plies.arena.spec import parse_engine_spec

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "vs_rapfi.py"
_SPEC = importlib.util.spec_from_file_location("plies_bench_vs_rapfi", _PATH)
vs_rapfi = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(vs_rapfi)


def test_node_limits_reach_each_brain_as_max_node_and_only_when_given(tmp_path) -> None:
    rapfi = tmp_path / "pbrain-rapfi"
    plies, peer = (
        parse_engine_spec(s)
        for s in vs_rapfi.engine_specs(rapfi, str(tmp_path), ["NET=x.npy"], 150000, 100000)
    )
    assert plies.protocol_options == {"thread_num": "1", "param": "NET=x.npy", "max_node": "150000"}
    assert peer.protocol_options == {"thread_num": "1", "max_node": "100000"}
    timed = [parse_engine_spec(s) for s in vs_rapfi.engine_specs(rapfi, str(tmp_path), [])]
    assert all("max_node" not in e.protocol_options for e in timed)
    assert "param" not in timed[0].protocol_options
    assert "book" not in timed[0].protocol_options
    booked = parse_engine_spec(vs_rapfi.engine_specs(rapfi, "w", [], plies_book="/b/r.sqlite")[0])
    assert booked.protocol_options == {"thread_num": "1", "book": "/b/r.sqlite"}


def test_a_negative_node_limit_is_a_one_line_error(monkeypatch, capsys) -> None:
    argv = ["vs_rapfi.py", "--rapfi", sys.executable, "--plies-nodes", "-1"]
    monkeypatch.setattr(sys, "argv", argv)
    assert vs_rapfi.main() == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: --plies-nodes and --rapfi-nodes must not be negative"
