"""plies.kernel_cache: cached kernels are dropped when any kernel source changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies import kernel_cache


@pytest.fixture
def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pkg = tmp_path / "plies"
    (pkg / "engine" / "__pycache__").mkdir(parents=True)
    (pkg / "engine" / "search.py").write_text("@njit\ndef f(): pass\n")
    (pkg / "engine" / "state.py").write_text("@njit\ndef g(): pass\n")
    (pkg / "cli.py").write_text("def main(): pass\n")
    monkeypatch.setattr(kernel_cache, "PACKAGE_DIR", pkg)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    return pkg


def _cache_file(pkg: Path) -> Path:
    path = pkg / "engine" / "__pycache__" / "search.f-1.py311.nbi"
    path.write_text("cached")
    return path


def test_cache_survives_while_sources_are_unchanged(fake_package: Path) -> None:
    kernel_cache.ensure_fresh()
    cached = _cache_file(fake_package)
    assert kernel_cache.ensure_fresh() is False
    assert cached.exists()


def test_a_changed_callee_module_drops_every_cached_kernel(fake_package: Path) -> None:
    kernel_cache.ensure_fresh()
    cached = _cache_file(fake_package)
    # only state.py changes: numba alone would keep search's stale copy of it
    (fake_package / "engine" / "state.py").write_text("@njit\ndef g(): return 1\n")
    assert kernel_cache.ensure_fresh() is True
    assert not cached.exists()


def test_files_without_kernels_do_not_count(fake_package: Path) -> None:
    kernel_cache.ensure_fresh()
    cached = _cache_file(fake_package)
    (fake_package / "cli.py").write_text("def main(): return 2\n")
    assert kernel_cache.ensure_fresh() is False
    assert cached.exists()


def test_a_separate_numba_cache_dir_leaves_the_package_cache_alone(
    fake_package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kernel_cache.ensure_fresh()
    cached = _cache_file(fake_package)
    other = tmp_path / "elsewhere"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(other))
    kernel_cache.ensure_fresh()  # a first run with its own cache dir
    assert cached.exists()
    assert (other / kernel_cache.STAMP_NAME).exists()
