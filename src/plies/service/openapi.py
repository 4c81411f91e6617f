"""The OpenAPI 3.1 description of the service (served at ``/api/openapi.json``; docs/serve.md
says the same in prose)."""

from __future__ import annotations

from typing import Any

_ERROR = {
    "description": "an error",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {"error": {"type": "string"}},
                "required": ["error"],
            }
        }
    },
}

_BUDGET = {
    "oneOf": [
        {"type": "object", "properties": {"tier": {"enum": ["quick", "standard", "deep"]}}},
        {"type": "object", "properties": {"nodes": {"type": "integer", "minimum": 1}}},
        {"type": "object", "properties": {"movetime": {"type": "number", "exclusiveMinimum": 0}}},
        {"type": "object", "properties": {"depth": {"type": "integer", "minimum": 1}}},
        {"type": "string", "description": "a tier name"},
    ]
}

_REVIEW_REQUEST = {
    "type": "object",
    "required": ["game"],
    "properties": {
        "game": {"type": "string", "description": "psq, SGF, a move list or a PGN"},
        "rule": {"enum": ["freestyle", "standard", "renju", "caro", "caro5"]},
        "size": {"type": ["string", "integer"], "description": "15, 19, 20 or WxH"},
        "budget": _BUDGET,
        "lang": {"enum": ["en", "vi"]},
        "match_id": {"type": "string"},
        "pgn_game": {"type": "integer", "minimum": 1},
    },
}

_JOB = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "status": {"enum": ["queued", "running", "done", "failed"]},
        "progress": {
            "type": "object",
            "properties": {"done": {"type": "integer"}, "total": {"type": "integer"}},
        },
        "review": {"description": "the review JSON of plies analyze --json (docs/review.md)"},
        "error": {"type": "string"},
    },
}

_MOVE_REQUEST = {
    "type": "object",
    "properties": {
        "game": {"enum": ["gomoku", "chess"]},
        "rule": {"type": "string"},
        "size": {"type": ["string", "integer"]},
        "moves": {"type": ["string", "array"], "items": {"type": "string"}},
        "fen": {"type": "string"},
        "level": {"type": "integer", "minimum": 1},
        "movetime": {"type": "number"},
        "nodes": {"type": "integer"},
        "seed": {"type": "integer"},
    },
}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def openapi(version: str) -> dict[str, Any]:
    job_id = [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}]
    errors = {"400": _ERROR, "401": _ERROR, "413": _ERROR}
    return {
        "openapi": "3.1.0",
        "info": {"title": "plies serve", "version": version,
                 "description": "Game review and play over HTTP (docs/serve.md)."},
        "paths": {
            "/api/reviews": {
                "post": {"summary": "Queue a review (the same game and budget: the same job)",
                         "requestBody": _body(_REVIEW_REQUEST),
                         "responses": {"202": _json(_JOB, "queued or running"),
                                       "200": _json(_JOB, "already done"), **errors,
                                       "429": _ERROR}},
                "get": {"summary": "Reviews of a match (?match_id=) or the latest",
                        "parameters": [{"name": "match_id", "in": "query",
                                        "schema": {"type": "string"}}],
                        "responses": {"200": _json({"type": "object"})}},
            },
            "/api/reviews/{id}": {"get": {"summary": "A review job and, when done, its review",
                                          "parameters": job_id,
                                          "responses": {"200": _json(_JOB), "404": _ERROR}}},
            "/api/reviews/{id}.html": {"get": {"summary": "The HTML report", "parameters": job_id,
                                               "responses": {"200": {"description": "HTML"},
                                                             "404": _ERROR, "409": _ERROR}}},
            "/api/reviews/{id}/events": {"get": {
                "summary": "Progress as server-sent events (progress, then end)",
                "parameters": job_id,
                "responses": {"200": {"description": "text/event-stream"}}}},
            "/api/move": {"post": {"summary": "The engine's move, evaluation and line",
                                   "requestBody": _body(_MOVE_REQUEST),
                                   "responses": {"200": _json({"type": "object"}), **errors}}},
            "/api/position": {"post": {"summary": "A position's state (turn, result, forbidden "
                                                  "points, chess legal moves)",
                                       "requestBody": _body(_MOVE_REQUEST),
                                       "responses": {"200": _json({"type": "object"}),
                                                     "400": _ERROR}}},
            "/api/health": {"get": {"summary": "200 once ready",
                                    "responses": {"200": _json({"type": "object"})}}},
            "/api/metrics": {"get": {"summary": "Queue, jobs, cache hit rate",
                                     "responses": {"200": _json({"type": "object"})}}},
        },
    }  # fmt: skip
