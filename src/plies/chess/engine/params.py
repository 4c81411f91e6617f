"""Every tunable number of the chess evaluation and search, in one place (ready for tuning).

Scores are centipawns. Piece-square tables are built here from a few shaping terms (centre
distance, advancement, edge penalties) rather than typed in square by square, so a tuner can
move a handful of numbers. ``eval_arrays(overrides)`` turns the module's values (or a dict of
overrides by name) into the two arrays the kernels read: ``pst[2, 16, 64]`` (middle game and
end game, material included, signed from white's view, indexed by piece code and square) and
``weights[W_COUNT]`` (the other terms, slots ``W_*``).
"""

from __future__ import annotations

import numpy as np

# material, middle game / end game: pawn, knight, bishop, rook, queen
MATERIAL_MG = (78, 335, 343, 470, 972)
MATERIAL_EG = (63, 298, 293, 530, 965)

# piece-square shaping
PAWN_ADVANCE_MG = (0, 6, 3, 6, 10, 29, 51, 0)  # by relative rank
PAWN_ADVANCE_EG = (0, 9, 10, 17, 20, 36, 76, 0)
PAWN_CENTRE_MG = 12  # d/e pawns on ranks 4-5
KNIGHT_CENTRE = (9, 8)  # per step closer to the centre (mg, eg)
BISHOP_CENTRE = (6, 3)
ROOK_SEVENTH = (21, 20)
QUEEN_CENTRE = (1, 5)
KING_CENTRE_EG = 4  # end game: per step closer to the centre
KING_SHELTER_MG = (8, -2, -16, -33, -45, -54, -60, -60)  # by relative rank
KING_FILE_MG = (9, 21, 6, -13, -1, -2, 30, 16)  # castled corners good, centre files bad

# mobility: per reachable square beyond a base count (mg, eg), by piece type
MOBILITY_MG = (0, 0, 2, 6, 4, 4, 0)
MOBILITY_EG = (0, 0, 3, 4, 3, 1, 0)
MOBILITY_BASE = (0, 0, -1, 1, 3, -7, 0)
# per-count corrections to the linear mobility term (mg, eg): by piece type (knight, bishop,
# rook, queen) and the number of squares counted (0..27), index (type - 2) * 28 + count;
# all 0: the linear term alone
MOBILITY_DELTA_MG = (0,) * 112
MOBILITY_DELTA_EG = (0,) * 112
# where mobility is counted (1 on, 0 off): squares not holding an own pawn or the own king
# and not attacked by an enemy pawn (0: every square not holding an own piece, as before
# session 31). On since session 31 with the three mobility rows above refitted for it: +39.0
# +- 26.8 Elo at 10,000 nodes (SPRT H1, docs/chess.md)
MOBILITY_AREA = 1
# space (middle game): per safe square (no own pawn, not attacked by an enemy pawn) on files
# c-f, relative ranks 2-4, counted twice when up to three squares behind an own pawn, times
# the side's knights, bishops, rooks and queens, / 16
SPACE = 0

# pawn structure (mg, eg)
DOUBLED = (-3, 0)
ISOLATED = (7, 20)
PASSED_MG = (0, 8, 8, 6, 22, 55, 67, 0)  # by relative rank
PASSED_EG = (0, 18, 22, 18, 49, 71, 93, 0)
PASSED_FREE_EG = 16  # the square in front is empty
# end game: per square of king distance (Chebyshev) to the square in front of a passed pawn,
# times (relative rank - 2) from the fourth rank on: the enemy king's distance counts for
# the pawn, its own king's against
PASSED_KING_THEIRS_EG = 16
PASSED_KING_OWN_EG = 9
# a pawn defended by an own pawn or with an own pawn beside it on its rank, by relative rank
CONNECTED_MG = (0, 5, 17, 17, 16, 24, 40, 0)
CONNECTED_EG = (0, 1, 6, 0, 2, 18, 23, 0)
# per enemy piece (knight .. queen) attacked by an own pawn
THREAT_BY_PAWN = (39, 24)
# threats by pieces, by the victim's type (pawn .. queen): an enemy piece, or a pawn the
# enemy does not defend, attacked by an own knight or bishop; an enemy queen, or any enemy
# piece or pawn the enemy does not defend, attacked by an own rook. These four, HANGING and
# SAFE_CHECK were added in session 28: fitted alone first (+41 Elo at 10,000 nodes, +51 at
# 100,000), then every number of the evaluation refitted with them (+16 more; all SPRT H1,
# docs/chess.md)
THREAT_BY_MINOR_MG = (10, 11, 14, 11, 7)
THREAT_BY_MINOR_EG = (13, 7, 5, 6, 1)
THREAT_BY_ROOK_MG = (11, 2, 2, 0, 4)
THREAT_BY_ROOK_EG = (21, 4, 2, 0, 2)
# per enemy piece (knight .. queen) attacked and not defended (mg, eg)
HANGING = (15, 10)
# middle game, per piece type (knight, bishop, rook, queen) that can give a safe check: a
# square it attacks from which it would check the enemy king, not holding an own piece and
# not attacked by the enemy
SAFE_CHECK = (8, 7, 15, 17)

# king safety: attack units per attacker type on the king zone, scaled by a table
KING_ATTACK_UNITS = (0, 0, 2, 2, 4, 3, 0)
KING_SAFETY_SCALE = 6  # cp per (units^2 / 4), capped
KING_SAFETY_CAP = 500
SHIELD_PAWN = 5  # mg: per own pawn in front of a castled-side king
OPEN_FILE_NEAR_KING = 20  # mg: per half-open file at or next to the king

# per-square corrections added to the shaped tables (tuned by ``plies train chess``): piece
# type (pawn .. king) x relative rank (0..7) x file distance from the a/h edge (0..3: files
# a-d, mirrored to h-e), index ``(type - 1) * 32 + rank * 4 + file``
# fmt: off
PST_DELTA_MG = (  # by piece (pawn .. king), relative rank, file a-d
    # pawn
    0, 0, 0, 0, 1, 5, 1, -2, -2, 1, 0, -2, -2, -3, 2, 3,
    -5, 0, 1, -2, 2, -1, -3, 0, 0, -1, 0, 2, 0, 0, 0, 0,
    # knight
    0, -7, 2, 1, -1, -1, 0, 5, -3, 0, -7, -7, 4, 2, 6, -3,
    4, 7, 4, -3, 0, 3, 1, 5, -1, -1, 0, 0, -2, 0, 0, 0,
    # bishop
    -2, -2, 0, -2, -3, 2, 2, 4, 2, 7, -4, -8, 1, 1, -2, 2,
    -1, 1, 1, 2, 1, 1, 0, 0, -1, -1, 0, 1, 1, 0, 0, 0,
    # rook
    5, -1, 11, 4, -14, -4, -3, -8, -9, -1, -2, 1, -2, 1, -2, 1,
    3, 1, 2, -1, 2, 2, 1, 2, 1, -1, 1, 1, 1, 2, 0, 0,
    # queen
    -2, 0, -1, -2, -1, -2, 1, 2, -1, 3, 0, -3, 0, 1, 2, -4,
    4, -1, 4, 0, 1, 0, 2, 0, 1, -2, 0, 2, 1, 0, 0, 0,
    # king
    -5, 3, -4, 3, 2, -1, -1, -1, 0, 2, 3, 0, 0, 0, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
)
# fmt: on
# fmt: off
PST_DELTA_EG = (  # by piece (pawn .. king), relative rank, file a-d
    # pawn
    0, 0, 0, 0, 4, 1, 8, -3, -1, -6, -4, 16, 6, 3, -3, -1,
    1, -4, 2, -6, -7, -5, -6, 3, -8, -3, 0, 3, 0, 0, 0, 0,
    # knight
    0, -3, 0, -1, 0, -1, -2, 4, -4, 0, -8, -4, -1, 1, 3, 1,
    3, 2, 5, -2, 1, 2, -1, 4, -1, 0, 0, 1, -2, 0, 0, 1,
    # bishop
    1, -2, 0, -1, -2, -6, 0, -2, 1, 2, -2, 0, 2, 2, -1, 0,
    0, 1, 1, 3, 0, 0, 3, 1, 2, 0, 1, 2, 0, 1, 0, 0,
    # rook
    -10, -2, -1, -7, -6, -3, -4, -8, -3, 2, -1, 0, 1, 3, 3, 2,
    7, 2, 3, 3, 3, 2, 1, 2, 1, 0, 2, 4, 3, 3, 1, 1,
    # queen
    -1, 0, -1, -1, 0, -1, -1, 0, 0, 1, -3, -1, -1, 1, 0, -2,
    1, 1, 2, -1, 0, 0, 1, 1, 1, 0, 1, 2, 1, 0, 0, 0,
    # king
    -8, -9, -3, 2, 7, 4, 5, -1, 2, 5, 0, -6, 0, 4, 5, -3,
    -1, 0, 3, -5, 0, 1, 1, -1, -1, 1, 1, -1, -3, -1, 0, 0,
)
# fmt: on

BISHOP_PAIR = (33, 46)
ROOK_OPEN_FILE = (41, 0)
ROOK_HALF_OPEN = (21, 10)
TEMPO = 8

# score -> win probability: 1 / (1 + exp(-cp / WIN_PROB_SCALE))
WIN_PROB_SCALE = 250.0

# search
LMR_BASE = 0.75
LMR_DIVISOR = 2.25
ASPIRATION_DELTA = 25
ASPIRATION_GROWTH = 100  # after a fail the window's half-width grows by this many percent
RFP_MARGIN = 85  # reverse futility: per ply of depth
RFP_DEPTH = 7
FUTILITY_MARGIN = 100  # futility: base + per ply
FUTILITY_PER_PLY = 110
FUTILITY_DEPTH = 6
LMP_DEPTH = 8
# history pruning: a quiet move (not a killer, not a check) whose history is below
# -HISTORY_PRUNE_MARGIN * depth is skipped at depth <= HISTORY_PRUNE_DEPTH (0: off; off by
# default: no gain measured at 5,000 nodes, docs/chess.md)
HISTORY_PRUNE_DEPTH = 0
HISTORY_PRUNE_MARGIN = 400
# SEE pruning at depth <= SEE_PRUNE_DEPTH (0: off), away from the principal variation and
# out of check: a quiet move (not giving check) whose static exchange loses more than
# SEE_PRUNE_QUIET * depth^2 centipawns, a capture that loses more than SEE_PRUNE_CAPTURE *
# depth, are skipped. On since session 29: +32.1 Elo at 10,000 nodes, +57.0 at 100,000 (H1)
SEE_PRUNE_DEPTH = 6
SEE_PRUNE_QUIET = 30
SEE_PRUNE_CAPTURE = 100
DELTA_MARGIN = 200  # quiescence delta pruning
# ProbCut from this depth (0: off), away from the principal variation and out of check: a
# capture whose static exchange can reach beta + PROBCUT_MARGIN is searched (quiescence, then
# depth - 4) against that raised beta; when it holds there, the node is cut
PROBCUT_DEPTH = 0
PROBCUT_MARGIN = 200
# the transposition table's score refines the static value for pruning (1 on, 0 off): a
# lower bound above it or an upper bound below it takes its place in reverse futility, the
# null move, ProbCut and futility pruning
TT_EVAL = 0
# razoring up to this depth (0: off), away from the principal variation and out of check: a
# node whose static value is RAZOR_MARGIN per ply of depth below alpha is searched by
# quiescence alone, and cut when that fails low too (not on mate or tablebase scores)
RAZOR_DEPTH = 0
RAZOR_MARGIN = 300
NULL_MIN_DEPTH = 3
NULL_VERIFY_DEPTH = 8  # verify null-move cuts from this depth, and always in pawn endings
# singular extension: from this depth (0: off), the TT move is searched one ply deeper when
# every other move fails low against (TT score - SINGULAR_MARGIN * depth) in a search of half
# the depth; when that search fails high above beta instead, the node is cut (multi-cut).
# Off by default: at depth 8, no decision in 600 games at 20,000 nodes (+6 Elo, docs/chess.md)
SINGULAR_DEPTH = 0
SINGULAR_MARGIN = 2
# correction history (1 on, 0 off): the static evaluation is corrected by the mean error the
# searches below it found in positions with the same pawn structure (per side to move)
CORR_HIST = 0
# continuation history (1 on, 0 off): quiet moves are also ordered by how they did after the
# previous move and the one before it (tables by the earlier move's piece and target square
# and this move's piece and target square), and reduced by the sum of the three histories
# divided by LMR_HISTORY_DIV (the butterfly history alone when off). On by default since
# session 28: +20.5 +- 16.8 at 100,000 nodes (SPRT H1), -2.5 at 10,000 (docs/chess.md)
CONT_HIST = 1
LMR_HISTORY_DIV = 6000
# capture history (1 on, 0 off): captures are ordered by MVV-LVA plus a history of how each
# (capturer, target square, victim) did: up after a cut-off, down when tried before one
CAPT_HIST = 0
# Syzygy WDL probes inside the search (with tables loaded): at nodes of at least this depth
# just after a capture or pawn move (UCI SyzygyProbeDepth)
SYZYGY_PROBE_DEPTH = 1
# a clock without movestogo is shared as if this many moves were left (the soft limit is
# left / TIME_MOVES_TO_GO + 3/4 of the increment). 20 against 30: +40 +- 34 Elo in self-play
# at 5+0.05, but 29% against 37% on Stockfish's 2400 rung (session 18, docs/chess.md): 30 kept
TIME_MOVES_TO_GO = 30
# time management by the best move's stability (1 on, 0 off): the soft limit is scaled by
# TIME_STABLE[k] after k iterations in a row with the same best move (k >= 4: the last), and
# by 1 + drop / TIME_DROP_CP (at most 2) when the score fell by ``drop`` cp in the iteration
TIME_STABILITY = 1
TIME_STABLE = (1.6, 1.25, 1.0, 0.85, 0.7)
TIME_DROP_CP = 100
# the names above that the search reads (the rest are the evaluation's)
SEARCH_NAMES = frozenset(
    {
        "LMR_BASE", "LMR_DIVISOR", "ASPIRATION_DELTA", "ASPIRATION_GROWTH", "RFP_MARGIN",
        "RFP_DEPTH", "FUTILITY_MARGIN", "FUTILITY_PER_PLY", "FUTILITY_DEPTH", "LMP_DEPTH",
        "DELTA_MARGIN", "NULL_MIN_DEPTH", "NULL_VERIFY_DEPTH", "WIN_PROB_SCALE",
        "HISTORY_PRUNE_DEPTH", "HISTORY_PRUNE_MARGIN", "SINGULAR_DEPTH", "SINGULAR_MARGIN",
        "SEE_PRUNE_DEPTH", "SEE_PRUNE_QUIET", "SEE_PRUNE_CAPTURE", "PROBCUT_DEPTH",
        "PROBCUT_MARGIN", "TT_EVAL", "SYZYGY_PROBE_DEPTH", "CORR_HIST", "CONT_HIST",
        "LMR_HISTORY_DIV", "CAPT_HIST", "RAZOR_DEPTH", "RAZOR_MARGIN",
        "TIME_MOVES_TO_GO", "TIME_STABILITY", "TIME_STABLE", "TIME_DROP_CP",
    }
)  # fmt: skip

# weights[] slots
W_MOB_MG = 0  # 7 slots by type
W_MOB_EG = 8
W_MOB_BASE = 16
W_DOUBLED_MG = 24
W_DOUBLED_EG = 25
W_ISOLATED_MG = 26
W_ISOLATED_EG = 27
W_PASSED_MG = 32  # 8 slots
W_PASSED_EG = 40  # 8 slots
W_PASSED_FREE_EG = 48
W_KING_UNITS = 56  # 7 slots
W_KING_SCALE = 63
W_KING_CAP = 64
W_SHIELD = 65
W_OPEN_NEAR_KING = 66
W_BISHOP_PAIR_MG = 67
W_BISHOP_PAIR_EG = 68
W_ROOK_OPEN_MG = 69
W_ROOK_OPEN_EG = 70
W_ROOK_HALF_MG = 71
W_ROOK_HALF_EG = 72
W_TEMPO = 73
W_CONNECTED_MG = 74  # 8 slots
W_CONNECTED_EG = 82  # 8 slots
W_PASSED_KING_THEIRS = 90
W_PASSED_KING_OWN = 91
W_THREAT_PAWN_MG = 92
W_THREAT_PAWN_EG = 93
W_THREAT_MINOR_MG = 96  # 8 slots by victim type (pawn = 1 .. queen = 5)
W_THREAT_MINOR_EG = 104
W_THREAT_ROOK_MG = 112
W_THREAT_ROOK_EG = 120
W_HANGING_MG = 128
W_HANGING_EG = 129
W_SAFE_CHECK = 130  # 8 slots by checking piece type (knight = 2 .. queen = 5)
W_MOB_AREA = 138
W_SPACE = 139
W_MOB_DELTA_MG = 144  # 112 slots: (type - 2) * 28 + count
W_MOB_DELTA_EG = 256
W_COUNT = 368

# the evaluation's switches (0 or 1): not numbers for a fit to move
SWITCH_NAMES = frozenset({"MOBILITY_AREA"})
NAMES = [
    n
    for n in dir()
    if n.isupper() and not n.startswith("W_") and n not in ("SEARCH_NAMES", "SWITCH_NAMES")
]


def _get(overrides: dict | None, name: str):
    if overrides and name in overrides:
        return overrides[name]
    return globals()[name]


def eval_arrays(overrides: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(pst, weights)`` for the kernels, from this module's values and ``overrides``."""
    if overrides:
        unknown = set(overrides) - set(NAMES)
        if unknown:
            raise KeyError(f"unknown chess parameter(s): {', '.join(sorted(unknown))}")
    g = lambda name: _get(overrides, name)  # noqa: E731
    pst = np.zeros((2, 16, 64), dtype=np.int32)
    mat_mg, mat_eg = g("MATERIAL_MG"), g("MATERIAL_EG")
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        centre = int(max(abs(2 * f - 7), abs(2 * r - 7)) // 2)  # 0 centre .. 3 edge
        closeness = 3 - centre
        for colour in (0, 1):
            rel = r if colour == 0 else 7 - r
            sign = 1 if colour == 0 else -1
            values = {}
            adv_mg, adv_eg = g("PAWN_ADVANCE_MG")[rel], g("PAWN_ADVANCE_EG")[rel]
            pmg = adv_mg + (g("PAWN_CENTRE_MG") if f in (3, 4) and rel in (3, 4) else 0)
            if f in (0, 7):
                pmg -= 4
            values[1] = (pmg, adv_eg)
            kc = g("KNIGHT_CENTRE")
            values[2] = (
                kc[0] * closeness * 2 - 12 + (4 if rel >= 2 else 0),
                kc[1] * closeness * 2 - 10,
            )
            bc = g("BISHOP_CENTRE")
            diag = 4 if f == r or f == 7 - r else 0
            values[3] = (bc[0] * closeness * 2 - 6 + diag, bc[1] * closeness * 2 - 6)
            rs = g("ROOK_SEVENTH")
            rmg = rs[0] if rel == 6 else (4 if f in (3, 4) and rel == 0 else 0)
            values[4] = (rmg, rs[1] if rel == 6 else 0)
            qc = g("QUEEN_CENTRE")
            corner = 6 if rel == 0 and f in (0, 7) else 0
            values[5] = (qc[0] * closeness - corner, qc[1] * closeness * 2)
            kmg = g("KING_FILE_MG")[f] + g("KING_SHELTER_MG")[rel]
            values[6] = (kmg, g("KING_CENTRE_EG") * closeness * 2 - 15)
            half = min(f, 7 - f)
            delta_mg, delta_eg = g("PST_DELTA_MG"), g("PST_DELTA_EG")
            for t in range(1, 7):
                code = t | (colour << 3)
                cell = (t - 1) * 32 + rel * 4 + half
                mmg = mat_mg[t - 1] if t < 6 else 0
                meg = mat_eg[t - 1] if t < 6 else 0
                pst[0, code, sq] = sign * (mmg + values[t][0] + delta_mg[cell])
                pst[1, code, sq] = sign * (meg + values[t][1] + delta_eg[cell])
    w = np.zeros(W_COUNT, dtype=np.int32)
    w[W_MOB_MG : W_MOB_MG + 7] = g("MOBILITY_MG")
    w[W_MOB_EG : W_MOB_EG + 7] = g("MOBILITY_EG")
    w[W_MOB_BASE : W_MOB_BASE + 7] = g("MOBILITY_BASE")
    w[W_DOUBLED_MG], w[W_DOUBLED_EG] = g("DOUBLED")
    w[W_ISOLATED_MG], w[W_ISOLATED_EG] = g("ISOLATED")
    w[W_PASSED_MG : W_PASSED_MG + 8] = g("PASSED_MG")
    w[W_PASSED_EG : W_PASSED_EG + 8] = g("PASSED_EG")
    w[W_PASSED_FREE_EG] = g("PASSED_FREE_EG")
    w[W_KING_UNITS : W_KING_UNITS + 7] = g("KING_ATTACK_UNITS")
    w[W_KING_SCALE] = g("KING_SAFETY_SCALE")
    w[W_KING_CAP] = g("KING_SAFETY_CAP")
    w[W_SHIELD] = g("SHIELD_PAWN")
    w[W_OPEN_NEAR_KING] = g("OPEN_FILE_NEAR_KING")
    w[W_BISHOP_PAIR_MG], w[W_BISHOP_PAIR_EG] = g("BISHOP_PAIR")
    w[W_ROOK_OPEN_MG], w[W_ROOK_OPEN_EG] = g("ROOK_OPEN_FILE")
    w[W_ROOK_HALF_MG], w[W_ROOK_HALF_EG] = g("ROOK_HALF_OPEN")
    w[W_TEMPO] = g("TEMPO")
    w[W_CONNECTED_MG : W_CONNECTED_MG + 8] = g("CONNECTED_MG")
    w[W_CONNECTED_EG : W_CONNECTED_EG + 8] = g("CONNECTED_EG")
    w[W_PASSED_KING_THEIRS] = g("PASSED_KING_THEIRS_EG")
    w[W_PASSED_KING_OWN] = g("PASSED_KING_OWN_EG")
    w[W_THREAT_PAWN_MG], w[W_THREAT_PAWN_EG] = g("THREAT_BY_PAWN")
    w[W_THREAT_MINOR_MG + 1 : W_THREAT_MINOR_MG + 6] = g("THREAT_BY_MINOR_MG")
    w[W_THREAT_MINOR_EG + 1 : W_THREAT_MINOR_EG + 6] = g("THREAT_BY_MINOR_EG")
    w[W_THREAT_ROOK_MG + 1 : W_THREAT_ROOK_MG + 6] = g("THREAT_BY_ROOK_MG")
    w[W_THREAT_ROOK_EG + 1 : W_THREAT_ROOK_EG + 6] = g("THREAT_BY_ROOK_EG")
    w[W_HANGING_MG], w[W_HANGING_EG] = g("HANGING")
    w[W_SAFE_CHECK + 2 : W_SAFE_CHECK + 6] = g("SAFE_CHECK")
    w[W_MOB_DELTA_MG : W_MOB_DELTA_MG + 112] = g("MOBILITY_DELTA_MG")
    w[W_MOB_DELTA_EG : W_MOB_DELTA_EG + 112] = g("MOBILITY_DELTA_EG")
    w[W_MOB_AREA] = g("MOBILITY_AREA")
    w[W_SPACE] = g("SPACE")
    return pst, w
