"""Game review for chess: positions analysed by the plies chess engine, moves judged with exact
chess facts (mates, static exchange evaluation) and explained in the player's language.

Every position of the game (before each move, and the final one) is analysed once: a MultiPV
search, the mates in one of the side to move (brute force, exact), its captures that win
material by static exchange evaluation (the engine's SEE kernel), and the best capture the
opponent would have if the side to move passed (the threat it has to meet). A move is then
judged from the analyses before and after it with the game-agnostic machinery of
:mod:`plies.analysis.review` (see the chess section of docs/review.md for the rules).

Win probability is the engine's documented sigmoid
(:func:`plies.chess.engine.api.win_probability`): ``1 / (1 + exp(-cp / 250))`` for the side to
move, mates 1 and 0 (lichess uses ``1 / (1 + exp(-0.00368208 cp))``, a scale of about 272).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import numpy as np

from plies.analysis import session
from plies.analysis.i18n import Translator, translator
from plies.analysis.report import move_number
from plies.analysis.review import (
    BAD_CLASSES,
    DEFAULT_THRESHOLDS,
    Budget,
    MoveReview,
    PositionEval,
    Review,
    Thresholds,
    analyse_positions,
    summarise,
    worse,
)
from plies.analysis.scoring import (
    CONFIRM_FACTOR,
    Proof,
    Value,
    ValueRules,
    better_note,
    equal_note,
    move_review,
    noise_band,
    proof_from_lines,
    score_from_values,
    search_position,
    settle_many,
    settle_values,
    sides,
)
from plies.errors import InvalidOption, InvalidRecord

ANALYSIS_VERSION = "chess-2"
# How far a search of so many nodes is from a deeper one (10 times the nodes), in win
# probability: the 90th percentile of the absolute difference over 40 positions of self-play
# games from the balanced openings (MultiPV 3, fresh tables; benchmarks/review_noise.py
# --game chess, docs/review.md "Search noise"). Far below Gomoku's: chess values at these
# budgets move little with depth. Two moves judged by two such searches differ by up to
# sqrt(2) times it from noise alone (search_noise).
NOISE_P90 = (
    (10000, 0.0339),
    (30000, 0.0290),
    (100000, 0.0380),
)
PLAYERS = ("white", "black")
# material thresholds (centipawns, the engine's SEE values: pawn 100, knight 320, bishop 330,
# rook 500, queen 950)
MATERIAL_GAIN = 200  # a capture that wins at least this much is "winning material"
MATERIAL_MARGIN = 100  # a hanging piece must lose this much more than the threat before
PIECE_KEYS = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen", 6: "king"}
PIECE_VALUES = {"pawn": 100, "knight": 320, "bishop": 330, "rook": 500, "queen": 950, "king": 0}


def _mate_bound() -> int:
    from plies.chess.engine import search as S

    return S.MATE_BOUND


def _mate_score() -> int:
    from plies.chess.engine import search as S

    return S.MATE


@dataclass(frozen=True)
class ChessJob:
    """One position to analyse: the starting FEN, the moves (UCI) leading to it, and whether
    the game is Chess960 (castling rights by rook file, castling moves king-takes-rook)."""

    fen: str
    moves: tuple[str, ...]
    chess960: bool = False

    def board(self) -> chess.Board:
        board = chess.Board(self.fen, chess960=self.chess960)
        for uci in self.moves:
            board.push(chess.Move.from_uci(uci))
        return board


@dataclass(frozen=True)
class ChessAnalyserFactory:
    """Builds a :class:`ChessAnalyser` (picklable: sent to each worker process)."""

    budget: Budget
    hash_mb: float = 16

    def __call__(self) -> ChessAnalyser:
        return ChessAnalyser(self.budget, self.hash_mb)


class ChessAnalyser:
    """One engine, analysing positions one at a time (``analyser(job) -> dict``)."""

    def __init__(self, budget: Budget, hash_mb: float = 16) -> None:
        from plies.chess.engine.api import Engine

        self.budget = budget
        self.engine = Engine(hash_mb=hash_mb, threads=budget.threads, params=budget.params())

    def __call__(self, job: ChessJob) -> dict[str, Any]:
        return analyse_position(self.engine, job.board(), self.budget, len(job.moves)).to_dict()


# --- exact facts ------------------------------------------------------------------------------


def mates_in_one(board: chess.Board) -> list[str]:
    """The side to move's checkmating moves (SAN), by trying every legal move."""
    out = []
    for move in board.legal_moves:
        san = board.san(move)
        board.push(move)
        if board.is_checkmate():
            out.append(san)
        board.pop()
    return out


def winning_captures(board: chess.Board, min_gain: int = 1) -> list[dict[str, Any]]:
    """The side to move's legal captures whose static exchange evaluation (the engine's SEE:
    both sides recapture with their least valuable piece and may stop) wins at least
    ``min_gain`` centipawns, best first: ``{"move", "square", "piece", "gain"}``."""
    from plies.chess.engine import search as S
    from plies.chess.position import Position

    pos = Position.from_board(board)
    buf = np.zeros(64, dtype=np.int64)
    out = []
    for move in board.legal_moves:
        if not board.is_capture(move):
            continue
        gain = int(S.see(pos.bd, pos.to_int(move), buf))
        if gain >= min_gain:
            victim = (
                chess.PAWN if board.is_en_passant(move) else board.piece_type_at(move.to_square)
            )
            out.append(
                {
                    "move": board.san(move),
                    "square": chess.square_name(move.to_square),
                    "piece": PIECE_KEYS[int(victim or chess.PAWN)],
                    "gain": gain,
                }
            )
    out.sort(key=lambda c: -c["gain"])
    return out


def threat_if_passing(board: chess.Board) -> dict[str, Any] | None:
    """The opponent's best winning capture if the side to move passed (None when in check or
    when there is none): the material threat the side to move has to meet."""
    if board.is_check():
        return None
    b = board.copy(stack=False)
    b.push(chess.Move.null())
    caps = winning_captures(b)
    return caps[0] if caps else None


def analyse_position(engine, board: chess.Board, budget: Budget, ply: int) -> PositionEval:
    """Search and exact facts of one position (see the module docstring)."""
    from plies.chess.engine.api import win_probability

    to_move = "white" if board.turn == chess.WHITE else "black"
    if board.is_checkmate():
        return PositionEval(
            ply,
            score=-_mate_score(),
            win_probability=0.0,
            terminal="loss",
            facts={"to_move": to_move, "legal": 0, "checkmate": True},
        )
    if board.is_game_over(claim_draw=False):
        return PositionEval(
            ply, score=0, win_probability=0.5, terminal="draw",
            facts={"to_move": to_move, "legal": board.legal_moves.count()},
        )  # fmt: skip
    pos = search_position(
        engine,
        board,
        budget,
        ply,
        move_text=board.san,
        pv_text=lambda pv: _san_line(board, pv),
        win_probability=win_probability,
        facts=lambda: {
            "to_move": to_move,
            "legal": board.legal_moves.count(),
            "in_check": board.is_check(),
            "mates_in_one": mates_in_one(board),
            "captures": winning_captures(board, min_gain=-(10**9)),
            "threat": threat_if_passing(board),
        },
    )
    pos.facts["proven"] = proof(pos) is not None  # the cache keeps a proven analysis
    return pos


def _san_line(board: chess.Board, moves: Sequence[chess.Move]) -> list[str]:
    b = board.copy(stack=False)
    out = []
    for move in moves:
        if move not in b.legal_moves:
            break
        out.append(b.san(move))
        b.push(move)
    return out


def cache_key(board: chess.Board, budget: Budget) -> str:
    """The cache key of a position: its FEN, the budget and the analysis version. A Chess960
    position is keyed ``960:`` and its Shredder-FEN (castling rights by rook file), so it
    never shares an entry with a standard position of the same X-FEN."""
    if board.chess960:
        return f"{ANALYSIS_VERSION}:960:{board.fen(shredder=True)}:{budget.key()}"
    return f"{ANALYSIS_VERSION}:{board.fen()}:{budget.key()}"


# --- judging ----------------------------------------------------------------------------------


def _mate_moves(score: int) -> int | None:
    from plies.chess.engine.api import mate_in

    return mate_in(score)


def proof(pos: PositionEval) -> Proof | None:
    """The exact result of a chess position for its side to move: checkmated or drawn, a mate
    in one (every legal move tried), or a mate score of the search."""
    if pos.terminal is not None:
        return Proof({"loss": -_mate_score(), "draw": 0}.get(pos.terminal, 0), [], "terminal")
    mates = pos.facts.get("mates_in_one")
    if mates:
        return Proof(_mate_score() - 1, [mates[0]], "mate")
    return proof_from_lines(pos, _mate_bound())


def value_rules() -> ValueRules:
    from plies.chess.engine.api import win_probability

    return ValueRules(win_probability, _mate_bound(), proof)


def search_noise(nodes: int) -> float:
    """The win-probability difference that two searches of ``nodes`` nodes (about) can give
    two equal moves (:func:`plies.analysis.scoring.noise_band` on :data:`NOISE_P90`)."""
    return noise_band(NOISE_P90, nodes)


def judge_move(
    ply: int,
    move: str,
    before: PositionEval,
    after: PositionEval | None,
    *,
    t: Translator,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    value_before: Value | None = None,
    value_after: Value | None = None,
) -> MoveReview:
    """The verdict on ``move`` (SAN, the ``ply``-th move) from the analyses before and after
    it and the one value of each position (from
    :func:`plies.analysis.scoring.position_values`; from these two positions alone when not
    given). Rules: docs/review.md, chess section."""
    rules = value_rules()
    if value_before is None:
        pair = {0: before} if after is None else {0: before, 1: after}
        vals = settle_values(pair, [move], rules, None, thresholds.good)
        value_before, value_after = vals[0], vals.get(1)
    vb, va = value_before, value_after
    bound = _mate_bound()
    mover, opp = sides(before, ply, PLAYERS)
    first = before.lines[0].move if before.lines else None
    score = score_from_values(
        move, vb, va, rules, thresholds, first_choice=first, noise=search_noise(before.nodes)
    )
    lines = score.lines
    top, is_best, classification = score.top, score.is_best, score.classification
    categories: list[str] = []
    notes: list[str] = []
    facts: dict[str, Any] = {}
    P, O = t(mover), t(opp)
    best = top.move if top else None
    after_facts = after.facts if after is not None else {}

    checkmate = after is not None and after.terminal == "loss"
    if checkmate:
        facts["checkmate"] = True
    elif move.endswith("+"):
        facts["gives_check"] = True
    capture = next((c for c in before.facts.get("captures", []) if c["move"] == move), None)

    # the mover's forced mate (the value before is a proven mate: a mate in one, a mate score)
    mate_line: list[str] | None = None
    mate_n = 0
    if vb.score > bound and top is not None:
        mate_line, mate_n = list(top.pv), _mate_moves(vb.score) or 0
        facts["had_mate"] = {"kind": "mate", "line": mate_line, "mate_in": mate_n}
    keeps_mate = checkmate or score.played > bound
    # the opponent's forced mate after the move
    opp_mate: dict[str, Any] | None = None
    if after is not None and after.terminal is None and va is not None and va.score > bound:
        opp_mate = {
            "kind": "mate",
            "line": list(va.top.pv) if va.top else [],
            "mate_in": _mate_moves(va.score) or 0,
        }
    if opp_mate is not None:
        facts["opponent_mates"] = opp_mate
    lost_before = vb.score < -bound
    legal = int(before.facts.get("legal", 2))

    # material facts (SEE): what the opponent wins after the move, beyond the threat before
    threat_before = before.facts.get("threat")
    threat_gain = threat_before["gain"] if threat_before else 0
    opp_caps = after_facts.get("captures", []) if after is not None else []
    hang = opp_caps[0] if opp_caps else None
    to_square = _to_square(move, before)
    hangs = (
        hang is not None
        and hang["gain"] >= MATERIAL_GAIN
        and hang["gain"] >= threat_gain + MATERIAL_MARGIN
        and not checkmate
    )
    # the material the move itself took (the victim's value, not the SEE of the capture, which
    # already counts the recapture): a recapture of equal value is a trade, not a loss
    own_gain = PIECE_VALUES[capture["piece"]] if capture else 0
    if hangs:
        assert hang is not None
        hangs = hang["gain"] - own_gain >= MATERIAL_GAIN  # not a fair exchange of material
    if hangs:
        assert hang is not None
        facts["hangs"] = dict(hang)
    winning = [c for c in before.facts.get("captures", []) if c["gain"] >= MATERIAL_GAIN]
    if "x" in move and capture is not None:
        facts["captures"] = capture["piece"]

    if checkmate:
        classification = "best"
        notes.append(t("ch_note_checkmate", move=move, player=P))
    elif legal == 1:
        classification = "forced"
        notes.append(t("ch_note_only_move", move=move))
    elif lost_before:
        classification = "lost"
        notes.append(t("ch_note_lost", player=P, opp=O))
    elif mate_line is not None and not keeps_mate:
        classification = "missed_win"
        categories += ["missed_win", "missed_mate"]
        notes.append(
            t("ch_note_missed_mate", move=move, player=P, n=mate_n, line=" ".join(mate_line))
        )
    else:
        if classification == "best" and len(lines) >= 2 and lines[0].move == move:
            if lines[0].score >= -bound and all(ln.score < -bound for ln in lines[1:]):
                classification = "forced"
                notes.append(t("ch_note_only_defence", move=move))
        if opp_mate is not None and not is_best:
            if score.loss >= thresholds.inaccuracy:
                classification = worse(classification, "blunder")
            categories.append("allowed_mate")
            notes.append(
                t("ch_note_allowed_mate", move=move, opp=O, n=opp_mate["mate_in"],
                  line=" ".join(opp_mate["line"]))
            )  # fmt: skip
        elif classification in BAD_CLASSES and hangs:
            assert hang is not None
            piece = t("piece_" + hang["piece"])
            if hang["square"] == to_square:
                categories.append("hanging_piece")
                notes.append(
                    t("ch_note_hanging", move=move, piece=piece, square=hang["square"],
                      opp=O, capture=hang["move"])
                )  # fmt: skip
            else:
                categories.append("material_loss")
                notes.append(
                    t("ch_note_material_loss", move=move, piece=piece, square=hang["square"],
                      opp=O, capture=hang["move"])
                )  # fmt: skip
        if (
            classification in BAD_CLASSES
            and winning
            and best in {c["move"] for c in winning}
            and move not in {c["move"] for c in winning}
        ):
            cap = next(c for c in winning if c["move"] == best)
            categories.append("missed_capture")
            facts["missed_capture"] = dict(cap)
            notes.append(
                t("ch_note_missed_capture", move=move, best=best,
                  piece=t("piece_" + cap["piece"]), square=cap["square"])
            )  # fmt: skip
        if (
            classification in ("best", "excellent", "good")
            and hang is not None
            and hang["square"] == to_square
            and hang["gain"] >= MATERIAL_GAIN
            and hang["gain"] - own_gain >= MATERIAL_GAIN
        ):
            facts["sacrifice"] = dict(hang)
            notes.append(t("ch_note_sacrifice", move=move, piece=t("piece_" + hang["piece"])))
        if mate_line is not None and keeps_mate and not checkmate:
            kept = vb.line_of(move)
            line = list(kept.pv) if kept is not None else [move]
            n = _mate_moves(score.played) or mate_n
            notes.append(t("ch_note_keeps_mate", move=move, n=n, line=" ".join(line)))
        elif "captures" in facts and classification not in BAD_CLASSES:
            notes.append(t("ch_note_capture", move=move, piece=t("piece_" + facts["captures"])))
        elif facts.get("gives_check") and classification not in BAD_CLASSES:
            notes.append(t("ch_note_check", move=move))
        if score.equal and best:
            notes.append(equal_note(t, score, move))
        if classification in BAD_CLASSES and best:
            if score.hindsight and classification == "inaccuracy":
                notes.append(t("note_hindsight", move=move))
            elif score.within_noise and classification == "inaccuracy":
                notes.append(t("note_noise", move=move, best=best))
            notes.append(better_note(t, score))
    return move_review(ply, mover, move, score, classification, categories, facts, notes, before)


def _to_square(san: str, before: PositionEval) -> str | None:
    """The destination square of a SAN move (castling: the king's)."""
    core = san.rstrip("+#")
    if core.startswith("O-O"):
        white = before.facts.get("to_move") == "white"
        return ("c" if core == "O-O-O" else "g") + ("1" if white else "8")
    core = core.split("=")[0]
    return core[-2:] if len(core) >= 2 else None


# --- the whole review -------------------------------------------------------------------------


_PGN_TAG = re.compile(r'^\[\s*[A-Za-z0-9_]+\s+"')
_PGN_MOVE = re.compile(
    r"(?:^|\s)(?:\d+\.(?:\.\.)?|O-O(?:-O)?[+#]?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8][+#]?"
    r"|[a-h]x[a-h][1-8](?:=[QRBN])?[+#]?)(?=\s|[A-Za-z]|$)"
)


def looks_like_pgn(text: str) -> bool:
    """True for a PGN: its first line is a tag pair (``[Event "..."]``), or its moves carry
    move numbers (``1. e4``) or piece, capture or castling moves (``Nf3``, ``exd5``, ``O-O``).
    A Gomoku move list (``h8 h9``, ``7,7``) never does; bare ``e4 e5`` stays Gomoku."""
    lines = [line.strip() for line in text.lstrip("\ufeff").splitlines()]
    lines = [line for line in lines if line and not line.startswith(("#", "%"))]
    if not lines:
        return False
    if _PGN_TAG.match(lines[0]):
        return True
    return any(_PGN_MOVE.search(line) for line in lines)


class _QuietGameBuilder(chess.pgn.GameBuilder):
    """Keeps a game's errors in ``game.errors`` without logging them (the CLI reports the
    first one in its one-line error)."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def _read_pgn_text(path: str | Path | None, text: str | None) -> tuple[str, str]:
    source = str(path) if path is not None else "<stdin>"
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")  # type: ignore[arg-type]
        except OSError as exc:
            raise InvalidRecord(f"cannot read the file: {exc.strerror}", source=source) from None
    return text, source


def _check_game(game: chess.pgn.Game, source: str, label: str) -> chess.pgn.Game:
    """``game`` if it can be reviewed (standard chess or Chess960), else InvalidRecord
    (``label`` names it: "game 2: ")."""
    variant = _other_variant(game.headers)
    if variant is not None:
        raise InvalidRecord(
            f"{label}the variant {variant!r} cannot be reviewed (only standard chess and Chess960)",
            source=source,
        )
    if game.errors:
        raise InvalidRecord(f"{label}bad PGN: {game.errors[0]}", source=source)
    if not any(True for _ in game.mainline_moves()):
        raise InvalidRecord(f"{label}no moves in the PGN", source=source)
    return game


def _other_variant(headers: chess.pgn.Headers) -> str | None:
    """The ``Variant`` tag when it names anything but standard chess or Chess960 (python-chess
    reads both on ``chess.Board``; "From Position" and the ICS wild variants are standard
    rules), else None."""
    name = headers.get("Variant")
    if name is None or headers.is_chess960() or headers.is_wild():
        return None
    from chess.variant import find_variant

    try:
        board_type = find_variant(name)
    except ValueError:  # a variant python-chess does not know
        return name
    return None if board_type is chess.Board else name


def load_pgn_games(
    path: str | Path | None = None, text: str | None = None, game: int | None = None
) -> list[chess.pgn.Game]:
    """Every game of a PGN file (or ``text``), or only game number ``game`` (from 1). A
    malformed game (illegal or unreadable moves, no moves, a variant) raises InvalidRecord
    naming it; ``game`` beyond the last one raises InvalidOption."""
    text, source = _read_pgn_text(path, text)
    stream = io.StringIO(text)
    games: list[chess.pgn.Game] = []
    while True:
        try:
            g = chess.pgn.read_game(stream, Visitor=_QuietGameBuilder)
        except (ValueError, IndexError) as exc:
            raise InvalidRecord(f"game {len(games) + 1}: bad PGN: {exc}", source=source) from None
        if g is None:
            break
        games.append(g)
    if not games:
        raise InvalidRecord("no game in the PGN", source=source)
    if game is not None:
        if not 1 <= game <= len(games):
            count = f"{len(games)} game" + ("s" if len(games) > 1 else "")
            raise InvalidOption(f"--game {game}: the PGN has {count}")
        return [_check_game(games[game - 1], source, f"game {game}: ")]
    if len(games) == 1:
        return [_check_game(games[0], source, "")]
    return [_check_game(g, source, f"game {i}: ") for i, g in enumerate(games, 1)]


def load_pgn(path: str | Path | None = None, text: str | None = None) -> chess.pgn.Game:
    """The first game of a PGN file (or ``text``); a malformed record raises InvalidRecord."""
    text, source = _read_pgn_text(path, text)
    try:
        game = chess.pgn.read_game(io.StringIO(text), Visitor=_QuietGameBuilder)
    except (ValueError, IndexError) as exc:
        raise InvalidRecord(f"bad PGN: {exc}", source=source) from None
    if game is None:
        raise InvalidRecord("no game in the PGN", source=source)
    return _check_game(game, source, "")


@dataclass
class _GamePlan:
    """A game's positions to analyse (``jobs``) and its moves in SAN and UCI."""

    game: chess.pgn.Game
    jobs: list[tuple[str | None, ChessJob]]
    sans: list[str]
    ucis: list[str]
    fens: list[str]
    final: chess.Board


def _plan(game: chess.pgn.Game, budget: Budget) -> _GamePlan:
    start = game.board()
    start_fen, chess960 = start.fen(), start.chess960
    moves = list(game.mainline_moves())
    board = start.copy()
    jobs: list[tuple[str | None, ChessJob]] = []
    sans: list[str] = []
    ucis: list[str] = []
    fens = [start_fen]
    for i in range(len(moves) + 1):
        jobs.append((cache_key(board, budget), ChessJob(start_fen, tuple(ucis), chess960)))
        if i < len(moves):
            sans.append(board.san(moves[i]))
            ucis.append(board.uci(moves[i]))  # Chess960 castling: king-takes-rook
            board.push(moves[i])
            fens.append(board.fen())
    return _GamePlan(game, jobs, sans, ucis, fens, board)


def review_game(
    game: chess.pgn.Game,
    budget: Budget,
    *,
    lang: str = "en",
    workers: int = 1,
    cache: Any = None,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    hash_mb: float = 16,
    source: str | None = None,
    on_progress: Callable[[int, int, bool], None] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> Review:
    """Review a chess game (a ``chess.pgn.Game``): analyse every position (on ``workers``
    processes, or Ray actors with ``backend="ray"``, through ``cache``), judge every move,
    summarise. Ctrl-C returns the moves finished so far (``complete=False``)."""
    return review_games(
        [game], budget, lang=lang, workers=workers, cache=cache, thresholds=thresholds,
        hash_mb=hash_mb, source=source, on_progress=on_progress, backend=backend,
        ray_address=ray_address,
    )[0]  # fmt: skip


def review_games(
    games: Sequence[chess.pgn.Game],
    budget: Budget,
    *,
    lang: str = "en",
    workers: int = 1,
    cache: Any = None,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    hash_mb: float = 16,
    source: str | None = None,
    on_progress: Callable[[int, int, bool], None] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> list[Review]:
    """Review several games with one analysis pass over all their positions (one pool of
    ``workers`` processes, each building its engine once); one :class:`Review` per game. After
    Ctrl-C, the games whose positions were all analysed are complete, the others partial."""
    where = {"backend": backend, "ray_address": ray_address}
    plans = [_plan(g, budget) for g in games]
    jobs = [job for plan in plans for job in plan.jobs]
    raw, _ = analyse_positions(
        jobs, ChessAnalyserFactory(budget, hash_mb), workers=workers, cache=cache,
        on_result=session.counting_progress(len(jobs), on_progress), **where,
    )  # fmt: skip
    all_evals = []
    offset = 0
    for plan in plans:
        n = len(plan.jobs)
        all_evals.append(
            {
                i - offset: PositionEval.from_dict(v)
                for i, v in raw.items()
                if offset <= i < offset + n
            }
        )
        offset += n

    def analyse_alternatives(
        items: list[tuple[int, tuple[int, str]]], budget: Budget = budget
    ) -> dict[tuple[int, tuple[int, str]], PositionEval]:
        """The positions after the moves ``(game, (i, san))`` (san played at position i of
        that game) within ``budget``, all games in one pass."""
        factory = ChessAnalyserFactory(budget, hash_mb)
        extra = []
        for g, (i, san) in items:
            job = plans[g].jobs[i][1]
            board = job.board()
            uci = board.uci(board.parse_san(san))
            board.push_san(san)
            extra.append(
                (cache_key(board, budget), ChessJob(job.fen, (*job.moves, uci), job.chess960))
            )
        done, _ = analyse_positions(
            extra, factory, workers=min(workers, len(extra)), cache=cache, **where
        )
        return {items[k]: PositionEval.from_dict(v) for k, v in done.items()}

    def confirm(
        items: list[tuple[int, tuple[int, str]]],
    ) -> dict[tuple[int, tuple[int, str]], PositionEval]:
        return analyse_alternatives(items, budget.scaled(CONFIRM_FACTOR))

    # one value per position, the best alternatives of the costly moves verified (at most two
    # rounds, every game's in one pass), the costly verdicts that no proof backs confirmed at a
    # larger budget; the verdicts come from these values (an interrupted review analyses no
    # alternatives)
    complete = all(len(e) == len(p.jobs) for e, p in zip(all_evals, plans, strict=True))
    values = settle_many(
        [(e, p.sans) for e, p in zip(all_evals, plans, strict=True)],
        value_rules(),
        analyse_alternatives if complete else None,
        thresholds.good,
        confirm=confirm if complete else None,
        confirm_threshold=thresholds.inaccuracy,
    )
    return [
        _judge(plan, evals, vals, budget, lang, workers, thresholds, source)
        for plan, evals, vals in zip(plans, all_evals, values, strict=True)
    ]


def _judge(
    plan: _GamePlan,
    evals: dict[int, PositionEval],
    values: dict[int, Value],
    budget: Budget,
    lang: str,
    workers: int,
    thresholds: Thresholds,
    source: str | None,
) -> Review:
    t = translator(lang)
    game, sans = plan.game, plan.sans
    complete = len(evals) == len(plan.jobs)
    reviews = []
    for i, san in enumerate(sans):
        if i not in evals or i + 1 not in evals:
            continue
        reviews.append(
            judge_move(
                i + 1, san, evals[i], evals[i + 1], t=t, thresholds=thresholds,
                value_before=values[i], value_after=values[i + 1],
            )
        )  # fmt: skip
    result = _result(game, plan.final)
    opening = game.headers.get("Opening") or None
    if opening and game.headers.get("ECO"):
        opening = f"{game.headers['ECO']} {opening}"
    game_info = {"game": "chess", "fens": plan.fens}
    summary = summarise(
        reviews, PLAYERS, result=result, opening=opening,
        label=lambda m: f"{move_number(game_info, m.ply)} {m.move}",
    )  # fmt: skip
    headers = game.headers

    def name(key: str) -> str | None:
        value = headers.get(key)
        return None if value in (None, "", "?") else value

    data = {
        "game": "chess",
        "rule": "chess960" if plan.final.chess960 else "chess",
        "width": 8,
        "height": 8,
        "players": {"white": name("White"), "black": name("Black")},
        "result": result,
        "moves": sans,
        "moves_uci": plan.ucis,
        "fens": plan.fens,
        "start_fen": plan.fens[0],
        "opening": opening,
        "source": source,
        "event": name("Event"),
    }
    settings = session.review_settings(
        budget, workers, thresholds, ANALYSIS_VERSION, win_probability="1 / (1 + exp(-cp / 250))"
    )
    return Review(data, settings, reviews, summary, complete=complete, language=lang)


def _result(game: chess.pgn.Game, final: chess.Board) -> str | None:
    outcome = final.outcome(claim_draw=False)
    if outcome is not None:
        return {chess.WHITE: "white", chess.BLACK: "black", None: "draw"}[outcome.winner]
    return {"1-0": "white", "0-1": "black", "1/2-1/2": "draw"}.get(game.headers.get("Result", "*"))


def review_file(
    path: str,
    request: session.AnalyzeRequest,
    *,
    console=None,
    game: int | None = None,
    text: str | None = None,
    on_loaded: Callable[[], None] = lambda: None,
) -> list[Review]:
    """``plies analyze game.pgn``: review every game of the file (or only number ``game``,
    from 1) in one analysis pass (one progress bar), then print each game's table and
    summary and write its JSON and HTML reports (with several games, ``r.json`` becomes
    ``r-1.json``, ``r-2.json``, ...). ``path`` ``-`` reads ``text`` (or stdin). Every game is
    checked before any is analysed (then ``on_loaded()`` runs: the CLI compiles the kernels
    there, so a bad file is refused at once); after Ctrl-C the finished games and the partial
    one are reported."""
    import sys

    from rich.console import Console

    console = console or Console()
    if path == "-":
        games = load_pgn_games(text=sys.stdin.read() if text is None else text, game=game)
    else:
        games = load_pgn_games(path, game=game)
    on_loaded()
    budget = request.budget()
    count = len(games)
    first = game or 1
    reviews = request.run(
        console,
        lambda cache, progress: review_games(
            games,
            budget,
            lang=request.lang,
            workers=request.pool_size(),
            cache=cache,
            source=None if path == "-" else Path(path).name,
            on_progress=progress,
            backend=request.backend,
            ray_address=request.ray_address,
        ),
    )
    done: list[Review] = []
    for k, (g, review) in enumerate(zip(games, reviews, strict=True)):
        number = first + k
        if count > 1:
            white, black = g.headers.get("White", "?"), g.headers.get("Black", "?")
            console.rule(f"Game {number} of {count}: {white} - {black}")
        request.report(review, console, number, count)
        done.append(review)
        if not review.complete:
            break  # interrupted: the games after it were not analysed
    return done


def check_options(rule: str | None, size: str | None, book: str | None) -> None:
    """The Gomoku-only options of ``plies analyze`` are errors with a PGN."""
    for flag, value in (("--rule", rule), ("--size", size), ("--book", book)):
        if value:
            raise InvalidOption(f"{flag} does not apply to a chess game (.pgn)")
