"""Shared helpers for the engine tests."""

from __future__ import annotations

import json
from pathlib import Path

from plies.gomoku import Move, rules
from plies.gomoku.notation import COLUMN_LETTERS

DATA = Path(__file__).resolve().parents[2] / "data"


def quintet_problems() -> list[dict]:
    """The 15 Renju mate problems of renju-note/quintet (MIT), see tests/data/quintet."""
    lines = (DATA / "quintet" / "quintet_mate_tests.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def problem_stones(problem: dict) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    """(black, white, side) with top-origin (x, y) cells; quintet's y counts from the bottom."""
    size = problem["size"]
    black = [(x, size - 1 - y) for x, y in problem["black"]]
    white = [(x, size - 1 - y) for x, y in problem["white"]]
    side = 1 if problem["side_to_move"] == "black" else 2
    return black, white, side


def five_points(cells, stride: int, width: int, height: int, color: int, rule: int) -> set[int]:
    """Empty cells where ``color`` would make a winning line (rules kernels, not the engine)."""
    out = set()
    for y in range(height):
        for x in range(width):
            p = int(rules.to_pos(x, y, stride))
            if cells[p] == rules.EMPTY and rules.makes_five(cells, stride, p, color, rule):
                out.add(p)
    return out


def verify_vcf(cells, width: int, height: int, rule: int, attacker: int, seq: list[int]) -> None:
    """Replay a VCF sequence (padded cell indices) with the rules kernels and assert it wins:
    every attacker move is legal and makes a four (or the five), every defender move is the only
    block, counter-fours are answered, and it ends with a five or with a four whose only block
    is forbidden to the defender."""
    cells = cells.copy()
    stride = rules.padded_stride(width)
    defender = 3 - attacker
    assert seq, "empty sequence"
    for i, pos in enumerate(seq):
        color = attacker if i % 2 == 0 else defender
        assert cells[pos] == rules.EMPTY, f"move {i} on an occupied cell"
        if color == attacker:
            threats = five_points(cells, stride, width, height, defender, rule)
            if rule == rules.RENJU and color == rules.BLACK:
                assert not rules.is_forbidden(cells, stride, pos), f"move {i} is forbidden"
            cells[pos] = color
            if rules.winning_direction(cells, stride, pos, color, rule) >= 0:
                assert i == len(seq) - 1, "the five must end the sequence"
                return
            assert threats <= {pos}, f"move {i} ignores the defender's four"
            fives = five_points(cells, stride, width, height, attacker, rule)
            assert fives, f"move {i} is not a four"
            if i == len(seq) - 1:
                blockable = [
                    q
                    for q in fives
                    if not (
                        rule == rules.RENJU
                        and defender == rules.BLACK
                        and rules.is_forbidden(cells, stride, q)
                    )
                ]
                assert len(fives) >= 2 or not blockable, "the last four can be blocked"
                return
        else:
            fives = five_points(cells, stride, width, height, attacker, rule)
            assert pos in fives, f"defence {i} is not a block"
            cells[pos] = color
            assert rules.winning_direction(cells, stride, pos, color, rule) < 0
    raise AssertionError("the sequence does not end with a win")


def algebraic(move: Move, size: int = 15) -> str:
    return f"{COLUMN_LETTERS[move.x].upper()}{size - move.y}"
