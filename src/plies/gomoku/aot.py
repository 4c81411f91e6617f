"""The Gomoku kernels compiled ahead of time, for a brain without numba at run time.

A prototype of the lean brain (docs/pbrain.md, "Lean build"). ``python -m plies.gomoku.aot
build DIR`` compiles, with ``numba.pycc``, every kernel that Python code calls during a game
(harvested from the numba dispatchers after a warm-up and searches in every rule: the entry
points) into one extension module ``_gomoku_kernels`` in ``DIR``, with the fingerprint of the
kernel sources beside it. Callees are compiled into their callers, as the JIT does. The
extension's wrappers release the GIL (``numba.pycc`` does not by default; the brain's watchdog
and stdin reader threads need it while a search runs).

At run time :func:`install` (before any kernel module is imported) puts a stand-in ``numba``
(and ``llvmlite``) in ``sys.modules`` whose ``njit`` returns the compiled entry point of the
same module and name; a kernel that no Python code calls (compiled callers hold their own copy)
becomes a function that raises, so that a call the harvest missed is an error, never the
kernel run as plain Python (whose integers overflow where numba's wrap). Nothing else
changes: the kernel modules, the engine and the brain are the ones the JIT build runs, so the
engine is the same (same bench signature, nodes and moves).
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path
from typing import Any

EXTENSION = "_gomoku_kernels"
FINGERPRINT = EXTENSION + ".fingerprint"
MODULES = (
    "plies.gomoku.rules",
    "plies.gomoku.engine.patterns",
    "plies.gomoku.engine.threat_eval",
    "plies.gomoku.engine.state",
    "plies.gomoku.engine.search",
    "plies.gomoku.engine.vcf",
    "plies.gomoku.engine.vct",
)


def export_name(module: str, function: str) -> str:
    """The extension's name of ``module.function`` (``state__rebuild``)."""
    return f"{module.rsplit('.', 1)[-1]}__{function}"


# --- build (needs numba) --------------------------------------------------------------------


def _exercise() -> None:
    """Run what a game runs, in every rule and on two sizes, so that every entry point is
    compiled (or loaded) once with the types a game uses."""
    from plies.gomoku import rules
    from plies.gomoku.board import Board
    from plies.gomoku.engine import Engine, state
    from plies.gomoku.pbrain import load_kernels

    load_kernels()
    for rule in rules.RULE_NAMES:
        for size in (15, 20):
            c = size // 2
            board = Board.from_moves([(c, c), (c + 1, c + 1), (c, c + 1), (c + 2, c)], size, rule)
            board.forbidden_points()
            board.moves()
            engine = Engine(rule, size, hash_mb=1, prefault=False)
            engine.search(board, nodes=3000, multipv=2)
            engine.search(board, nodes=3000)
            # the defence check's gate (a pass) and checks: off by default, but an engine
            # number may switch them on
            checked = Engine(
                rule, size, hash_mb=1, prefault=False, params={"DEFENCE_VCT_SHARE": 20}
            )
            checked.search(board, nodes=3000)
            engine.vcf(board, max_nodes=100)
            # a proven root VCT's line is read back with make/undo from Python
            st, tb = state.state_from_board(board, engine.tables)
            state.make(st, tb, int(rules.to_pos(c + 3, c + 3, st.info[state.I_STRIDE])))
            state.undo(st, tb)
            engine.begin()  # stopped before its first iteration: the emergency move's kernels
            engine.stop()
            engine.search(board, movetime=1.0)
            five = Board.from_moves([(c, c), (c, c + 1), (c + 1, c), (c + 1, c + 1)], size, rule)
            five.play_moves([(c + 2, c), (c + 2, c + 1), (c + 3, c)])  # a four to block
            engine.begin()
            engine.stop()
            engine.search(five, movetime=1.0)
            engine.new_game()


def entry_points() -> list[tuple[str, str, Any]]:
    """``(module, function, signature)`` of every kernel compiled from Python calls. The
    kernels are compiled into numba's cache by a process of its own first: loaded from the
    cache, a dispatcher holds only the signatures Python called it with (compiling a caller
    adds its callees' too)."""
    import subprocess

    code = "from plies.gomoku.aot import _exercise; _exercise()"
    subprocess.run([sys.executable, "-c", code], check=True)
    _exercise()
    from numba.core.registry import CPUDispatcher

    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, obj in sorted(vars(module).items()):
            if isinstance(obj, CPUDispatcher) and obj.__module__ == name:
                sigs = list(obj.overloads.values())
                if len(sigs) > 1:
                    raise RuntimeError(f"{name}.{attr}: {len(sigs)} signatures, expected one")
                if sigs:
                    found.append((name, attr, sigs[0].signature))
    return found


def build(out_dir: Path, target_cpu: str = "host") -> Path:
    """Compile the entry points into ``out_dir/_gomoku_kernels*.so``; return its path."""
    import numba.pycc.compiler as pycc_compiler
    from numba.pycc import CC

    from plies.kernel_cache import fingerprint

    class ReleaseGil(pycc_compiler.Flags):  # the exported wrappers release the GIL
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    pycc_compiler.Flags = ReleaseGil  # type: ignore[misc]
    out_dir.mkdir(parents=True, exist_ok=True)
    cc = CC(EXTENSION)
    cc.output_dir = str(out_dir)
    cc.target_cpu = target_cpu
    cc.verbose = False
    points = entry_points()
    for module, function, signature in points:
        dispatcher = getattr(importlib.import_module(module), function)
        cc.export(export_name(module, function), signature)(dispatcher.py_func)
    print("exports:", ", ".join(export_name(m, f) for m, f, _ in points), flush=True)
    cc.compile()
    (out_dir / FINGERPRINT).write_text(fingerprint() + "\n")
    return next(out_dir.glob(EXTENSION + "*.so"))


# --- run time (no numba) --------------------------------------------------------------------


class _Anything(types.ModuleType):
    """A stand-in module whose every attribute is a callable stand-in (``types.void(...)``,
    ``ir.IntType(32)``): used only inside intrinsics' code generators, never run here."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _anything

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _anything


_anything = _Anything("anything")


def _stand_in(kernels: Any) -> types.ModuleType:
    numba = _Anything("numba")
    numba.__path__ = []  # type: ignore[attr-defined]  # a package: numba.core, numba.extending

    def njit(*args: Any, **kwargs: Any) -> Any:
        def wrap(func: Any) -> Any:
            name = export_name(func.__module__, func.__name__)
            compiled = getattr(kernels, name, None)
            if compiled is not None:
                return compiled

            def missing(*args: Any, **kwargs: Any) -> Any:
                # never run the kernel as plain Python: numba's integer semantics differ
                raise RuntimeError(f"kernel {name} was not compiled ahead of time")

            return missing

        if args and callable(args[0]) and not kwargs:
            return wrap(args[0])
        return wrap

    def intrinsic(func: Any) -> Any:
        return func  # only compiled callers use intrinsics; their copies are in the extension

    numba.njit = njit  # type: ignore[attr-defined]
    numba.jit = njit  # type: ignore[attr-defined]
    numba.types = _anything  # type: ignore[attr-defined]
    extending = _Anything("numba.extending")
    extending.intrinsic = intrinsic  # type: ignore[attr-defined]
    return numba, extending


def available(directory: Path | None = None) -> Path | None:
    """The directory holding an extension built from the current kernel sources, or None."""
    from plies.kernel_cache import fingerprint

    where = directory or Path(__file__).resolve().parent
    stamp = where / FINGERPRINT
    try:
        if stamp.read_text().strip() != fingerprint():
            return None
    except OSError:
        return None
    return where if any(where.glob(EXTENSION + "*.so")) else None


def install(directory: Path | None = None) -> bool:
    """Make the kernel modules use the extension in ``directory`` (default: beside this
    file) instead of numba; False (nothing changed) when there is none for these sources or a
    kernel module (or numba) is imported already."""
    where = available(directory)
    if where is None or "numba" in sys.modules or any(m in sys.modules for m in MODULES):
        return False
    sys.path.insert(0, str(where))
    try:
        kernels = importlib.import_module(EXTENSION)
    finally:
        sys.path.remove(str(where))
    numba, extending = _stand_in(kernels)
    sys.modules["numba"] = numba
    sys.modules["numba.core"] = _Anything("numba.core")
    sys.modules["numba.core.cgutils"] = _Anything("numba.core.cgutils")
    sys.modules["numba.extending"] = extending
    llvmlite = _Anything("llvmlite")
    llvmlite.__path__ = []  # type: ignore[attr-defined]
    sys.modules["llvmlite"] = llvmlite
    sys.modules["llvmlite.ir"] = _Anything("llvmlite.ir")
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m plies.gomoku.aot build DIR [--target-cpu CPU]``."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m plies.gomoku.aot", description=__doc__)
    ap.add_argument("command", choices=("build",))
    ap.add_argument("directory", type=Path)
    ap.add_argument("--target-cpu", default="host", help="LLVM CPU name ('' = generic)")
    args = ap.parse_args(argv)
    print(build(args.directory, args.target_cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
