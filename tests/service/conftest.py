"""A real ``plies serve`` application on a free local port (uvicorn in a thread), and an HTTP
client for it."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is missing")
uvicorn = pytest.importorskip("uvicorn", reason="the serve extra (uvicorn) is missing")
httpx = pytest.importorskip("httpx", reason="httpx is missing")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A server running ``app`` on 127.0.0.1 in a thread, with ``client`` (httpx) bound to it."""

    def __init__(self, app) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        self.client = httpx.Client(base_url=self.url, timeout=600)  # a cold numba cache compiles

    def wait(self, job_id: str, timeout: float = 600) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            job = self.client.get(f"/api/reviews/{job_id}").json()
            if job["status"] in ("done", "failed") or time.monotonic() > deadline:
                return job
            time.sleep(0.1)

    def close(self) -> None:
        self.client.close()
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def serve(tmp_path) -> Iterator:
    """``serve(**settings)`` starts a server on a fresh store (closed after the test)."""
    from plies.service.app import Settings, create_app

    started: list[Served] = []

    def start(**kw) -> Served:
        kw.setdefault("db", tmp_path / "serve.sqlite")
        served = Served(create_app(Settings(**kw)))
        started.append(served)
        return served

    yield start
    for served in started:
        served.close()
