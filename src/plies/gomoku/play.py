"""``plies play``: a game in the terminal, human against engine or engine against engine."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from plies.errors import InvalidMove
from plies.gomoku.board import Board
from plies.gomoku.engine import Engine, SearchResult
from plies.gomoku.levels import level_move
from plies.gomoku.notation import Move, parse_moves

HELP = (
    "moves: h8 or 7,7   commands: undo (take back your last move), hint, pass the turn to the "
    "engine with 'go', quit"
)


@dataclass
class PlayLimits:
    """How long the engine thinks per move."""

    movetime: float | None = 1.0
    depth: int | None = None
    nodes: int | None = None
    level: int | None = None  # a playing level (plies.search.levels) instead of the limits
    seed: int | None = None  # the level's choices, repeatable


def engine_line(board: Board, result: SearchResult) -> str:
    """One line describing an engine move: move, score, depth, nodes, PV."""
    pv = " ".join(m.algebraic(board.height) for m in result.pv[:8])
    if result.book:
        return (
            f"{result.move.algebraic(board.height) if result.move else '-'}  book move "
            f"(score {result.score_text}, depth {result.depth})"
        )
    return (
        f"{result.move.algebraic(board.height) if result.move else '-'}  "
        f"score {result.score_text} ({result.win_probability:.0%})  depth {result.depth}/"
        f"{result.seldepth}  {result.nodes} nodes  {result.nps} nodes/s  {result.time:.2f} s  "
        f"pv {pv}"
    )


def play_game(
    board: Board,
    engine: Engine,
    engine_colors: set[int],
    limits: PlayLimits,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    show: Callable[[Board], None],
) -> Board:
    """Play until the game ends or the human quits; returns the final board.

    ``engine_colors`` holds the colours the engine plays (1 black, 2 white); ``ask`` reads a
    human's line, ``say`` prints a line, ``show`` prints the board.
    """
    rng = random.Random(limits.seed)
    show(board)
    while not board.is_over:
        if board.to_move in engine_colors and limits.level is not None:
            chosen = level_move(engine, board, limits.level, rng)
            board.play(chosen.move)
            say(f"{chosen.move.algebraic(board.height)}  (level {limits.level})")
            show(board)
            continue
        if board.to_move in engine_colors:
            result = engine.search(
                board, depth=limits.depth, nodes=limits.nodes, movetime=limits.movetime
            )
            board.play(result.move)
            say(engine_line(board, result))
            show(board)
            continue
        text = ask("your move: ").strip().lower()
        if text in ("quit", "exit", "q"):
            break
        if text in ("help", "?"):
            say(HELP)
            continue
        if text == "undo":
            # take back the engine's reply and the human's move
            taken = [
                board.undo().algebraic(board.height)
                for _ in range(min(len(board), 2 if engine_colors else 1))
            ]
            if not taken:
                say("nothing to take back")
                continue
            say(f"took back {' and '.join(taken)}")
            show(board)
            continue
        if text == "hint":
            result = engine.search(board, movetime=limits.movetime or 1.0)
            say("hint: " + engine_line(board, result))
            continue
        if text == "go":
            engine_colors = engine_colors | {board.to_move}
            continue
        try:
            move: Move = board.play(text)
        except InvalidMove as exc:
            say(f"error: {exc}")
            continue
        say(f"you played {move.algebraic(board.height)}")
        show(board)
    return board


SWAP_HELP = {
    "opening": "place three stones, black, white, black (e.g. 'h8 h9 i10')",
    "three": "'swap' to take black, or your white move (e.g. 'i9')",
    "three2": "'swap' to take black, your white move (e.g. 'i9'), or a white and a black stone "
    "to add ('i9 g7'): then the other player chooses the colour",
    "five": "'black' to keep black, or your white move (e.g. 'j9') to take white",
}


def swap_opening(
    board: Board,
    engine: Engine,
    mode: str,
    engine_roles: set[str],
    limits: PlayLimits,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    show: Callable[[Board], None],
) -> set[int] | None:
    """Play a swap opening (``swap1`` or ``swap2``, :mod:`plies.gomoku.swap`) on the empty
    ``board``; return the colours the engine plays afterwards (None: the human quit).

    ``engine_roles`` holds the roles the engine takes: ``first`` (the opener, who places three
    stones) and/or ``second`` (who chooses after them). The engine decides with the shared
    swap code; a person types the stones or the choice."""
    from plies.gomoku import swap

    book, engine.book = engine.book, None  # swap choices are judged by search

    def search(b: Board, multipv: int) -> SearchResult:
        return engine.search(
            b, depth=limits.depth, nodes=limits.nodes, movetime=limits.movetime or 1.0,
            multipv=multipv,
        )  # fmt: skip

    def human(prompt: str, help_key: str, count: tuple[int, ...], words: tuple[str, ...]):
        while True:
            text = ask(prompt).strip().lower()
            if text in ("quit", "exit", "q"):
                return None
            if text in words:
                return text
            try:
                moves = parse_moves(text, board.width, board.height)
            except InvalidMove as exc:
                say(f"error: {exc}")
                continue
            if len(moves) not in count:
                say(f"expected: {SWAP_HELP[help_key]}")
                continue
            trial = board.copy()
            try:
                trial.play_moves(moves)
            except InvalidMove as exc:
                say(f"error: {exc}")
                continue
            return moves

    try:
        # the opener's three stones
        if "first" in engine_roles:
            stones = swap.propose_opening(board, search)
            say("engine opens with " + " ".join(m.algebraic(board.height) for m in stones))
        else:
            say(f"{mode}: you open: {SWAP_HELP['opening']}")
            stones = human("opening: ", "opening", (3,), ())
            if stones is None:
                return None
        board.play_moves(stones)
        show(board)
        roles = {1: "first", 2: "second"}  # colour -> role, until someone swaps
        # the second player's choice
        if "second" in engine_roles:
            decision = swap.answer_three(board, search, mode)
        else:
            key = "three2" if mode == "swap2" else "three"
            say(f"your choice: {SWAP_HELP[key]}")
            got = human("choice: ", key, (1, 2) if mode == "swap2" else (1,), ("swap",))
            if got is None:
                return None
            decision = (
                swap.Decision("swap") if got == "swap"
                else swap.Decision("play" if len(got) == 1 else "add", tuple(got))
            )  # fmt: skip
        who = "engine" if "second" in engine_roles else "you"
        if decision.kind == "swap":
            roles = {1: "second", 2: "first"}
            say(f"{who}: swap (the second player takes black)")
        elif decision.kind == "play":
            board.play(decision.moves[0])
            say(f"{who}: stays white, plays {decision.moves[0].algebraic(board.height)}")
        else:
            board.play_moves(decision.moves)
            say(f"{who}: adds " + " ".join(m.algebraic(board.height) for m in decision.moves))
            show(board)
            # the opener chooses the colour after five stones
            if "first" in engine_roles:
                final = swap.answer_five(board, search)
            else:
                say(f"your choice: {SWAP_HELP['five']}")
                got = human("choice: ", "five", (1,), ("black",))
                if got is None:
                    return None
                if got == "black":
                    final = swap.Decision("swap")
                else:
                    final = swap.Decision("play", tuple(got))
            who = "engine" if "first" in engine_roles else "you"
            if final.kind == "play":
                roles = {1: "second", 2: "first"}
                board.play(final.moves[0])
                say(f"{who}: takes white, plays {final.moves[0].algebraic(board.height)}")
            else:
                say(f"{who}: keeps black")
        show(board)
        return {c for c, role in roles.items() if role in engine_roles}
    finally:
        engine.book = book
