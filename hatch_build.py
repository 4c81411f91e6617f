"""Wheel build hook: the lean brain's kernels compiled ahead of time (docs/pbrain.md, Lean build).

For a wheel (``pip install .``, ``pip wheel .``) it runs ``python -m plies.gomoku.aot build``
on the package being built and ships ``plies/gomoku/_gomoku_kernels*.so`` and its fingerprint,
so that ``pbrain-plies`` starts without numba. The wheel is then specific to the platform and
Python version. Editable installs (``pip install -e .``: ``make``, the tests) skip it, as does
``PLIES_AOT=0``; a build that fails (no C compiler, ...) says why and leaves a pure wheel,
whose brain uses numba's JIT.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class AotBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if version == "editable" or os.environ.get("PLIES_AOT", "") == "0":
            return
        root = Path(self.root)
        out = Path(tempfile.mkdtemp(prefix="plies-aot-"))
        env = dict(os.environ, PYTHONPATH=str(root / "src"))
        cmd = [sys.executable, "-m", "plies.gomoku.aot", "build", str(out), "--target-cpu", ""]
        try:
            subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            tail = getattr(exc, "stderr", "") or str(exc)
            self.app.display_warning(
                "plies: the lean brain's kernels were not compiled ahead of time (the brain "
                f"will use numba's JIT): {tail.strip().splitlines()[-1] if tail else exc}"
            )
            return
        for path in out.iterdir():
            build_data["force_include"][str(path)] = f"plies/gomoku/{path.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
