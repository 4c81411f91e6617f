"""Shared helpers for the engine tests."""

from __future__ import annotations

import json
from pathlib import Path

from plies.gomoku import Board, Move, rules
from plies.gomoku.notation import COLUMN_LETTERS

DATA = Path(__file__).resolve().parents[2] / "data"


def board_of(moves, rule: str = "freestyle", size: int = 15) -> Board:
    """A board with the stones ``moves`` ((x, y) pairs) played in turn from black."""
    board = Board(size, rule)
    for x, y in moves:
        board.play(Move(x, y))
    return board


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
    every move is legal (Renju: none forbidden to black), every attacker move makes a four (or
    the five), every defender move is the only block, counter-fours are answered, and it ends
    with a five or with a four whose only block is forbidden to the defender."""
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
            # (Caro: a block may also cap the defender's other five at both ends)
            assert not threats or not five_points(cells, stride, width, height, defender, rule), (
                f"move {i} ignores the defender's four"
            )
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
            if rule == rules.RENJU and color == rules.BLACK:
                assert not rules.is_forbidden(cells, stride, pos), f"defence {i} is forbidden"
            cells[pos] = color
            assert rules.winning_direction(cells, stride, pos, color, rule) < 0
    raise AssertionError("the sequence does not end with a win")


def algebraic(move: Move, size: int = 15) -> str:
    return f"{COLUMN_LETTERS[move.x].upper()}{size - move.y}"


# --- a plain VCF reference (slow and obviously right) ------------------------------------


def new_fives(cells, stride: int, pos: int, color: int, rule: int) -> list[int]:
    """Empty cells on the lines through ``pos`` (within four steps) where ``color`` makes five."""
    out = []
    for k in range(4):
        d = rules.direction(k, stride)
        for j in range(-4, 5):
            q = pos + j * d
            if j and 0 <= q < cells.shape[0] and cells[q] == rules.EMPTY and q not in out:
                if rules.makes_five(cells, stride, q, color, rule):
                    out.append(q)
    return out


def all_fives(cells, stride: int, color: int, rule: int) -> list[int]:
    return [
        q
        for q in range(cells.shape[0])
        if cells[q] == rules.EMPTY and rules.makes_five(cells, stride, q, color, rule)
    ]


def five_stops(cells, stride: int, color: int, rule: int, fives: list[int]) -> list[int]:
    """The cells where one opponent stone leaves ``color`` no five (Caro: it can cap the
    other five's end); the attacker's fours that leave a choice of them do not count."""
    out = []
    for g in fives:
        cells[g] = 3 - color
        if not all_fives(cells, stride, color, rule):
            out.append(g)
        cells[g] = rules.EMPTY
    return out


def reference_vcf(cells, stride: int, rule: int, att: int, depth: int, dfives: list[int]) -> bool:
    """Whether ``att`` (to move) wins by at most ``depth`` fours, each leaving the defender one
    reply: plain recursion over every empty cell with the rules kernels (slow and obviously
    right). ``dfives``: the defender's five points now (the attacker must stop them)."""
    dfn = 3 - att
    if all_fives(cells, stride, att, rule):
        return True
    if depth == 0:
        return False
    allowed = None
    if len(dfives) == 1:
        allowed = dfives
    elif len(dfives) > 1:
        allowed = five_stops(cells, stride, dfn, rule, dfives)
    renju = rule == rules.RENJU
    for p in range(cells.shape[0]):
        if cells[p] != rules.EMPTY or (allowed is not None and p not in allowed):
            continue
        if renju and att == rules.BLACK and rules.is_forbidden(cells, stride, p):
            continue
        cells[p] = att
        fives = new_fives(cells, stride, p, att, rule)
        won = False
        if len(fives) >= 2:
            stops = five_stops(cells, stride, att, rule, all_fives(cells, stride, att, rule))
            if not stops:
                won = True
            elif len(stops) == 1:
                fives = stops
        if len(fives) == 1:
            b = fives[0]
            if renju and dfn == rules.BLACK and rules.is_forbidden(cells, stride, b):
                won = True
            elif not rules.makes_five(cells, stride, b, dfn, rule):
                cells[b] = dfn
                counter = new_fives(cells, stride, b, dfn, rule)
                won = reference_vcf(cells, stride, rule, att, depth - 1, counter)
                cells[b] = rules.EMPTY
        cells[p] = rules.EMPTY
        if won:
            return True
    return False
