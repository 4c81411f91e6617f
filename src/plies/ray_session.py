"""One way to reach Ray for every part of plies that runs work on it (the arena's games, the
review's positions): connect to the cluster at ``address``, or start a local instance with
``num_cpus`` workers, and stop it afterwards only if it was started here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from plies.errors import InvalidOption

_shutdown_hooks: list[Callable[[], None]] = []


def on_shutdown(hook: Callable[[], None]) -> None:
    """Call ``hook`` before the Ray instance started here shuts down (once per hook: e.g. to
    forget actors kept for reuse)."""
    if hook not in _shutdown_hooks:
        _shutdown_hooks.append(hook)


def import_ray() -> Any:
    """The ``ray`` module, or InvalidOption saying how to install it."""
    try:
        import ray
    except ImportError:
        raise InvalidOption("--backend ray needs Ray: pip install ray") from None
    return ray


@contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None) -> Iterator[Any]:
    """Ray, initialised for the block (reused if already initialised)."""
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"address": address} if address else {"num_cpus": num_cpus}
        ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR", **kwargs)
        started = True
    try:
        yield ray
    finally:
        if started:
            for hook in _shutdown_hooks:
                hook()
            ray.shutdown()
