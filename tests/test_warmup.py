"""plies.warmup.ensure_compiled: compile what the cache lacks (over worker processes), say so
once, stamp it; silent when the cache holds it."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

from plies import warmup

ROOT = Path(__file__).resolve().parents[1]
FAKE = ["tests.test_warmup:fake_one", "tests.test_warmup:fake_two"]


def _record(name: str) -> None:
    folder = os.environ.get("PLIES_TEST_WARMUP_DIR")
    if folder:
        (Path(folder) / f"{name}.{os.getpid()}").write_text("ran")


def fake_one() -> None:
    _record("one")


def fake_two() -> None:
    _record("two")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("PLIES_TEST_WARMUP_DIR", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the worker imports this module
    return tmp_path


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100), buf


def test_a_cold_cache_is_compiled_once_over_two_processes_and_stamped(cache: Path) -> None:
    console, buf = _console()
    done = warmup.ensure_compiled(FAKE, console=console, workers=2)
    assert sorted(entry for entry, _ in done) == sorted(FAKE)
    assert "compiling kernels, once" in buf.getvalue()
    ran = sorted(p.name for p in cache.iterdir() if p.name.startswith(("one.", "two.")))
    assert len(ran) == 2 and len({name.split(".")[1] for name in ran}) == 2  # two processes
    assert warmup.missing(FAKE) == []
    console, buf = _console()
    assert warmup.ensure_compiled(FAKE, console=console, workers=2) == []
    assert buf.getvalue() == ""  # a warm cache: not a word


def test_stamps_name_the_sources_and_versions(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warmup.ensure_compiled(FAKE[:1], quiet=True, workers=1)
    assert warmup.missing(FAKE) == FAKE[1:]
    monkeypatch.setattr(warmup, "_stamp_text", lambda: "other sources\n")
    assert warmup.missing(FAKE) == FAKE


def test_split_balances_the_cost_and_keeps_the_order() -> None:
    entries = [
        "plies.gomoku.engine.api:compile_search",
        "plies.gomoku.engine.api:compile_vct",
        "plies.dots.rules:warmup",
    ]
    lanes = warmup.split(entries, 2)
    assert len(lanes) == 2
    assert sorted(e for lane in lanes for e in lane) == sorted(entries)
    assert ["plies.gomoku.engine.api:compile_search"] in lanes or [
        "plies.gomoku.engine.api:compile_vct"
    ] in lanes
    assert warmup.split(entries, 1) == [entries]


def test_every_game_lists_resolvable_entries() -> None:
    for entries in warmup.KERNELS.values():
        assert all(entry in warmup.WARMUPS for entry in entries)
    assert all(callable(warmup.resolve(entry)) for entry in warmup.WARMUPS)
