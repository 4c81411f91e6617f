"""Self-play games for training the Gomoku evaluation.

Each game starts from a seeded random opening (2 to ``random_moves`` stones placed alternately
on legal cells of the central 7x7, so that no two games are alike), then the engine plays both
sides at a fixed node budget, which is fast and reproducible. Random stones often hand one side
a won game (in freestyle, black wins about 80% of such games), so an opening whose search score
at the game's budget is beyond ``balance`` centi-units either way is drawn again (up to 50
times) and games start from positions that are still open. Every engine move keeps its
search score (side to move's view): with the game's result, the label of that position
(:mod:`plies.tune.gomoku_fit`). With ``openings`` (a source of ``plies match --openings``),
a game starts instead from one of those openings, under a random symmetry of the board,
followed by 0 to ``random_moves`` random stones, and the balance check still applies.

Games are written one JSON object a line as they finish (``seed``, ``rule``, ``size``,
``nodes``, ``opening`` = the number of stones before the engine's first move, ``openings``
and ``opening_name`` when the game started from an opening, ``moves`` as pbrain ``x,y``,
``scores`` with ``null`` for the opening's stones, ``pvs``: each engine move's principal
variation, the move itself first, empty for the opening's stones; absent in files written
before session 13; ``winner`` 0/1/2). A game is fully determined by its settings and seed,
so a run that is interrupted (Ctrl-C keeps every finished game) resumes by playing only the
seeds its file lacks.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

from plies.errors import InvalidOption
from plies.gomoku.balanced import random_opening  # shared with the balanced openings
from plies.pool import ignore_interrupt


@dataclass(frozen=True)
class SelfPlaySettings:
    """What a self-play game is: rule, board size, the engine's node budget per move, the most
    random opening stones, the evaluation the engine plays with (``learned``, ``classic``
    or the path of a table) and its pattern network (``learned``: the rule's shipped net,
    ``off``, or the path of a net: self-play with a candidate before it ships); ``openings``:
    where games start (empty: random stones; else ``renju26``, ``balanced`` or a file)."""

    rule: str = "freestyle"
    size: int = 15
    nodes: int = 4000
    random_moves: int = 4
    evaluation: str = "learned"
    balance: int = 300
    net: str = "learned"
    openings: str = ""

    def check(self) -> None:
        if self.nodes < 100:
            raise InvalidOption(f"nodes must be at least 100, not {self.nodes}")
        low = 0 if self.openings else 2
        if not low <= self.random_moves <= 12:
            raise InvalidOption(
                f"random moves must be {low}..12"
                f"{' after an opening' if self.openings else ''}, not {self.random_moves}"
            )
        if self.balance <= 0:
            raise InvalidOption(f"balance must be positive, not {self.balance}")
        if not 9 <= self.size <= 22:
            raise InvalidOption(f"board size must be 9..22 for self-play, not {self.size}")
        check_net(self.net)
        if self.openings:
            start_positions(self)


def check_net(net: str) -> None:
    """InvalidOption unless ``net`` is ``learned``, ``off`` or the path of a net file that the
    engine reads (:func:`plies.gomoku.engine.params.check_table`)."""
    from plies.gomoku.engine.params import check_table

    try:
        check_table("NET", net)
    except ValueError as e:
        raise InvalidOption(f"--net: {e}") from None


_STARTS: dict[tuple, list[tuple[str, tuple[tuple[int, int], ...]]]] = {}


def start_positions(settings: SelfPlaySettings) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """The openings of ``settings.openings`` (a source of ``plies match --openings``:
    ``renju26``, ``balanced`` or a file), each as its name and stones ``(x, y)``; a source
    that does not load is an InvalidOption naming it."""
    from plies.arena.game import GameSetup
    from plies.arena.openings import load_openings

    key = (settings.openings, settings.rule, settings.size)
    if key not in _STARTS:
        setup = GameSetup("gomoku", settings.rule, settings.size, settings.size)
        found = load_openings(settings.openings, setup)
        _STARTS[key] = [
            (o.name, tuple(tuple(int(v) for v in m.split(",")) for m in o.moves)) for o in found
        ]
    return _STARTS[key]


def _transformed(stones, size: int, symmetry: int) -> list[tuple[int, int]] | None:
    """``stones`` under one of the board's eight symmetries about its centre
    (:data:`plies.gomoku.openings.SYMMETRIES`; None when one would leave the board)."""
    from plies.gomoku.openings import SYMMETRIES

    c = size // 2
    out = []
    for x, y in stones:
        dx, dy = SYMMETRIES[symmetry](x - c, y - c)
        if not (0 <= c + dx < size and 0 <= c + dy < size):
            return None
        out.append((c + dx, c + dy))
    return out


def _opening(settings: SelfPlaySettings, board, rng: random.Random) -> str | None:
    """Set up the start of a game on the empty ``board``: random stones, or (with
    ``settings.openings``) one of the openings under a random symmetry followed by up to
    ``random_moves`` random stones; returns the opening's name (None without openings)."""
    from plies.gomoku.notation import Move

    if not settings.openings:
        random_opening(board, rng, rng.randint(2, settings.random_moves))
        return None
    name, stones = rng.choice(start_positions(settings))
    placed = _transformed(stones, settings.size, rng.randrange(8)) or list(stones)
    for x, y in placed:
        board.play(Move(x, y))
    random_opening(board, rng, rng.randint(0, settings.random_moves))
    return name


OPENING_TRIES = 50
_ENGINES: dict[tuple, object] = {}


def _engine(settings: SelfPlaySettings):
    from plies.gomoku.engine import Engine

    key = (settings.rule, settings.size, settings.evaluation, settings.net)
    if key not in _ENGINES:
        _ENGINES.clear()
        params = {"EVAL": settings.evaluation, "NET": settings.net}
        _ENGINES[key] = Engine(settings.rule, settings.size, hash_mb=16, params=params)
    return _ENGINES[key]


def play_game(settings: SelfPlaySettings, seed: int, engine=None) -> dict:
    """One self-play game from the opening of ``seed``, as the record described above
    (``engine``: the engine that plays, one of ``settings``' own when None)."""
    from plies.gomoku import Board

    rng = random.Random(seed)
    engine = _engine(settings) if engine is None else engine
    for _ in range(OPENING_TRIES):
        board = Board(settings.size, settings.rule, forbidden="loses")
        name = _opening(settings, board, rng)
        if board.is_over:
            continue
        engine.new_game()
        if abs(engine.search(board, nodes=settings.nodes).score) <= settings.balance:
            break
    opening = len(board.history)
    engine.new_game()
    scores: list[int | None] = [None] * opening
    pvs: list[list[str]] = [[] for _ in range(opening)]
    while not board.is_over:
        result = engine.search(board, nodes=settings.nodes)
        scores.append(int(result.score))
        pvs.append([m.pbrain() for m in result.pv])
        board.play(result.move)
    fields = asdict(settings)
    if not settings.openings:
        del fields["openings"]  # the records of random openings keep their form
    return {
        "seed": seed,
        **fields,
        "opening": opening,
        **({"opening_name": name} if name is not None else {}),
        "moves": [m.pbrain() for m in board.history],
        "scores": scores,
        "pvs": pvs,
        "winner": int(board.winner),
    }


def _play(args: tuple[SelfPlaySettings, int]) -> dict:
    return play_game(*args)


def done_seeds(path: Path) -> set[int]:
    """The seeds of the games already in ``path`` (a truncated last line is ignored)."""
    seeds: set[int] = set()
    if not path.exists():
        return seeds
    with path.open() as f:
        for line in f:
            try:
                seeds.add(int(json.loads(line)["seed"]))
            except (ValueError, KeyError, TypeError):
                continue
    return seeds


def _local(jobs: list[tuple], workers: int, play: Callable[[tuple], dict]) -> Iterator[dict]:
    if workers <= 1:
        for job in jobs:
            yield play(job)
        return
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(workers, initializer=ignore_interrupt) as pool:
        yield from pool.imap_unordered(play, jobs)


def _ray(jobs: list[tuple], address: str | None, play: Callable[[tuple], dict]) -> Iterator[dict]:
    import ray

    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play)
    pending = [remote.remote(job) for job in jobs]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        yield ray.get(ready[0])


def _drop_partial_line(path: Path) -> None:
    """Cut a last line that an interrupted run left without its newline."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def generate(
    settings: Any,
    games: int,
    path: str | Path,
    *,
    seed: int = 1,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    play: Callable[[tuple], dict] = _play,
) -> int:
    """Play the games of seeds ``seed .. seed + games - 1`` that ``path`` lacks, appending each
    as it finishes; returns how many games the file now holds of that range. A file that holds
    games, none of them in that range, is refused (InvalidOption): it is another run's.
    ``progress(done, total)`` is called after each game. ``play((settings, seed))`` plays one
    game (a module-level function, so worker processes can import it): this module's Gomoku
    game by default, :mod:`plies.tune.chess_data` passes its own."""
    settings.check()
    if backend not in ("local", "ray"):
        raise InvalidOption(f"unknown backend {backend!r}: expected local or ray")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    wanted = range(seed, seed + games)
    held = done_seeds(path)
    have = held & set(wanted)
    if held and not have and games > 0:
        # a file of other seeds is another run's (or an annotation's): appending new games to
        # it would mix two runs, and a fit meant for its games would miss them all
        raise InvalidOption(
            f"{path} holds games of seeds {min(held)}..{max(held)}, none of {seed}.."
            f"{seed + games - 1}: give its first seed (--seed {min(held)}) to resume or fit "
            "on it, or another file for new games"
        )
    jobs = [(settings, s) for s in wanted if s not in have]
    done = len(have)
    if progress:
        progress(done, games)
    if not jobs:
        return done
    _drop_partial_line(path)
    if backend == "ray":
        results = _ray(jobs, ray_address, play)
    else:
        results = _local(jobs, workers, play)
    with path.open("a") as f:
        for record in results:
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
            f.flush()
            done += 1
            if progress:
                progress(done, games)
    return done


class ReplayedMove(NamedTuple):
    """One move of a games file, in its position before the move: the engine state ``st``
    (side to move: the mover) and tables ``tb``, the ``chosen`` cell (engine index), the search
    ``score`` (None for a random stone), the move number ``ply`` and the game's ``record``."""

    record: dict
    ply: int
    st: Any
    tb: Any
    chosen: int
    score: int | None


def replay(
    games: list[dict], rule: str, progress: Callable[[int, int], None] | None = None
) -> Iterator[ReplayedMove]:
    """Every move of ``games`` (records of this module, all ``rule``) in its position: the
    move is made after the consumer is done with it, so the state must be left as found.
    ``progress(done, total)`` after each game."""
    from plies.gomoku import Board
    from plies.gomoku.engine import state as ST

    tables = None
    for g, record in enumerate(games):
        if record.get("rule") != rule:
            raise InvalidOption(f"game {record.get('seed')} is {record.get('rule')}, not {rule}")
        board = Board(record["size"], rule, forbidden="loses")
        if tables is None or tables[0] != record["size"]:
            tables = (
                record["size"],
                ST.make_tables(board.rule_code, {"EVAL": "classic", "THREAT": "off", "NET": "off"}),
            )
        tb = tables[1]
        st, _ = ST.state_from_board(board, tb)
        stride = int(st.info[ST.I_STRIDE])
        for ply, (move, score) in enumerate(zip(record["moves"], record["scores"], strict=True)):
            x, y = (int(v) for v in move.split(","))
            chosen = (y + ST.PAD) * stride + x + ST.PAD
            yield ReplayedMove(record, ply, st, tb, chosen, score)
            ST.make(st, tb, chosen)
        if progress:
            progress(g + 1, len(games))


def load_games(paths: list[str | Path]) -> list[dict]:
    """Every complete game record of the given JSON Lines files."""
    games = []
    for path in paths:
        lines = Path(path).read_text().splitlines()
        for n, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                record["moves"], record["scores"], record["winner"]  # noqa: B018
            except (json.JSONDecodeError, KeyError, TypeError):
                if n == len(lines):
                    break  # cut short by an interrupted run
                raise InvalidOption(f"{path}, line {n}: not a game record") from None
            games.append(record)
    return games


def unique_games(games: list[dict]) -> list[dict]:
    """``games`` without those whose moves repeat an earlier game's, in order. A fixed-node
    engine plays the same game from the same start, so self-play from a few openings
    repeats itself; a repeated game would only weigh its positions more."""
    seen: set[tuple[str, ...]] = set()
    kept = []
    for game in games:
        moves = tuple(game["moves"])
        if moves not in seen:
            seen.add(moves)
            kept.append(game)
    return kept
