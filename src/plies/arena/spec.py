"""Engine specifications: ``plies:gomoku?depth=3 name=A tc=10+0.1`` or
``cmd=/path/to/engine proto=pbrain option.max_node=1000``.

A spec is one string of space-separated tokens (quote a token with spaces, shell style).
The first token may be a built-in engine ``plies:NAME?key=value&key=value``; the others are
``key=value`` settings: ``name``, ``cmd``, ``proto`` (``pbrain`` or ``uci``; default by game),
``dir`` (working directory), ``tc``, ``st``, ``timemargin``, ``startup`` (this engine's time
control), ``depth`` and ``nodes`` (per-move limits), ``maxmemory`` (bytes, pbrain),
``timeout`` (seconds to start up, default 30) and ``option.NAME=VALUE`` (UCI ``setoption`` /
pbrain ``INFO``).
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

from plies.arena.engines.base import Player
from plies.arena.timecontrol import TimeControl, parse_tc
from plies.errors import InvalidOption

PROTOCOLS = ("pbrain", "uci")
_KEYS = (
    "name", "cmd", "proto", "dir", "tc", "st", "timemargin", "startup", "depth", "nodes",
    "maxmemory", "timeout",
)  # fmt: skip


@dataclass(frozen=True)
class EngineSpec:
    """A parsed engine spec: plain data, so it can travel to worker processes."""

    text: str
    name: str
    builtin: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    argv: tuple[str, ...] = ()
    proto: str | None = None
    cwd: str | None = None
    protocol_options: dict[str, str] = field(default_factory=dict)
    tc: TimeControl | None = None
    depth: int | None = None
    nodes: int | None = None
    max_memory: int = 0
    start_timeout: float = 30.0

    @property
    def is_process(self) -> bool:
        return self.builtin is None

    def with_name(self, name: str) -> EngineSpec:
        from dataclasses import replace

        return replace(self, name=name)

    def with_proto(self, proto: str) -> EngineSpec:
        from dataclasses import replace

        return replace(self, proto=proto)

    def create(self) -> Player:
        """A new player for this spec (in the calling process)."""
        if self.builtin is not None:
            from plies.arena.engines.registry import engine_factory

            options = dict(self.options)
            if self.depth is not None:
                options.setdefault("depth", str(self.depth))
            if self.nodes is not None:
                options.setdefault("nodes", str(self.nodes))
            return engine_factory(self.builtin)(options, self.name)
        if self.proto == "uci":
            from plies.arena.engines.uci import UciPlayer

            return UciPlayer(
                list(self.argv), self.name, self.cwd, self.protocol_options, self.start_timeout
            )
        from plies.arena.engines.pbrain import PbrainPlayer

        options = dict(self.protocol_options)
        if self.depth is not None:
            options.setdefault("max_depth", str(self.depth))
        if self.nodes is not None:
            options.setdefault("max_node", str(self.nodes))
        return PbrainPlayer(
            list(self.argv), self.name, self.cwd, options, self.max_memory, self.start_timeout
        )


def _number(key: str, value: str, kind: type = int) -> int | float:
    try:
        n = kind(value)
    except ValueError:
        raise InvalidOption(f"engine option {key} must be a number, not {value!r}") from None
    if n <= 0 and key != "maxmemory":
        raise InvalidOption(f"engine option {key} must be positive, not {value}")
    return n


def check_command(spec: EngineSpec) -> None:
    """For a ``cmd=`` engine, raise InvalidOption naming the program unless it exists and is
    executable (a path), or is found on the PATH (a bare name); built-in engines pass."""
    if not spec.argv:
        return
    program = spec.argv[0]
    if os.sep not in program and "/" not in program:
        if shutil.which(program) is None:
            raise InvalidOption(f"engine {spec.name}: no program {program!r} on the PATH")
        return
    if not os.path.exists(program):
        raise InvalidOption(f"engine {spec.name}: no such file {program!r}")
    if os.path.isdir(program) or not os.access(program, os.X_OK):
        raise InvalidOption(f"engine {spec.name}: {program!r} is not an executable file")


def parse_engine_spec(text: str) -> EngineSpec:
    """Parse an engine spec (see the module docstring); InvalidOption on any mistake."""
    try:
        tokens = shlex.split(text)
    except ValueError as exc:
        raise InvalidOption(f"cannot read engine spec {text!r}: {exc}") from None
    if not tokens:
        raise InvalidOption("empty engine spec")
    builtin = None
    options: dict[str, str] = {}
    if tokens[0].startswith("plies:"):
        head = tokens.pop(0)[len("plies:") :]
        builtin, _, query = head.partition("?")
        if not builtin:
            raise InvalidOption(f"engine spec {text!r}: missing the engine name after plies:")
        try:
            pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
        except ValueError:
            raise InvalidOption(
                f"engine spec {text!r}: cannot read options {query!r}: expected key=value&..."
            ) from None
        for key, value in pairs:
            if not value:
                raise InvalidOption(f"engine spec {text!r}: option {key} has no value")
            options[key] = value
    settings: dict[str, str] = {}
    protocol_options: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise InvalidOption(f"engine spec {text!r}: expected key=value, not {token!r}")
        if key.startswith("option."):
            if builtin is not None:
                raise InvalidOption(f"engine spec {text!r}: option.X is for cmd= engines")
            protocol_options[key[len("option.") :]] = value
        elif key in _KEYS:
            settings[key] = value
        else:
            raise InvalidOption(
                f"engine spec {text!r}: unknown setting {key!r}: expected one of "
                f"{', '.join(_KEYS)} or option.NAME"
            )
    if builtin is None and "cmd" not in settings:
        raise InvalidOption(
            f"engine spec {text!r}: expected plies:NAME?options or cmd=/path/to/engine"
        )
    if builtin is not None and ("cmd" in settings or "proto" in settings):
        raise InvalidOption(f"engine spec {text!r}: cmd= and proto= are for process engines")
    argv: tuple[str, ...] = ()
    if builtin is None:
        argv = tuple(shlex.split(settings["cmd"]))
        if not argv:
            raise InvalidOption(f"engine spec {text!r}: cmd= is empty")
        if "/" in argv[0]:
            argv = (os.path.abspath(argv[0]), *argv[1:])
    proto = settings.get("proto")
    if proto is not None and proto not in PROTOCOLS:
        raise InvalidOption(
            f"engine spec {text!r}: unknown proto {proto!r}: expected pbrain or uci"
        )
    tc = None
    if any(k in settings for k in ("tc", "st", "timemargin", "startup")):
        tc = parse_tc(
            settings.get("tc"),
            _number("st", settings["st"], float) if "st" in settings else None,
            float(settings["timemargin"]) if "timemargin" in settings else None,
            _number("startup", settings["startup"], float) if "startup" in settings else None,
        )
    if builtin is not None:
        default_name = builtin + (
            f"({query.replace('&', ',')})" if (query := head.partition("?")[2]) else ""
        )
    else:
        default_name = os.path.basename(argv[0])
    return EngineSpec(
        text=text,
        name=settings.get("name") or default_name,
        builtin=builtin,
        options=options,
        argv=argv,
        proto=proto,
        cwd=settings.get("dir"),
        protocol_options=protocol_options,
        tc=tc,
        depth=int(_number("depth", settings["depth"])) if "depth" in settings else None,
        nodes=int(_number("nodes", settings["nodes"])) if "nodes" in settings else None,
        max_memory=int(_number("maxmemory", settings["maxmemory"]))
        if "maxmemory" in settings
        else 0,
        start_timeout=float(_number("timeout", settings["timeout"], float))
        if "timeout" in settings
        else 30.0,
    )
