"""Game review for the Gomoku family: positions analysed by the engine and the threat solvers,
moves judged with exact threat facts and explained in the player's language.

Every position of the game (before each move, and the final one) is analysed once: MultiPV
search, the side to move's threat cells (where it would make a five, open four, four-three,
four, double three, open three) and the opponent's, a VCF and a VCT for the side to move,
and the opponent's VCF as if it were to move (the threat the mover has to meet). A move is
then judged from the analyses before and after it (see docs/review.md for the rules).
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from plies.analysis import session
from plies.analysis.i18n import Translator, translator
from plies.analysis.review import (
    BAD_CLASSES,
    DEFAULT_THRESHOLDS,
    Budget,
    LineEval,
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
    settle_values,
    sides,
)
from plies.gomoku.board import Board
from plies.gomoku.notation import Move
from plies.gomoku.openings import OpeningBook, identify_renju_opening
from plies.gomoku.records import GameRecord

ANALYSIS_VERSION = "gomoku-2"
PLAYERS = ("black", "white")
WIN = 30000
WIN_BOUND = WIN - 1000
DEFAULT_VCF_NODES = 200_000
DEFAULT_VCT_NODES = 30_000
SOLVER_SHARE = 0.25  # of the movetime per position, for the VCT (plies analyze)
# a VCT win counts as missed only when its line is at most this long (6 attacker moves)
MAX_MISSED_VCT_PLIES = 11

# threat kinds, strongest first, with the engine's threat class numbers (engine/state.py)
THREAT_KINDS = (
    ("five", 6),
    ("open_four", 5),
    ("four_three", 4),
    ("four", 3),
    ("double_three", 2),
    ("three", 1),
)


@dataclass(frozen=True)
class GomokuJob:
    """One position to analyse: the moves leading to it (pbrain x, y)."""

    moves: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class AnalyserFactory:
    """Builds a :class:`GomokuAnalyser` (picklable: sent to each worker process)."""

    rule: str
    width: int
    height: int
    budget: Budget
    hash_mb: float = 32
    opening: str = "free"

    def __call__(self) -> GomokuAnalyser:
        return GomokuAnalyser(
            self.rule, self.width, self.height, self.budget, self.hash_mb, self.opening
        )


class GomokuAnalyser:
    """One engine, analysing positions one at a time (``analyser(job) -> dict``)."""

    def __init__(
        self,
        rule: str,
        width: int,
        height: int,
        budget: Budget,
        hash_mb: float = 32,
        opening: str = "free",
    ):
        from plies.gomoku.engine import Engine

        self.rule, self.width, self.height, self.budget = rule, width, height, budget
        self.opening = opening
        self.engine = Engine(
            rule,
            width=width,
            height=height,
            hash_mb=hash_mb,
            threads=budget.threads,
            params=budget.params(),
        )

    def __call__(self, job: GomokuJob) -> dict[str, Any]:
        board = Board(
            width=self.width,
            height=self.height,
            rule=self.rule,
            forbidden="loses",
            opening=self.opening,
        )
        board.play_moves([Move(x, y) for x, y in job.moves])
        return analyse_position(self.engine, board, self.budget).to_dict()


# How far a search of so many nodes is from a deeper one, in win probability: the 90th
# percentile of the absolute difference over self-play positions (freestyle 15x15, MultiPV 3,
# fresh tables, the shipped engine of session 23; the deeper search has 10 times the nodes, 4
# times from 200,000 nodes; 94-110 positions a budget, the 200,000-node row the two runs'
# percentiles weighted by their 43 and 111 positions; benchmarks/review_noise.py,
# docs/review.md "Search noise"). Two moves judged by two such searches differ by up to
# sqrt(2) times it from noise alone (search_noise).
NOISE_P90 = (
    (2000, 0.1835),
    (4000, 0.1988),
    (8000, 0.1477),
    (20000, 0.1457),
    (50000, 0.1115),
    (200000, 0.1025),
)


def search_noise(nodes: int) -> float:
    """The win-probability difference that two searches of ``nodes`` nodes (about) can give
    two equal moves (:func:`plies.analysis.scoring.noise_band` on :data:`NOISE_P90`)."""
    return noise_band(NOISE_P90, nodes)


def _alg(board: Board, m: Move) -> str:
    return m.algebraic(board.height)


def threat_cells(board: Board, tables) -> dict[str, dict[str, list[str]]]:
    """For each colour, the empty cells where a stone of that colour makes each threat kind
    (``five``, ``open_four`` (or a double four), ``four_three``, ``four``, ``double_three``,
    ``three``); Renju forbidden points are left out for black."""
    from plies.gomoku.engine import state as ST
    from plies.gomoku.rules import PAD

    st, _ = ST.state_from_board(board, tables)
    stride = board.width + 2 * PAD
    out: dict[str, dict[str, list[str]]] = {}
    for side, colour in enumerate(PLAYERS):
        classes = st.cls[side] & 7
        cells: dict[str, list[str]] = {kind: [] for kind, _ in THREAT_KINDS}
        for pos in np.flatnonzero((classes >= 1) & (classes <= 6) & (st.cells == 0)):
            m = Move(int(pos) % stride - PAD, int(pos) // stride - PAD)
            kind = next(k for k, c in THREAT_KINDS if c == classes[pos])
            if side == 0 and board.rule == "renju" and kind != "five" and board.is_forbidden(m):
                continue
            cells[kind].append(_alg(board, m))
        out[colour] = cells
    return out


def _null_move_vcf(engine, board: Board, max_nodes: int) -> list[Move] | None:
    """The VCF the opponent of the side to move would have if it could move now."""
    return engine.vcf(board, max_nodes=max_nodes, attacker=3 - board.to_move)


def analyse_position(engine, board: Board, budget: Budget) -> PositionEval:
    """Search, threat cells and solver lines of one position (see the module docstring)."""
    from plies.gomoku.engine.api import win_probability

    ply = len(board)
    to_move = PLAYERS[board.to_move - 1]
    if board.is_over:
        if board.winner:
            terminal = "win" if board.winner == board.to_move else "loss"
        else:
            terminal = "draw"
        score = {"win": WIN, "loss": -WIN, "draw": 0}[terminal]
        line = [_alg(board, m) for m in board.winning_line or []]
        return PositionEval(
            ply,
            score=score,
            win_probability={"win": 1.0, "loss": 0.0, "draw": 0.5}[terminal],
            terminal=terminal,
            facts={"to_move": to_move, "winning_line": line},
        )
    pos = search_position(
        engine,
        board,
        budget,
        ply,
        move_text=lambda m: _alg(board, m),
        pv_text=lambda pv: [_alg(board, m) for m in pv],
        win_probability=win_probability,
        facts=lambda: _threat_facts(engine, board, budget, to_move),
    )
    pos.facts["proven"] = proof(pos) is not None  # the cache keeps a proven analysis
    return pos


def _solver_line(board: Board, moves: Sequence[Move] | None) -> list[str] | None:
    return [_alg(board, m) for m in moves] if moves else None


def _threat_facts(engine, board: Board, budget: Budget, to_move: str) -> dict[str, Any]:
    """The threat cells of both sides, the side to move's VCF (else VCT) and the opponent's
    VCF as if it were to move."""
    cells = threat_cells(board, engine.tables)
    vcf_nodes = budget.solver_nodes or DEFAULT_VCF_NODES
    vcf = engine.vcf(board, max_nodes=vcf_nodes)
    vct = None
    vct_plies = None
    if vcf is None:
        if budget.solver_time is not None:
            vct = engine.vct(board, max_nodes=10_000_000, movetime=budget.solver_time)
        else:
            vct = engine.vct(board, max_nodes=budget.solver_nodes or DEFAULT_VCT_NODES)
        free = getattr(engine, "vct_free", None)
        if vct is not None:
            vct_plies = len(vct)
            if free:
                # the defender's move there is a placeholder (its threat cannot be met): the
                # line stops at the attacker's unstoppable threat
                vct = vct[:free]
    opponent = PLAYERS[2 - board.to_move]
    opp_vcf = None
    if not cells[opponent]["five"]:
        opp_vcf = _null_move_vcf(engine, board, vcf_nodes)
    return {
        "to_move": to_move,
        "threats": cells,
        "vcf": _solver_line(board, vcf),
        "vct": _solver_line(board, vct),
        "vct_plies": vct_plies,
        "opponent_vcf": _solver_line(board, opp_vcf),
    }


@functools.cache
def engine_fingerprint(rule: str) -> str:
    """8 hex digits naming the engine a rule's analyses come from: its shipped tables
    (evaluation, move order, threat term) and its tunable numbers, so that the cache never
    serves analyses of an engine whose tables or numbers have changed since."""
    from plies.gomoku.engine import combos, params, threat_eval

    crc = 0
    for path in (
        combos.weights_path(rule),
        combos.order_path(rule),
        threat_eval.threat_path(rule),
    ):
        crc = zlib.crc32(path.read_bytes() if path.exists() else b"-", crc)
    numbers = [
        repr(params.rule_value(name, rule)) for name in params.TUNABLE if hasattr(params, name)
    ]
    crc = zlib.crc32(";".join(numbers).encode(), crc)
    return f"{crc:08x}"


def cache_key(board: Board, budget: Budget) -> str:
    """The cache key of a position: hash and side to move, rule (with its opening rule unless
    ``free``), size, budget, version and engine (:func:`engine_fingerprint`)."""
    rule = board.rule if board.opening == "free" else f"{board.rule}+{board.opening}"
    return (
        f"{ANALYSIS_VERSION}-{engine_fingerprint(board.rule)}:{rule}:{board.width}x"
        f"{board.height}:{board.hash:016x}:{len(board)}:{board.to_move}:{budget.key()}"
    )


# --- judging ----------------------------------------------------------------------------------


def _edge_distance(square: str, width: int, height: int) -> int:
    x = ord(square[0]) - ord("a")
    y = height - int(square[1:])
    return min(x, y, width - 1 - x, height - 1 - y)


def _made(cells: dict[str, list[str]], square: str) -> str | None:
    return next((kind for kind, _ in THREAT_KINDS if square in cells.get(kind, [])), None)


def _vct_plies(pos: PositionEval) -> int | None:
    vct = pos.facts.get("vct")
    if vct is None:
        return None
    return int(pos.facts.get("vct_plies") or len(vct))


def proof(pos: PositionEval) -> Proof | None:
    """The exact result of a Gomoku position for its side to move: the game over, a VCF, a VCT
    of at most ``MAX_MISSED_VCT_PLIES`` plies (a longer one stays a fact, ``long_vct``: a win
    that deep is beyond what a player can be blamed for missing), or a proven search score."""
    if pos.terminal is not None:
        return Proof({"win": WIN, "loss": -WIN, "draw": 0}[pos.terminal], [], "terminal")
    vcf = pos.facts.get("vcf")
    if vcf:
        return Proof(WIN - len(vcf), list(vcf), "vcf")
    plies = _vct_plies(pos)
    if plies is not None and plies <= MAX_MISSED_VCT_PLIES:
        return Proof(WIN - plies, list(pos.facts["vct"]), "vct")
    return proof_from_lines(pos, WIN_BOUND)


def _keeps_win(pos: PositionEval, move: str) -> bool:
    """A move that makes five or an open four keeps any win."""
    own = pos.facts.get("threats", {}).get(pos.facts.get("to_move"), {})
    return _made(own, move) in ("five", "open_four")


def value_rules() -> ValueRules:
    from plies.gomoku.engine.api import win_probability

    return ValueRules(win_probability, WIN_BOUND, proof, _keeps_win)


def _win_kind(value: Value) -> str:
    p, top = value.proof, value.top
    if p is not None and p.kind in ("vcf", "vct") and top is not None and p.line[:1] == [top.move]:
        return p.kind
    return "search"


def judge_move(
    ply: int,
    move: str,
    before: PositionEval,
    after: PositionEval | None,
    *,
    width: int,
    height: int,
    book: bool,
    opening: str | None,
    t: Translator,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    value_before: Value | None = None,
    value_after: Value | None = None,
) -> MoveReview:
    """The verdict on ``move`` (the ``ply``-th move) from the analyses before and after it and
    the one value of each position (``value_before``, ``value_after``: from
    :func:`plies.analysis.scoring.position_values` over the whole game; computed from these
    two positions alone when not given)."""
    rules = value_rules()
    if value_before is None:
        pair = {0: before} if after is None else {0: before, 1: after}
        vals = settle_values(pair, [move], rules, None, thresholds.good)
        value_before, value_after = vals[0], vals.get(1)
    vb, va = value_before, value_after
    mover, opp = sides(before, ply, PLAYERS)
    threats = before.facts.get("threats", {})
    own, theirs = threats.get(mover, {}), threats.get(opp, {})
    first = before.lines[0].move if before.lines else None
    noise = search_noise(before.nodes)
    score = score_from_values(move, vb, va, rules, thresholds, first_choice=first, noise=noise)
    top, is_best, classification = score.top, score.is_best, score.classification
    lines = score.lines
    categories: list[str] = []
    notes: list[str] = []
    facts: dict[str, Any] = {}

    made = _made(own, move)
    if after is not None and after.terminal == "loss":
        made = "five" if after.facts.get("winning_line") else made
    if made:
        facts["makes"] = made
    blocks = []
    if theirs.get("five") and move in theirs["five"]:
        blocks.append("four")
    elif (
        theirs.get("open_four")
        and after is not None
        and after.terminal is None
        and not after.facts.get("threats", {}).get(opp, {}).get("open_four")
    ):
        blocks.append("three")
    if blocks:
        facts["blocks"] = blocks[0]

    vct = before.facts.get("vct")
    plies = _vct_plies(before)
    if vct is not None and plies is not None and plies > MAX_MISSED_VCT_PLIES:
        facts["long_vct"] = vct  # a win too deep to blame the player for missing it
    # the mover's win: the value before the move is proven (solver, search, or inherited)
    had_win = vb.score > WIN_BOUND and top is not None
    win_kind = _win_kind(vb) if had_win else None
    win_line = list(top.pv) if had_win and top is not None else None
    if had_win:
        facts["had_win"] = {"kind": win_kind, "line": win_line}
    still_wins = score.played > WIN_BOUND
    threat_before = bool(theirs.get("five") or theirs.get("open_four")) or bool(
        before.facts.get("opponent_vcf")
    )
    if before.facts.get("opponent_vcf"):
        facts["opponent_threat"] = {"kind": "vcf", "line": before.facts["opponent_vcf"]}
    refutation = None
    opp_wins_after = False
    if after is not None and after.terminal is None and va is not None and va.score > WIN_BOUND:
        opp_wins_after = True
        refutation = {"kind": _win_kind(va), "line": list(va.top.pv) if va.top else []}
        facts["opponent_wins"] = refutation
    lost_before = vb.score < -WIN_BOUND

    mv, best = move, (top.move if top else None)
    P, O = t(mover), t(opp)
    if book:
        classification = "book"
        notes.append(t("note_book", move=mv, opening=opening or t("book")))
    elif made == "five":
        classification = "best"
        notes.append(t("note_five", move=mv, player=P))
    elif lost_before:
        classification = "lost"
        notes.append(t("note_lost", player=P, opp=O))
    elif had_win and not still_wins:
        assert win_line is not None
        classification = "missed_win"
        categories.append("missed_win")
        notes.append(
            t(
                "note_missed_win",
                move=mv,
                player=P,
                how=t(f"by_{win_kind}"),
                line=_line_text(win_line),
            )
        )
    else:
        forced = _is_forced(move, own, theirs, lines)
        if opp_wins_after and not is_best and score.loss >= thresholds.inaccuracy:
            classification = worse(classification, "blunder")
        if classification == "best" and forced:
            classification = "forced"
        if opp_wins_after and not is_best:
            assert refutation is not None
            how, line = t(f"by_{refutation['kind']}"), _line_text(refutation["line"])
            if threat_before:
                categories.append("failed_defence")
                threat = _threat_text(t, theirs, before.facts.get("opponent_vcf"))
                key = "note_failed_defence_late" if blocks else "note_failed_defence"
                notes.append(t(key, move=mv, opp=O, threat=threat, how=how, line=line))
            else:
                categories.append("missed_threat")
                notes.append(t("note_missed_threat", move=mv, opp=O, how=how, line=line))
        if classification in BAD_CLASSES:
            best_makes = _made(own, best) if best else None
            if (
                best_makes
                and not made
                and not threat_before
                and not theirs.get("three")
                and "missed_threat" not in categories
            ):
                categories.append("passive_play")
                notes.append(
                    t("note_passive", move=mv, best=best, threat=t(f"threat_{best_makes}"))
                )
        if classification == "forced":
            if theirs.get("five"):
                notes.append(t("note_forced_four", move=mv, opp=O))
            else:
                notes.append(t("note_forced", move=mv))
        starts = had_win and win_line is not None and move == win_line[0]
        if made and made != "five":
            if starts:
                assert win_line is not None
                notes.append(
                    t("note_starts_win", move=mv, threat=t(f"threat_{made}"),
                      how=t(f"by_{win_kind}"), line=_line_text(win_line))
                )  # fmt: skip
            else:
                notes.append(t("note_makes_" + made, move=mv))
        elif starts:
            assert win_line is not None
            notes.append(t("note_starts_win_quiet", move=mv, how=t(f"by_{win_kind}"),
                           line=_line_text(win_line)))  # fmt: skip
        if blocks and classification != "forced" and "failed_defence" not in categories:
            notes.append(t("note_blocks_" + blocks[0], move=mv, opp=O))
        if score.equal and best:
            notes.append(equal_note(t, score, mv))
        if classification in BAD_CLASSES and best:
            if score.hindsight and classification == "inaccuracy":
                notes.append(t("note_hindsight", move=mv))
            elif score.within_noise and classification == "inaccuracy":
                notes.append(t("note_noise", move=mv, best=best))
            notes.append(better_note(t, score))
    if (
        classification in BAD_CLASSES
        and best
        and _edge_distance(move, width, height) <= 1
        and _edge_distance(best, width, height) >= 2
    ):
        categories.append("edge_play")
        notes.append(t("note_edge", move=mv, best=best))
    return move_review(ply, mover, move, score, classification, categories, facts, notes, before)


def _is_forced(move: str, own: dict, theirs: dict, lines: Sequence[LineEval]) -> bool:
    """The move is the only one that does not lose: the single block of a four, or the only
    engine line that is not a proven loss."""
    if own.get("five"):
        return False
    fives = set(theirs.get("five", []))
    if fives:
        return fives == {move}
    if len(lines) >= 2 and lines[0].move == move and lines[0].score >= -WIN_BOUND:
        return all(ln.score < -WIN_BOUND for ln in lines[1:])
    return False


def _line_text(line: Sequence[str]) -> str:
    return " ".join(line)


def _threat_text(t: Translator, theirs: dict, opp_vcf: list[str] | None) -> str:
    if theirs.get("five"):
        return t("threat_desc_four", squares=", ".join(theirs["five"]))
    if theirs.get("open_four"):
        return t("threat_desc_three", squares=", ".join(theirs["open_four"]))
    return t("threat_desc_vcf", line=_line_text(opp_vcf or []))


# --- the whole review -------------------------------------------------------------------------


def review_record(
    record: GameRecord,
    budget: Budget,
    *,
    rule: str | None = None,
    opening: str | None = None,
    lang: str = "en",
    workers: int = 1,
    cache: Any = None,
    book: OpeningBook | None = None,
    position_book: Any = None,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    hash_mb: float = 32,
    on_progress: Callable[[int, int, bool], None] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> Review:
    """Review a Gomoku-family game: analyse every position (on ``workers`` processes, or Ray
    actors with ``backend="ray"``, through ``cache``), judge every move, summarise.
    ``on_progress(done, total, cached)`` is called after each position. Ctrl-C returns the
    moves finished so far (``complete=False``). ``opening``: the opening rule (else the
    record's, else ``free``); a move that breaks it raises :class:`~plies.errors.InvalidRecord`,
    and no suggested move breaks it."""
    where = {"backend": backend, "ray_address": ray_address}
    t = translator(lang)
    board = record.to_board(rule=rule, forbidden="loses", opening=opening)
    moves = board.history
    base_factory = AnalyserFactory(
        board.rule, board.width, board.height, budget, hash_mb, board.opening
    )
    replay = Board(
        width=board.width,
        height=board.height,
        rule=board.rule,
        forbidden="loses",
        opening=board.opening,
    )
    jobs = []
    for i in range(len(moves) + 1):
        jobs.append((cache_key(replay, budget), GomokuJob(tuple((m.x, m.y) for m in moves[:i]))))
        if i < len(moves):
            replay.play(moves[i])
    raw, complete = analyse_positions(
        jobs,
        base_factory,
        workers=workers,
        cache=cache,
        on_result=session.counting_progress(len(jobs), on_progress),
        **where,
    )
    evals = {i: PositionEval.from_dict(v) for i, v in raw.items()}
    full_book = OpeningBook.renju(board.width, board.height)
    if book is not None:
        full_book = full_book.merge(book)
    book_plies = full_book.book_plies(moves)
    if position_book is not None:  # a plies.gomoku.book.Book built by plies' searches
        book_plies = max(book_plies, position_book.book_plies(moves, board.opening))
    renju = identify_renju_opening(moves, board.width, board.height)
    opening = None
    if renju is not None:
        name = renju.name_vi if lang == "vi" else renju.name
        opening = t("opening_name", name=name, number=renju.number, kind=t(renju.kind))

    texts = [_alg(board, m) for m in moves]

    def analyse_alternatives(
        pairs: list[tuple[int, str]], budget: Budget = budget
    ) -> dict[tuple[int, str], PositionEval]:
        """The positions after the moves ``(i, move)`` (played at position i), analysed
        within ``budget``."""
        factory = replace(base_factory, budget=budget)
        extra = []
        for i, text in pairs:
            alt = Board(
                width=board.width,
                height=board.height,
                rule=board.rule,
                forbidden="loses",
                opening=board.opening,
            )
            alt.play_moves(moves[:i])
            alt.play(text)
            extra.append(
                (cache_key(alt, budget), GomokuJob(tuple((m.x, m.y) for m in alt.history)))
            )
        raw2, _ = analyse_positions(
            extra, factory, workers=min(workers, len(extra)), cache=cache, **where
        )
        return {pairs[k]: PositionEval.from_dict(v) for k, v in raw2.items()}

    def confirm(pairs: list[tuple[int, str]]) -> dict[tuple[int, str], PositionEval]:
        return analyse_alternatives(pairs, budget.scaled(CONFIRM_FACTOR))

    # one value per position, the best alternatives of the costly moves verified (at most
    # two rounds), the costly verdicts that no proof backs confirmed at a larger budget; the
    # verdicts come from these values
    values = settle_values(
        evals, texts, value_rules(), analyse_alternatives if complete else None,
        thresholds.good, confirm=confirm if complete else None,
        confirm_threshold=thresholds.inaccuracy,
    )  # fmt: skip
    reviews = []
    for i, text in enumerate(texts):
        if i not in evals or i + 1 not in evals:
            continue
        reviews.append(
            judge_move(
                i + 1,
                text,
                evals[i],
                evals[i + 1],
                width=board.width,
                height=board.height,
                book=i < book_plies,
                opening=opening,
                t=t,
                thresholds=thresholds,
                value_before=values[i],
                value_after=values[i + 1],
            )
        )
    winner = {1: "black", 2: "white"}.get(board.winner) if board.is_over else None
    result = winner or ("draw" if board.is_full else record.result)
    summary = summarise(reviews, PLAYERS, result=result, opening=opening)
    game = {
        "game": "gomoku",
        "rule": board.rule,
        "opening_rule": board.opening,
        "width": board.width,
        "height": board.height,
        "players": {"black": record.players[0], "white": record.players[1]},
        "result": result,
        "moves": [_alg(board, m) for m in moves],
        "opening": opening,
        "source": record.source,
        "event": record.event,
    }
    settings = session.review_settings(budget, workers, thresholds, ANALYSIS_VERSION)
    return Review(game, settings, reviews, summary, complete=complete, language=lang)


def review_file(
    path: str,
    request: session.AnalyzeRequest,
    *,
    rule: str | None = None,
    size: str | None = None,
    book: str | None = None,
    opening: str | None = None,
    console=None,
) -> Review:
    """``plies analyze``: read the game (``-`` is stdin), review it with a progress bar, print
    the table and summary, write the JSON and HTML reports. Ctrl-C writes the partial review."""
    import sys

    from rich.console import Console

    from plies.gomoku.records import load_record, read_record

    console = console or Console()
    if path == "-":
        record = read_record(sys.stdin.read(), rule=rule, size=size, source="<stdin>")
    else:
        record = load_record(path, rule=rule, size=size)
    budget = request.budget(solver_share=SOLVER_SHARE)
    from plies.gomoku.book import resolve_book

    opening_book = None
    position_book = None
    board_rule = rule or record.rule or "freestyle"
    board_opening = opening or record.opening or "free"
    if book and book.endswith((".sqlite", ".db")):
        position_book = resolve_book(book, board_rule, record.width, record.height, board_opening)
    else:
        if book:
            opening_book = OpeningBook.load(book, record.width, record.height)
        position_book = resolve_book(
            "default", board_rule, record.width, record.height, board_opening
        )
    review = request.run(
        console,
        lambda cache, progress: review_record(
            record,
            budget,
            rule=rule,
            opening=opening,
            lang=request.lang,
            workers=request.pool_size(),
            cache=cache,
            book=opening_book,
            position_book=position_book,
            on_progress=progress,
            backend=request.backend,
            ray_address=request.ray_address,
        ),
    )
    request.report(review, console)
    return review


DEMO_BUDGET = Budget(nodes=8000, solver_nodes=8000)


def review_demo(record: GameRecord, html_out: str, console) -> Review:
    """``plies demo --html OUT``: review the sample game at a small fixed budget (cached),
    print the notable moves and write the HTML report."""
    from plies.analysis.review import default_workers

    review = session.with_progress(
        console,
        True,
        lambda cache, progress: review_record(
            record, DEMO_BUDGET, workers=default_workers(), cache=cache, on_progress=progress
        ),
    )
    session.report(review, console, notable_only=True, html_out=html_out)
    console.print(f"review written to {html_out}")
    return review
