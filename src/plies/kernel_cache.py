"""Keep numba's on-disk cache of plies' kernels consistent with the sources.

numba invalidates a cached kernel only when the source file of that kernel changes. A kernel
that calls kernels of another module (the search calls the state's make/undo, the VCF solver,
the rules) keeps its compiled copy of the callees when only their files change, so after an
upgrade or an edit it could run stale code. This module fingerprints every kernel source file
of the package (every file with an ``@njit``) and, when the fingerprint differs from the one
recorded with the cache, deletes plies' cached kernels before any is loaded. It runs once, on
``import plies.gomoku``.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
STAMP_NAME = "plies-kernels.stamp"


def _sha256():  # noqa: ANN202 - a hashlib-style object
    """A SHA-256 object from Python's own implementation when it has one: ``hashlib`` loads
    OpenSSL's libcrypto (3.4 MB resident, counted in the lean brain's memory; docs/pbrain.md)."""
    for name in ("_sha2", "_sha256"):  # Python 3.12+, 3.11
        try:
            return importlib.import_module(name).sha256()
        except (ImportError, AttributeError):
            pass
    import hashlib

    return hashlib.sha256()


def fingerprint() -> str:
    """A hash of every source file of the package that defines numba kernels."""
    digest = _sha256()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        text = path.read_bytes()
        if b"@njit" not in text:
            continue
        digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
        digest.update(text)
    return digest.hexdigest()


def _cache_files() -> list[Path]:
    """plies' cached kernels where numba keeps them now: under ``NUMBA_CACHE_DIR`` when it is
    set, else in the package's ``__pycache__`` folders (the stamp lives beside them)."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        root = Path(custom)
        if not root.is_dir():
            return []
        return [
            p for pattern in ("*.nbi", "*.nbc") for p in root.rglob(pattern) if "plies" in str(p)
        ]
    return [
        p for pattern in ("*.nbi", "*.nbc") for p in PACKAGE_DIR.rglob(f"__pycache__/{pattern}")
    ]


def _stamp_path() -> Path:
    custom = os.environ.get("NUMBA_CACHE_DIR")
    base = Path(custom) if custom else PACKAGE_DIR / "__pycache__"
    return base / STAMP_NAME


def ensure_fresh() -> bool:
    """Delete plies' cached kernels if the sources changed since they were cached; return
    whether anything was deleted. Never raises: a read-only install simply keeps its cache."""
    try:
        current = fingerprint()
        stamp = _stamp_path()
        if stamp.exists() and stamp.read_text().strip() == current:
            return False
        removed = False
        for path in _cache_files():
            try:
                path.unlink()
                removed = True
            except OSError:
                pass
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(current + "\n")
        return removed
    except OSError:
        return False
