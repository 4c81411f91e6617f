"""The README's first command on a fresh clone with empty caches (issue 20: "the first ten
minutes").

``make demo`` creates ``.venv``, installs plies into it and runs ``plies demo --html
demo-review.html``. This test clones the committed HEAD of this repository into a temporary
folder and runs that last step from the clone (its ``src`` first on the path, this
interpreter's installed dependencies: no network) with empty numba and plies caches, so every
kernel the demo needs compiles, as on a new machine. It checks what README.md promises: the
notice on stderr that kernels compile once, the review, the HTML report; and that each kernel
was compiled once (not once per literal argument: docs/engine.md). Slow (the cold
compile: about a minute and a half on 2 busy cores), and run by ``make test`` all the same.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTICE = "compiling kernels, once"


# kernels compiled for two argument types on purpose (docs/engine.md, "One specialisation per
# kernel"): five_stops gets int32 and int64 arrays; count_run a literal BLACK in the Renju check
ALLOWED_TWICE = {"vcf.five_stops", "rules.count_run"}


def several_specialisations(cache: Path) -> set[str]:
    """The kernels with more than one specialisation in numba's cache ``cache`` (each index
    file, ``module.function-LINE.pyXY.nbi``, maps every compiled signature to its data)."""
    import numba  # noqa: F401 - the index keys hold numba types

    out = set()
    for path in cache.rglob("*.nbi"):
        with open(path, "rb") as f:
            pickle.load(f)  # numba's version
            _stamp, overloads = pickle.loads(f.read())
        if len(overloads) > 1:
            out.add(path.name.split("-")[0])
    return out


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_make_demo_from_a_fresh_clone_with_empty_caches(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    readme = (clone / "README.md").read_text(encoding="utf-8")
    assert "make demo" in readme and NOTICE in readme  # the README tells the first run's cost
    env = {
        **os.environ,
        "PYTHONPATH": str(clone / "src"),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache"),
        "PLIES_CACHE_DIR": str(tmp_path / "plies-cache"),
    }
    env.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.run(
        [sys.executable, "-m", "plies.cli", "demo", "--html", "demo-review.html"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert NOTICE in proc.stderr
    assert "result: black wins with five" in proc.stdout
    assert "review written to demo-review.html" in proc.stdout
    html = (clone / "demo-review.html").read_text(encoding="utf-8")
    assert html.lstrip().lower().startswith("<!doctype html")
    assert several_specialisations(tmp_path / "numba-cache") == ALLOWED_TWICE
    # the clone's own sources ran, and its cache is warm now: a second run says nothing
    again = subprocess.run(
        [sys.executable, "-m", "plies.cli", "demo"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr[-3000:]
    assert NOTICE not in again.stderr
    assert (
        str(clone / "src")
        in subprocess.run(
            [sys.executable, "-c", "import plies; print(plies.__file__)"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
