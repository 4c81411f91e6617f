"""What every game adapter of the review does the same way: a position's engine lines as a
:class:`PositionEval`, the scores of a played move, and the :class:`MoveReview` built from them.

The adapters (:mod:`plies.analysis.gomoku`, :mod:`plies.analysis.chess`) pass their game's
move notation and win-probability sigmoid; the exact facts and the notes stay theirs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from plies.analysis.i18n import Translator
from plies.analysis.review import (
    Budget,
    LineEval,
    MoveReview,
    PositionEval,
    Thresholds,
    classify_loss,
    move_accuracy,
)

WinProbability = Callable[[int], float]


# with a time budget, a position whose value is uncertain gets a second search of the same
# time (2x in all, the hash table kept so it goes deeper): the top two lines this close in
# win probability, or the best move changed in the last iteration
UNCERTAIN_MARGIN = 0.03


def _uncertain(lines: Sequence[LineEval], chosen: Sequence[Any]) -> bool:
    if len(lines) >= 2 and lines[0].win_probability - lines[1].win_probability < UNCERTAIN_MARGIN:
        return True
    return len(chosen) >= 2 and str(chosen[-1]) != str(chosen[-2])


def search_position(
    engine: Any,
    board: Any,
    budget: Budget,
    ply: int,
    *,
    move_text: Callable[[Any], str],
    pv_text: Callable[[Sequence[Any]], list[str]],
    win_probability: WinProbability,
    facts: Callable[[], dict[str, Any]],
) -> PositionEval:
    """A MultiPV search of ``board`` within ``budget`` (from a fresh table when the budget is
    deterministic): the lines best first, but the engine's own choice first when a secondary
    line's bound looks higher; ``facts()`` (the adapter's exact findings) runs after it. With
    a time budget an uncertain position (:data:`UNCERTAIN_MARGIN`) is searched again for the
    same time, keeping the table, and the deeper result is kept (``facts["extra_time"]``)."""
    if budget.deterministic:
        engine.new_game()
    chosen: list[Any] = []

    def run(info: Callable[[Any], None] | None) -> Any:
        return engine.search(
            board, depth=budget.depth, nodes=budget.nodes, movetime=budget.movetime,
            multipv=budget.multipv, info=info,
        )  # fmt: skip

    def lines_of(result: Any) -> list[LineEval]:
        lines = [
            LineEval(move_text(ln.move), int(ln.score), win_probability(ln.score), pv_text(ln.pv))
            for ln in result.lines
        ]
        lines.sort(key=lambda ln: -ln.score)
        if result.move is not None and lines and lines[0].move != move_text(result.move):
            pick = next((ln for ln in lines if ln.move == move_text(result.move)), None)
            if pick is not None:
                lines.remove(pick)
                lines.insert(0, pick)
        return lines

    timed = budget.movetime is not None
    result = run((lambda r: chosen.append(r.move)) if timed else None)
    lines = lines_of(result)
    extra = 0.0
    if timed and budget.retry and _uncertain(lines, chosen):
        again = run(None)
        if again.depth >= result.depth:
            extra = round(again.time, 3)
            seconds = result.time + again.time
            result = again
            lines = lines_of(result)
            result_time = seconds
        else:
            result_time = result.time + again.time
    else:
        result_time = result.time
    best = lines[0] if lines else None
    found = facts()
    if extra:
        found["extra_time"] = extra
    return PositionEval(
        ply,
        lines=lines,
        score=best.score if best else 0,
        win_probability=best.win_probability if best else 0.5,
        depth=result.depth,
        nodes=result.nodes,
        seconds=round(result_time, 3),
        facts=found,
    )


def sides(before: PositionEval, ply: int, players: Sequence[str]) -> tuple[str, str]:
    """The mover of the ``ply``-th move and its opponent, by the colour names ``players``."""
    mover = before.facts.get("to_move", players[(ply - 1) % 2])
    return mover, players[1 - players.index(mover)]


# --- one value per position -------------------------------------------------------------------


@dataclass
class Proof:
    """An exact result for the side to move of a position: ``score`` (a proven win above the
    game's bound, a loss below minus it, or 0 for a draw), the ``line`` that proves it when
    one is known (starting with the side to move's move) and its ``kind`` ("terminal", "vcf",
    "vct", "mate", "search" or "inherited": proven by the position before it)."""

    score: int
    line: list[str]
    kind: str


@dataclass
class Value:
    """The one value of a position (side to move's view) after the backward pass: ``score``,
    the engine ``lines`` with the played move's and the verified alternatives' scores replaced
    by the deeper values after them (best first), and the ``proof`` when it is exact."""

    score: int
    lines: list[LineEval]
    proof: Proof | None = None

    @property
    def top(self) -> LineEval | None:
        return self.lines[0] if self.lines else None

    def line_of(self, move: str) -> LineEval | None:
        return next((ln for ln in self.lines if ln.move == move), None)


@dataclass(frozen=True)
class ValueRules:
    """What the backward pass needs from a game: its sigmoid, the bound beyond which a score is
    proven, the exact proof of a position (or None) and whether a move keeps a proven win
    (beyond being the first move of its line)."""

    win_probability: WinProbability
    bound: int
    proof: Callable[[PositionEval], Proof | None]
    keeps_win: Callable[[PositionEval, str], bool] = lambda _pos, _move: False


def parent_score(child: int, bound: int) -> int:
    """The score of a move from the mover's view, from the score of the position after it
    (the opponent's view): negated, a proven result one ply further away."""
    s = -child
    if s > bound:
        return s - 1
    if s < -bound:
        return s + 1
    return s


def child_score(parent: int, bound: int) -> int:
    """The inverse of :func:`parent_score`: the value after a move that keeps ``parent``."""
    if parent > bound:
        return -(parent + 1)
    if parent < -bound:
        return -(parent - 1)
    return -parent


def proof_from_lines(pos: PositionEval, bound: int) -> Proof | None:
    """A proven search score: the best line wins beyond ``bound``, or even the best line loses
    (every move loses)."""
    if not pos.lines:
        return None
    top = pos.lines[0]
    if top.score > bound or max(ln.score for ln in pos.lines) < -bound:
        best = max(pos.lines, key=lambda ln: ln.score)
        return Proof(best.score, list(best.pv), "search")
    return None


def _own_value(pos: PositionEval, proof: Proof | None) -> int:
    if proof is not None:
        return proof.score
    if pos.lines:
        return max(ln.score for ln in pos.lines)
    return pos.score


def _put(lines: list[LineEval], move: str, score: int, pv: list[str], wp: WinProbability) -> None:
    """Set the score of ``move``'s line (its line becomes ``move`` then ``pv``), or add it."""
    line = next((ln for ln in lines if ln.move == move), None)
    if line is None:
        lines.append(LineEval(move, score, wp(score), [move, *pv]))
    else:
        line.score, line.pv, line.win_probability = score, [move, *pv], wp(score)


def position_values(
    evals: Mapping[int, PositionEval],
    moves: Sequence[str],
    rules: ValueRules,
    alternatives: Mapping[tuple[int, str], PositionEval] | None = None,
) -> dict[int, Value]:
    """One value per analysed position (docs/review.md, "One value per position").

    Proofs first, forwards: a position's own proof (terminal, solver, proven search score);
    it goes on along its line: after a move that keeps a proven win (the first move of its
    line, or ``rules.keeps_win``) the position is a proven loss for the opponent, and after
    the loser's move on the line a proven win with the rest of the line. Then backwards from
    the end: the played move's line gets ``-V(i+1)`` (the position after it was searched on
    its own, one ply deeper), each analysed alternative (``alternatives[(i, move)]``: the
    position after ``move`` played at ``i``) ``-V(alt)``, lines that are missing are added;
    ``V(i)`` is the best of the lines, or the proof's score when there is one (the proof's
    move then heads the lines)."""
    alternatives = alternatives or {}
    bound = rules.bound
    proofs: dict[int, Proof | None] = {i: rules.proof(pos) for i, pos in evals.items()}
    for i in sorted(evals):
        p = proofs[i]
        if p is None or i >= len(moves) or (i + 1) not in evals or proofs.get(i + 1) is not None:
            continue
        move = moves[i]
        if abs(p.score) <= bound:
            continue
        on_line = bool(p.line) and p.line[0] == move
        if on_line or (p.score > bound and rules.keeps_win(evals[i], move)):
            # the proof goes on along its line: a kept win is a loss for the opponent, and the
            # loser's reply on the line leaves the winner's win (the rest of the line); off
            # the line the next position is judged by its own analysis (a proof without its
            # line would name no winning move)
            rest = p.line[1:] if on_line else []
            proofs[i + 1] = Proof(child_score(p.score, bound), rest, "inherited")
    alt_values: dict[tuple[int, str], tuple[int, list[str]]] = {}
    for (i, move), pos in alternatives.items():
        p = rules.proof(pos)
        ev = evals.get(i)
        if p is None and ev is not None:
            q = proofs.get(i)
            if q is not None and q.score > bound and q.line and q.line[0] == move:
                p = Proof(child_score(q.score, bound), q.line[1:], "inherited")
        pv = p.line if p is not None and p.line else (pos.lines[0].pv if pos.lines else [])
        alt_values[(i, move)] = (_own_value(pos, p), list(pv))

    values: dict[int, Value] = {}
    for i in sorted(evals, reverse=True):
        pos = evals[i]
        proof = proofs[i]
        if pos.terminal is not None:
            values[i] = Value(proof.score if proof else pos.score, [], proof)
            continue
        lines = [LineEval(ln.move, ln.score, ln.win_probability, list(ln.pv)) for ln in pos.lines]

        for (j, move), (child, pv) in alt_values.items():
            if j == i and not (i < len(moves) and moves[i] == move):
                _put(lines, move, parent_score(child, bound), pv, rules.win_probability)
        nxt = values.get(i + 1)
        if nxt is not None and i < len(moves):
            pv = nxt.top.pv if nxt.top else (nxt.proof.line if nxt.proof else [])
            _put(lines, moves[i], parent_score(nxt.score, bound), list(pv), rules.win_probability)
        lines.sort(key=lambda ln: -ln.score)  # stable: the engine's order among equals
        score = lines[0].score if lines else pos.score
        if proof is not None:
            if proof.score > bound:
                head = next((ln for ln in lines if proof.line and ln.move == proof.line[0]), None)
                if head is None and proof.line:
                    head = LineEval(proof.line[0], proof.score, 1.0, list(proof.line))
                    lines.append(head)
                if head is not None and head.score < proof.score:
                    head.score, head.pv = proof.score, list(proof.line)
                    head.win_probability = rules.win_probability(proof.score)
                lines.sort(key=lambda ln: -ln.score)
                if head is not None:  # the exact proof names the best move, its line shown
                    lines.remove(head)
                    lines.insert(0, head)
                score = max(score, proof.score)
            else:  # a proven loss or draw: no line does better
                for ln in lines:
                    if ln.score > proof.score:
                        ln.score = proof.score
                        ln.win_probability = rules.win_probability(proof.score)
                score = proof.score
        values[i] = Value(score, lines, proof)
    return values


def _move_losses(
    moves: Sequence[str], values: Mapping[int, Value], rules: ValueRules
) -> Iterator[tuple[int, Value, Value, float]]:
    """``(i, value before, value after, loss)`` for every move ``i`` that is not its
    position's best move, both values known: the loss is the mover's win probability before
    it minus after it."""
    for i, move in enumerate(moves):
        vb, va = values.get(i), values.get(i + 1)
        if vb is None or va is None or vb.top is None or vb.top.move == move:
            continue
        played = parent_score(va.score, rules.bound)
        yield i, vb, va, rules.win_probability(vb.score) - rules.win_probability(played)


def uncertain_moves(
    evals: Mapping[int, PositionEval],
    moves: Sequence[str],
    values: Mapping[int, Value],
    rules: ValueRules,
    threshold: float,
    done: set[tuple[int, str]],
) -> list[tuple[int, str]]:
    """The alternatives to verify: for every move whose loss reaches ``threshold`` and whose
    best move is another one, that best move (unless its value is already exact or it was
    analysed before, ``done``): its line is the position's shallow search while the played
    move was judged one ply deeper."""
    out = []
    for i, vb, _, loss in _move_losses(moves, values, rules):
        assert vb.top is not None
        if (i, vb.top.move) in done or (vb.proof is not None and vb.proof.score > rules.bound):
            continue
        if loss >= threshold:
            out.append((i, vb.top.move))
    return out


Pair = tuple[int, str]  # (position index, move): the position after that move
# analyses of positions after moves, of several games: (game index, pair) -> its analysis
Batch = Callable[[list[tuple[int, Pair]]], dict[tuple[int, Pair], PositionEval]]


# a costly verdict resting on search values alone (no proof on either side) is confirmed at
# CONFIRM_FACTOR times the budget, at most CONFIRM_LIMIT moves a game (the largest losses)
CONFIRM_FACTOR = 4
CONFIRM_LIMIT = 3


def unproven_losses(
    evals: Mapping[int, PositionEval],
    moves: Sequence[str],
    values: Mapping[int, Value],
    rules: ValueRules,
    threshold: float,
) -> list[tuple[float, int]]:
    """``(loss, i)`` for every move ``i`` that loses at least ``threshold`` of win
    probability while neither the position before it nor the one after it has an exact value
    (the verdict rests on the searches alone), largest loss first."""
    out = []
    for i, vb, va, loss in _move_losses(moves, values, rules):
        if vb.proof is not None or va.proof is not None or evals[i + 1].terminal is not None:
            continue
        if loss >= threshold:
            out.append((loss, i))
    return sorted(out, key=lambda item: (-item[0], item[1]))


def settle_many(
    games: Sequence[tuple[dict[int, PositionEval], Sequence[str]]],
    rules: ValueRules,
    analyse: Batch | None,
    threshold: float,
    rounds: int = 2,
    confirm: Batch | None = None,
    confirm_threshold: float = 1.0,
) -> list[dict[int, Value]]:
    """:func:`settle_values` for several games (``(evals, moves)`` each) with one analysis
    call per round for all of them (``analyse`` gets ``(game index, pair)`` items), so a pool
    of workers is started once a round, not once a game.

    Then, with ``confirm`` (the same call at :data:`CONFIRM_FACTOR` times the budget), the
    moves that lose at least ``confirm_threshold`` on search values alone
    (:func:`unproven_losses`, at most :data:`CONFIRM_LIMIT` a game) get the positions before
    and after them and after their best alternative analysed again; the deeper analyses
    replace the shallow ones (in ``evals``, updated in place, so that every row showing
    those positions uses them) and the values are computed again. Then, at most ``rounds``
    times, what the new values made uncertain is verified: the moves from the deeper
    positions against the deeper lines (:func:`deep_uncertain`, at the larger budget), the
    others as before (their new best alternatives, at the budget)."""
    alternatives: list[dict[Pair, PositionEval]] = [{} for _ in games]
    tried: list[set[Pair]] = [set() for _ in games]  # alternatives analysed (any budget)
    deep: list[set[int]] = [set() for _ in games]  # positions analysed at the larger budget
    deep_alts: list[set[Pair]] = [set() for _ in games]  # alternatives analysed at it
    values = [position_values(e, m, rules) for e, m in games]

    def shallow_round(only: set[int] | None = None) -> list[tuple[int, Pair]]:
        """The best alternatives still to verify at the budget, outside deeper positions (of
        the games ``only``, or all)."""
        todo = []
        for g, (evals, moves) in enumerate(games):
            if only is not None and g not in only:
                continue
            pairs = uncertain_moves(evals, moves, values[g], rules, threshold, tried[g])
            todo += [(g, pair) for pair in pairs if pair[0] not in deep[g]]
        return todo if analyse is not None else []

    def run(shallow: list[tuple[int, Pair]], deeper: list[tuple[int, Pair]]) -> None:
        if shallow:
            assert analyse is not None
            for g, pair in shallow:
                tried[g].add(pair)
            for (g, pair), pos in analyse(shallow).items():
                alternatives[g][pair] = pos
        if deeper:
            assert confirm is not None
            for (g, (i, move)), pos in confirm(deeper).items():
                evals, moves = games[g]
                if moves[i] == move:
                    evals[i + 1] = pos  # the played move: the next position of the game
                    deep[g].add(i + 1)
                else:
                    alternatives[g][(i, move)] = pos
                    deep_alts[g].add((i, move))
                    tried[g].add((i, move))
        for g in {g for g, _ in shallow + deeper}:
            evals, moves = games[g]
            values[g] = position_values(evals, moves, rules, alternatives[g])

    for _ in range(rounds):
        todo = shallow_round()
        if not todo:
            break
        run(todo, [])
    if confirm is None:
        return values
    todo = []
    for g, (evals, moves) in enumerate(games):
        pairs: set[Pair] = set()
        for _, i in unproven_losses(evals, moves, values[g], rules, confirm_threshold)[
            :CONFIRM_LIMIT
        ]:
            top = values[g][i].top
            assert top is not None
            pairs.update({(i, moves[i]), (i, top.move)})
            if i >= 1 and (i - 1) in evals:
                pairs.add((i - 1, moves[i - 1]))  # the position before the move
        todo += [(g, pair) for pair in sorted(pairs)]
    if not todo:
        return values
    run([], todo)
    # the confirmation changed values: verify what is uncertain now, at the budget of the
    # position the move was played from; only in the games confirmed (a game reviewed alone
    # without a move to confirm stops before this, so it must here too)
    confirmed = {g for g, _ in todo}
    for _ in range(rounds):
        deeper = [
            (g, pair)
            for g, (evals, moves) in enumerate(games)
            if g in confirmed
            for pair in deep_uncertain(evals, moves, values[g], rules, threshold, deep[g],
                                       deep_alts[g])
        ]  # fmt: skip
        shallow = shallow_round(confirmed)
        if not shallow and not deeper:
            break
        run(shallow, deeper)
    return values


def deep_uncertain(
    evals: Mapping[int, PositionEval],
    moves: Sequence[str],
    values: Mapping[int, Value],
    rules: ValueRules,
    threshold: float,
    deep: set[int],
    deep_alts: set[Pair],
) -> list[Pair]:
    """After a confirmation, the analyses that put a move from a deeper position on an equal
    footing with its lines: for every move ``i`` whose position was analysed at the larger
    budget (``deep``) and that loses at least ``threshold`` against another best move, the
    position after the move (unless ``deep`` already) and the position after that best move
    (unless in ``deep_alts``). The deeper search's lines would otherwise be compared with the
    played move's shallow value, and the move named best would change with the move played."""
    out: list[Pair] = []
    for i, vb, va, loss in _move_losses(moves, values, rules):
        if i not in deep or loss < threshold:
            continue
        assert vb.top is not None
        if vb.proof is not None and vb.proof.score > rules.bound:
            continue  # the best move is proven: its value is exact
        if (i + 1) not in deep and va.proof is None and evals[i + 1].terminal is None:
            out.append((i, moves[i]))
        if (i, vb.top.move) not in deep_alts:
            out.append((i, vb.top.move))
    return out


def settle_values(
    evals: dict[int, PositionEval],
    moves: Sequence[str],
    rules: ValueRules,
    analyse: Callable[[list[Pair]], dict[Pair, PositionEval]] | None,
    threshold: float,
    rounds: int = 2,
    confirm: Callable[[list[Pair]], dict[Pair, PositionEval]] | None = None,
    confirm_threshold: float = 1.0,
) -> dict[int, Value]:
    """:func:`position_values`, then at most ``rounds`` times: analyse the positions after the
    best alternatives of the moves that lose at least ``threshold`` (``analyse(pairs)`` returns
    the analyses it finished) and compute the values again; then the confirmation of
    :func:`settle_many` (``confirm``, ``confirm_threshold``)."""

    def one_game(call: Callable[[list[Pair]], dict[Pair, PositionEval]]) -> Batch:
        def batch(items: list[tuple[int, Pair]]) -> dict[tuple[int, Pair], PositionEval]:
            return {(0, pair): pos for pair, pos in call([p for _, p in items]).items()}

        return batch

    return settle_many(
        [(evals, moves)],
        rules,
        one_game(analyse) if analyse else None,
        threshold,
        rounds,
        one_game(confirm) if confirm else None,
        confirm_threshold,
    )[0]


@dataclass
class MoveScore:
    """A played move against the position's best line: ``top`` (the best line, None without
    lines), the ``played`` and ``best`` scores (the mover's view), their win probabilities,
    the ``loss`` between them and the class it gives."""

    top: LineEval | None
    played: int
    best: int
    is_best: bool
    wp_before: float
    wp_after: float
    loss: float
    classification: str
    lines: list[LineEval]
    equal: bool = False  # the played move is not the top line's but scores the same
    hindsight: bool = False  # the position's own search chose it: its loss is hindsight only
    within_noise: bool = False  # an unproven loss the budget's search cannot tell from noise


def noise_band(p90_by_nodes: Sequence[tuple[int, float]], nodes: int) -> float:
    """The win-probability difference that two searches of ``nodes`` nodes (about) can give two
    equal moves: ``sqrt(2)`` times the 90th percentile of one search's distance from a deeper
    one (``p90_by_nodes``: (nodes, p90) rows, nodes ascending, the adapter's calibration by
    benchmarks/review_noise.py), interpolated on log nodes and held at the table's ends; 0 for
    a position searched with no nodes."""
    if nodes <= 0:
        return 0.0
    xs = [math.log(n) for n, _ in p90_by_nodes]
    ys = [p for _, p in p90_by_nodes]
    x = math.log(nodes)
    if x <= xs[0]:
        p90 = ys[0]
    elif x >= xs[-1]:
        p90 = ys[-1]
    else:
        k = next(i for i in range(1, len(xs)) if x <= xs[i])
        f = (x - xs[k - 1]) / (xs[k] - xs[k - 1])
        p90 = ys[k - 1] + f * (ys[k] - ys[k - 1])
    return math.sqrt(2.0) * p90


def score_from_values(
    move: str,
    before: Value,
    after: Value | None,
    rules: ValueRules,
    thresholds: Thresholds,
    first_choice: str | None = None,
    noise: float = 0.0,
) -> MoveScore:
    """The scores of ``move`` from the one value before it and after it: before = V(i),
    after = -V(i+1), loss = wp(V(i)) - wp(-V(i+1)), at least 0.

    ``first_choice`` is the move the position's own search put first: when the move played is
    that one, its loss comes only from hindsight (the deeper values of the positions after
    it), which the search at the review's budget could not see, so the loss alone makes it
    an inaccuracy at worst (``hindsight``); the adapters' proofs (a missed proven win, a
    proven refutation) still override.

    ``noise`` is how far apart two searches of the budget the positions were searched with
    may value equal moves (win probability; the adapter's calibration): a loss below it that
    no proof backs (neither value is exact) makes the move an inaccuracy at worst
    (``within_noise``), a cautious verdict rather than a wrong one."""
    top = before.top
    if after is not None:
        played = parent_score(after.score, rules.bound)
    else:
        line = before.line_of(move)
        played = line.score if line else before.score
    best = before.score
    is_best = top is None or move == top.move or played >= best
    equal = top is not None and move != top.move and played >= best
    wp_before = rules.win_probability(best)
    wp_after = rules.win_probability(played)
    loss = max(0.0, wp_before - wp_after)
    classification = classify_loss(loss, is_best, thresholds)
    if classification == "best" and not is_best:
        classification = "excellent"  # no loss in winning chances, but a lower score
    hindsight = move == first_choice and classification in ("mistake", "blunder")
    unproven = before.proof is None and (after is None or after.proof is None)
    within_noise = (
        not hindsight and unproven and loss < noise and classification in ("mistake", "blunder")
    )
    if hindsight or within_noise:
        classification = "inaccuracy"
    return MoveScore(
        top, played, best, is_best, wp_before, wp_after, loss, classification,
        list(before.lines), equal, hindsight, within_noise,
    )  # fmt: skip


def better_note(t: Translator, score: MoveScore) -> str:
    """The note naming the better move, its line and the win probabilities (in %)."""
    best = score.top.move if score.top else None
    return t(
        "note_better",
        best=best,
        line=" ".join(score.top.pv if score.top else [best]),
        before=round(100 * score.wp_before),
        after=round(100 * score.wp_after),
    )


def equal_note(t: Translator, score: MoveScore, move: str) -> str:
    """The note for a move that is not the engine's first line but scores the same."""
    return t("note_equal", move=move, best=score.top.move if score.top else move)


def move_review(
    ply: int,
    player: str,
    move: str,
    score: MoveScore,
    classification: str,
    categories: list[str],
    facts: dict[str, Any],
    notes: Sequence[str],
    before: PositionEval,
) -> MoveReview:
    """The verdict record of one move (a book move loses nothing)."""
    loss = 0.0 if classification == "book" else score.loss
    top = score.top
    return MoveReview(
        ply=ply,
        player=player,
        move=move,
        classification=classification,
        categories=categories,
        win_probability_before=score.wp_before,
        win_probability_after=score.wp_after,
        loss=loss,
        accuracy=move_accuracy(loss),
        score_before=int(score.best),
        score_after=int(score.played),
        best_move=top.move if top else None,
        best_line=list(top.pv) if top else [],
        lines=list(score.lines),
        facts=facts,
        explanation=" ".join(notes),
        depth=before.depth,
        nodes=before.nodes,
    )
