"""The ASGI application of ``plies serve`` (Starlette): routes, limits, the token, progress as
server-sent events, the browser board's static files. Handlers stay thin: they check the
request (:mod:`.inputs`, :mod:`.play`), call the store or the engines, and answer JSON.

Errors: bad input 400 ``{"error": "<the CLI's one-line message>"}``, a request over the limits
413, a full queue 429 with ``Retry-After``, a write without the token 401, an unknown job 404.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
import traceback
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from plies import __version__
from plies.errors import PliesError
from plies.service.inputs import TIERS, Limits, TooLarge, parse_review
from plies.service.jobs import JobRunner
from plies.service.openapi import openapi
from plies.service.play import Engines, engine_move, position
from plies.service.store import JobStore, QueueFull

WEB = Path(__file__).parent / "web"
TOKEN_ENV = "PLIES_SERVE_TOKEN"


@dataclass
class Settings:
    """How the service runs: the database, analysis workers per review, the token required
    for writes (None: none), the limits, the queue's size (unfinished jobs) and the interval
    of the progress events."""

    db: str | Path
    workers: int = 1
    token: str | None = None
    limits: Limits = field(default_factory=Limits)
    max_queue: int = 100
    sse_interval: float = 0.25
    start_runner: bool = True  # False: jobs are accepted and stay queued (tests of the queue)
    backend: str = "local"  # or "ray": the positions of each review on Ray actors
    ray_address: str | None = None


class HTTPError(Exception):
    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def create_app(settings: Settings) -> Starlette:
    """The application; the job store opens (and interrupted jobs are queued again) and the job
    runner starts when the server starts it (ASGI lifespan)."""
    state: dict[str, Any] = {"engines": Engines(), "started": time.time(), "moves": 0}

    @asynccontextmanager
    async def lifespan(app: Starlette):
        store = JobStore(settings.db)
        state["recovered"] = store.recover()
        runner = JobRunner(
            store, workers=settings.workers, backend=settings.backend,
            ray_address=settings.ray_address,
        )  # fmt: skip
        state["store"], state["runner"] = store, runner
        with ExitStack() as stack:
            if settings.backend == "ray":  # Ray is started (or joined) once, here
                from plies.ray_session import ray_session

                stack.enter_context(ray_session(settings.ray_address, settings.workers))
            if settings.start_runner:
                runner.start()
            try:
                yield
            finally:
                runner.stop()
                if runner.is_alive():
                    runner.join(timeout=2)  # a review under way stays "running": resumed
                if not runner.is_alive():
                    store.close()

    def store() -> JobStore:
        return state["store"]

    async def read_json(request: Request, write: bool = True) -> Any:
        """The body as JSON, at most ``max_body`` bytes; for a write, the token checked first."""
        if write and settings.token is not None:
            given = request.headers.get("authorization", "")
            given = given[7:] if given.lower().startswith("bearer ") else ""
            given = given or request.headers.get("x-plies-token", "")
            if not hmac.compare_digest(given.encode(), settings.token.encode()):
                raise HTTPError(401, "this server needs its API token for writes")
        limit = settings.limits.max_body
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise TooLarge(f"the body is over {limit} bytes")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise TooLarge(f"the body is over {limit} bytes")
            chunks.append(chunk)
        try:
            return json.loads(b"".join(chunks) or b"null")
        except ValueError as exc:
            raise HTTPError(400, f"the body is not JSON: {exc}") from None

    def guarded(handler):
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except HTTPError as exc:
                return _error(exc.status, exc.message, exc.headers)
            except TooLarge as exc:
                return _error(413, " ".join(str(exc).split()))
            except QueueFull as exc:
                return _error(429, str(exc), {"Retry-After": str(exc.retry_after)})
            except PliesError as exc:
                return _error(400, " ".join(str(exc).split()))
            except Exception as exc:  # a defect: say so in JSON, log it, keep serving
                traceback.print_exc()
                return _error(500, f"internal error: {type(exc).__name__}: {exc}")

        return endpoint

    # --- reviews ---------------------------------------------------------------------------
    async def submit(request: Request) -> Response:
        body = await read_json(request)
        spec = await run_in_threadpool(parse_review, body, settings.limits)
        match_id = body.get("match_id")
        if match_id is not None and (
            not isinstance(match_id, str | int) or len(str(match_id)) > 200
        ):
            raise HTTPError(400, "match_id must be a string of at most 200 characters")
        runner: JobRunner = state["runner"]
        counts = store().counts()
        job, created = store().submit(
            spec.job_id, spec.kind, spec.to_dict(), spec.positions,
            match_id=None if match_id is None else str(match_id),
            max_active=settings.max_queue,
            retry_after=runner.retry_after(counts["queued"] + counts["running"]),
        )  # fmt: skip
        if created:
            runner.wake()
        job = {k: v for k, v in job.items() if k not in ("review",)}
        job["links"] = _links(job["id"])
        return JSONResponse(job, status_code=202 if job["status"] != "done" else 200)

    async def get_review(request: Request) -> Response:
        job = store().get(request.path_params["id"])
        if job is None:
            raise HTTPError(404, f"no review {request.path_params['id']!r}")
        job["links"] = _links(job["id"])
        if "review" in job:
            job["board"] = await run_in_threadpool(_board_extras, job["review"])
        return JSONResponse(job)

    async def list_reviews(request: Request) -> Response:
        match_id = request.query_params.get("match_id")
        jobs = store().by_match(match_id) if match_id else store().recent()
        return JSONResponse({"reviews": jobs})

    async def review_html(request: Request) -> Response:
        from plies.analysis.report.html import render_html
        from plies.analysis.review import Review

        job_id = request.path_params["id"]
        data = store().review(job_id)
        if data is None:
            status = store().status(job_id)
            if status is None:
                raise HTTPError(404, f"no review {job_id!r}")
            raise HTTPError(409, f"review {job_id} is {status[0]}, not done")
        return HTMLResponse(render_html(Review.from_dict(data)))

    async def events(request: Request) -> Response:
        job_id = request.path_params["id"]
        if store().status(job_id) is None:
            raise HTTPError(404, f"no review {job_id!r}")

        async def stream():
            last = None
            while True:
                status, done, total, error = store().status(job_id) or ("failed", 0, 0, "gone")
                now = {"status": status, "done": done, "total": total}
                if error:
                    now["error"] = error
                if now != last:
                    kind = "end" if status in ("done", "failed") else "progress"
                    yield f"event: {kind}\ndata: {json.dumps(now)}\n\n"
                    last = now
                    if kind == "end":
                        return
                if await request.is_disconnected():
                    return
                await asyncio.sleep(settings.sse_interval)

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    # --- play -------------------------------------------------------------------------------
    async def move(request: Request) -> Response:
        body = await read_json(request)
        limits = settings.limits
        answer = await run_in_threadpool(
            engine_move, body, state["engines"], limits.max_nodes, limits.max_movetime
        )
        state["moves"] += 1
        return JSONResponse(answer)

    async def position_state(request: Request) -> Response:
        body = await read_json(request, write=False)  # a read that carries a body
        return JSONResponse(await run_in_threadpool(position, body))

    # --- service ----------------------------------------------------------------------------
    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "version": __version__})

    async def metrics(request: Request) -> Response:
        runner: JobRunner = state["runner"]
        counts = store().counts()
        looked = runner.cache_hits + runner.cache_misses
        return JSONResponse(
            {
                "queue_length": counts["queued"],
                "running": counts["running"],
                "jobs_done": counts["done"],
                "jobs_failed": counts["failed"],
                "positions_analysed": runner.positions_done,
                "cache_hits": runner.cache_hits,
                "cache_misses": runner.cache_misses,
                "cache_hit_rate": round(runner.cache_hits / looked, 4) if looked else None,
                "moves_answered": state["moves"],
                "recovered_at_start": state.get("recovered", 0),
                "uptime_seconds": round(time.time() - state["started"], 1),
                "workers": settings.workers,
                "max_queue": settings.max_queue,
                "tiers": TIERS,
            }
        )

    async def openapi_json(request: Request) -> Response:
        return JSONResponse(openapi(__version__))

    async def index(request: Request) -> Response:
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    routes = [
        Route("/", index),
        Route("/api/health", guarded(health)),
        Route("/api/metrics", guarded(metrics)),
        Route("/api/openapi.json", guarded(openapi_json)),
        Route("/api/reviews", guarded(submit), methods=["POST"]),
        Route("/api/reviews", guarded(list_reviews), methods=["GET"]),
        Route("/api/reviews/{id}.html", guarded(review_html)),
        Route("/api/reviews/{id}/events", guarded(events)),
        Route("/api/reviews/{id}", guarded(get_review)),
        Route("/api/move", guarded(move), methods=["POST"]),
        Route("/api/position", guarded(position_state), methods=["POST"]),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _board_extras(review: dict[str, Any]) -> dict[str, Any]:
    """What the browser board draws beside the review: the class names in the review's
    language and their colours (the HTML report's), and for chess the squares of each move's
    best line."""
    from plies.analysis.i18n import messages
    from plies.analysis.report.html import COLOURS
    from plies.analysis.review import CLASSIFICATIONS, Review

    t = messages(review.get("language", "en"))
    extras: dict[str, Any] = {
        "labels": {c: t["cls_" + c] for c in CLASSIFICATIONS},
        "colours": COLOURS,
    }
    if review["game"].get("game") == "chess":
        from plies.analysis.report.chessboard import best_line_arrows

        extras["best_line_squares"] = best_line_arrows(Review.from_dict(review))
    return extras


def _links(job_id: str) -> dict[str, str]:
    base = f"/api/reviews/{job_id}"
    return {
        "self": base,
        "html": f"{base}.html",
        "events": f"{base}/events",
        "board": f"/#review={job_id}",
    }
