"""Every tunable number of the Gomoku engine, in one place (ready for automatic tuning).

Scores are int32 centi-units. ``PATTERN_VALUE`` scores one line pattern of an empty cell for
the side that could play there; ``CLASS_BONUS`` adds the value of the combination of the four
lines (a four-three is worth far more than a four plus a three). The evaluation of a position
for the side to move is ``sum(own cell values) * ATTACK / 64 - sum(opponent values) * DEFENCE / 64``
over the empty cells; win probability is ``1 / (1 + exp(-score / WIN_PROB_SCALE))``.
"""

from __future__ import annotations

import numpy as np

from plies.gomoku.engine import patterns as P

# PATTERN_VALUE B1..F4, CLASS_BONUS double three / four-three / flex four and ATTACK were
# tuned by SPSA self-play (benchmarks/spsa.py, session 6; docs/engine.md); the rest by hand.
#                     dead forbid B1 F1 B2  F2  B3  F3  B4   F4   F5
PATTERN_VALUE = np.array([0, 0, 3, 0, 2, 13, 19, 70, 97, 390, 2000], dtype=np.int32)

# bonus per threat class (see state.py): none, three, double three, four, four-three,
# flex four, five, forbidden
CLASS_BONUS = np.array([0, 0, 165, 0, 287, 497, 0, 0], dtype=np.int32)

# the cell values: "learned" (the combination table trained by plies.tune and shipped for the
# rule, when there is one; see combos.py), "classic" (PATTERN_VALUE and CLASS_BONUS below) or
# the path of a learned table (.npy)
EVAL = "learned"

# the threat term of the evaluation (threat_eval.py): "learned" (the table trained by plies.tune
# and shipped for the rule, when there is one: plies/data/gomoku-threat-<rule>.npy), "off" or
# the path of a table
THREAT = "learned"

# the pattern network of the evaluation (pattern_net.py): "learned" (the net trained by
# plies.tune and shipped for the rule, when there is one: plies/data/gomoku-net-<rule>.npy),
# "off" or the path of a net
NET = "learned"

# the board size the pattern network's count of far cells (nothing on their four lines,
# combos.FAR_COMBO) is referred to: the nets are trained on 15x15 games, and a larger board
# has more such cells only because it is larger; the sums are kept as if the empty board had
# this size's number of them (0: the board's own count, as trained)
NET_SIZE = 15

# the search's order of quiet moves: "learned" (the policy table trained by plies.tune and
# shipped for the rule, when there is one: plies/data/gomoku-order-<rule>.npy), "classic" (cell
# values plus threat-class bonuses, search.OWN_CLASS_SCORE / BLOCK_CLASS_SCORE) or a table's path
ORDER = "learned"

# weights of own and opponent cell values in the evaluation, in 64ths
ATTACK = 82
DEFENCE = 64

# Renju: whether the evaluation takes black's double-three cells as forbidden (1: they add no
# cell value and no double threat to black's threat mask; 95% of them are forbidden) or as
# double threats (0, before session 27); the move generator checks each one exactly either
# way. +47 Elo in self-play over 800 games (docs/engine.md, "Session 27")
RENJU_33_FORBIDDEN = 1

# score -> win probability scale (centi-units): 1 / (1 + exp(-score / WIN_PROB_SCALE))
WIN_PROB_SCALE = 400.0

assert PATTERN_VALUE.shape[0] == P.N_PATTERNS

# late-move reductions: base + ln(depth) * ln(move number) / divisor plies (truncated); base
# 0.75 measured +11 +- 17 Elo over 1.0 at 20,000 nodes (session 8, docs/engine.md)
LMR_BASE = 0.75
LMR_DIVISOR = 1.6

# below the horizon, an opponent open three is answered for up to this many plies
QTHREE_PLIES = 2
# the VCF probe at the horizon: nodes and attacker moves
VCF_LEAF_NODES = 400
VCF_LEAF_DEPTH = 16

# a move is "tactical" (never reduced or pruned by move count) when it makes at least this
# threat class for the side to move, or takes a cell where the opponent would make at least
# this class (classes: 1 three, 2 double three, 3 four, 4 four-three, 5 flex four). Plain
# fours are not tactical since session 35 (4, was 3: +0.11 +- 0.05 points a game pair against
# Rapfi over 252 openings at 300,000 / 200,000 nodes, H1 in self-play; docs/engine.md)
TACTICAL_OWN = 4
TACTICAL_OPP = 4
# move-count pruning applies up to this remaining depth, after 2 + d(d+2)/2 moves, or with
# LMP_EXP > 0 after 3 + d ** (LMP_EXP / 100) moves (Rapfi's count at 132: 9 moves at depth 4,
# 18 at depth 8, where the default allows 14 and 42)
LMP_DEPTH = 12
LMP_EXP = 0

# reductions by the static move order (centi-units of the order's score; the learned order's
# temperature is about 4,500 a factor e of probability): a quiet move this far below the best
# static order of the moves tried before it at the node is reduced one ply more, one at most
# POLICY_KEEP_GAP below it (or above it) one ply less; POLICY_REDUCE_GAP 0 switches both off
POLICY_REDUCE_GAP = 0
POLICY_KEEP_GAP = 0

# singular extensions: from this remaining depth (0: off), a node's table move (a lower or
# exact bound at most 3 plies shallower) whose siblings, searched to half the depth, all fall
# SE_MARGIN x depth below its value is searched one ply deeper (session 12: 800 games at
# 20,000 nodes against off, +419 =11 -370, pentanomial [38, 7, 287, 4, 64], about +21 Elo,
# 95% interval +4..+39 from the pairs; docs/engine.md)
SE_DEPTH = 8
SE_MARGIN = 4

# TT_EVAL 1 (session 30, +23 and +37 Elo in freestyle self-play, +47 in Renju): where the table
# holds a score whose bound lies beyond the static value (a lower bound above it, an upper bound
# below it), the pruning decisions (reverse futility, razoring, futility, null move) use that
# score instead of the static value.
TT_EVAL = 1
# CUT_LMR (session 30, on: +32 Elo in freestyle self-play over 588 games, SPRT H1; +3.5 over 800
# in Renju): at an expected cut node, quiet moves other than the killers are reduced this many
# plies more. Search refinements measured in session 30 and left off (0 = off):
# FAIL_HIGH_MARGIN: an expected cut node whose static value is this much per ply of depth above
# beta searches its moves that make no four a ply shallower (Rapfi's fail-high reduction).
CUT_LMR = 1
FAIL_HIGH_MARGIN = 0
# LMR_HIST_DIV (0 = off): a late move's reduction falls by (history + continuation history) /
# LMR_HIST_DIV, rounded toward zero (both tables are bounded near +-32,000), as Stockfish and Rapfi
# reduce by their move statistics
LMR_HIST_DIV = 0
# USELESS_DEFENCE_R (0 = off): where the opponent has an open three, a four of ours that does
# not take one of its four cells, more than 4 cells (king moves) from its last move, is searched
# this many plies shallower (Rapfi's useless-defence reduction; such fours delay, rarely defend)
USELESS_DEFENCE_R = 0
# LMR_DEEPER_MARGIN (0 = off): a reduced move whose reduced search beats alpha by more than this
# is re-searched one ply deeper than its unreduced depth (Stockfish's and Rapfi's deeper search)
LMR_DEEPER_MARGIN = 0
# TT_DEEP_FORCED 1: table entries two or more plies below the horizon (forced replies, answers
# to open threes) are stored as depth 256 + depth, so every later probe trusts them (what the
# wrapped depth byte did before session 30); 0 stores them as depth -1
TT_DEEP_FORCED = 1
# futility: up to FUTILITY_DEPTH, where the opponent has no threat to make, a quiet move is
# skipped when the static value + 100 + FUTILITY_MARGIN x depth cannot reach alpha
FUTILITY_DEPTH = 3
FUTILITY_MARGIN = 150
# four quiescence (QFOUR_PLIES 0 = off): a horizon node at most this many plies below the
# horizon where no VCF exists tries its best QFOUR_MOVES plain fours (each answered by its
# forced block) against the static value, as Rapfi's quiescence plays its fours
QFOUR_PLIES = 0
QFOUR_MOVES = 3
# Razoring (a quiet non-PV node this far below alpha per ply of depth, up to RAZOR_DEPTH, drops
# to the horizon search) and reverse futility (up to RFP_DEPTH, RFP_MARGIN a ply above beta).
RAZOR_MARGIN = 300
RAZOR_DEPTH = 2
RFP_DEPTH = 4
RFP_MARGIN = 120

# the threat solver at the root: before a search with a time limit (or a node limit only),
# the VCT solver looks for a win of the side to move with this percent of the budget (0: off)
# and at most this many attacker moves; a proof is played at once
ROOT_VCT_SHARE = 10
ROOT_VCT_DEPTH = 10
# the threat solver's one-ply look-ahead (vct.K_LOOKAHEAD) in the engine's own solver runs (the
# root VCT, the defence check, Engine.vct): an attacker's three starts from its defences times
# this; 0 starts every move from its share of the siblings. Session 38: with 0 the solver
# proved 390 of 508 forced wins from Renju games against Rapfi (benchmarks/vct_game_proofs.py,
# 40,000 nodes) where 2 proved 376, more within every time bound, in 38% less CPU. In games
# level (session 39: self-play about +12 over 830 Renju games, -10 over 400 freestyle games;
# 44.7% against Rapfi in Renju where 2 had 41.8%, z 0.69), so it stays 2
VCT_LOOKAHEAD = 2
# nodes of each VCF probe inside those solver runs (vct.K_VCF_BUDGET): the probes take most of
# the solver's time (12-17x its df-pn nodes). Session 38: 2,000 with VCT_LOOKAHEAD 0 proved 394
# of the 508 game positions within the same time bounds as 20,000, in 25% less CPU, but scored
# 39.9% against Rapfi in Renju (session 39; 44.7% without it): not used
VCT_VCF_BUDGET = 20000
# 1: the root VCT keeps its solver's tables from one run to the next of the same game and
# attacker (proofs found, work towards unfinished ones, the VCF probes' cache; disproofs are
# forgotten, since a depth or time limit may have made them), so a proof too long for one
# move's share can finish over several moves; 0 (the default): each run starts empty.
# Written in session 39, not yet measured
VCT_KEEP = 0
# the hot share: when this engine's search of the same side's previous move in the game (two
# plies earlier) scored at least ROOT_VCT_HOT_SCORE, the root VCT gets ROOT_VCT_HOT_SHARE
# percent instead: a side well ahead often has a forced win that a deep threat search proves
# and the PVS misses (0: off)
ROOT_VCT_HOT_SHARE = 0
ROOT_VCT_HOT_SCORE = 600

# the defence check: once an iteration of at least DEFENCE_VCT_DEPTH has chosen a root move
# not checked yet, the VCT solver looks for a win of the opponent after it, with at most this
# percent of the budget (0: off); a move it proves lost is excluded and the iteration is
# searched again; after DEFENCE_VCT_TRIES refuted moves the position is taken as lost and
# the exclusions are lifted
DEFENCE_VCT_SHARE = 0
DEFENCE_VCT_TRIES = 4
DEFENCE_VCT_DEPTH = 4

# the reply check: the same check by a search instead of the threat solver. Once an iteration
# of at least DEFENCE_VCT_DEPTH has chosen a root move not checked yet, the position after it
# is searched on its own (iterative deepening, the shared table, at most this percent of the
# budget, 0: off); a move after which that search proves the opponent's win is excluded like a
# refuted one (DEFENCE_VCT_TRIES bounds both checks together). A search from the reply
# position finds wins the root's reduced subtree missed (session 14: in lost games against
# Rapfi, 100,000 nodes after the move played proved the loss that 400,000 at the root missed)
DEFENCE_SEARCH_SHARE = 0

# per-rule overrides of the numbers above, tuned for one rule alone (benchmarks/spsa.py
# --rules R); every reader goes through rule_value (an Engine's params still win)
# Renju: session 11's Renju-only SPSA run (1,421 game pairs at 8,000 nodes); against the shared
# values at 20,000 nodes, 300 games +161 =6 -133 (+33 +- 40), and an earlier point of the same
# run (iteration 1,085) +164 =2 -134 (+35 +- 40) over 300 more (docs/engine.md)
RULE_PARAMS: dict[str, dict] = {
    "renju": {
        "PATTERN_VALUE": [0, 0, 0, 0, 1, 11, 19, 69, 145, 439, 2000],
        "CLASS_BONUS": [0, 0, 148, 0, 305, 516, 0, 0],
        "ATTACK": 84,
    },
}


def rule_value(name: str, rule: int | str):
    """The number (or table) ``name`` for ``rule`` (a rule name or code): its
    :data:`RULE_PARAMS` entry, else the shared value above."""
    if isinstance(rule, int):
        from plies.gomoku.rules import RULE_NAMES

        rule = RULE_NAMES[rule]
    own = RULE_PARAMS.get(str(rule).lower(), {})
    return own[name] if name in own else globals()[name]


# the integer numbers the search reads per engine (Engine passes them to the kernels)
SEARCH_NUMBERS = (
    "QTHREE_PLIES",
    "VCF_LEAF_NODES",
    "VCF_LEAF_DEPTH",
    "TACTICAL_OWN",
    "TACTICAL_OPP",
    "LMP_DEPTH",
    "LMP_EXP",
    "POLICY_REDUCE_GAP",
    "POLICY_KEEP_GAP",
    "SE_DEPTH",
    "SE_MARGIN",
    "FAIL_HIGH_MARGIN",
    "TT_EVAL",
    "RAZOR_MARGIN",
    "RAZOR_DEPTH",
    "RFP_DEPTH",
    "RFP_MARGIN",
    "CUT_LMR",
    "LMR_HIST_DIV",
    "USELESS_DEFENCE_R",
    "LMR_DEEPER_MARGIN",
    "TT_DEEP_FORCED",
    "FUTILITY_DEPTH",
    "FUTILITY_MARGIN",
    "QFOUR_PLIES",
    "QFOUR_MOVES",
    "ROOT_VCT_SHARE",
    "ROOT_VCT_DEPTH",
    "VCT_LOOKAHEAD",
    "VCT_VCF_BUDGET",
    "VCT_KEEP",
    "ROOT_VCT_HOT_SHARE",
    "ROOT_VCT_HOT_SCORE",
    "DEFENCE_VCT_SHARE",
    "DEFENCE_VCT_TRIES",
    "DEFENCE_VCT_DEPTH",
    "DEFENCE_SEARCH_SHARE",
)

# the names Engine(params=...) may override
TUNABLE = (
    "EVAL",
    "ORDER",
    "THREAT",
    "NET",
    "NET_SIZE",
    "COMBO_VALUE",
    "PATTERN_VALUE",
    "CLASS_BONUS",
    "ATTACK",
    "DEFENCE",
    "RENJU_33_FORBIDDEN",
    "LMR_BASE",
    "LMR_DIVISOR",
) + SEARCH_NUMBERS


# the table choices: the names every table parameter takes besides the path of a table file
TABLE_CHOICES = {
    "EVAL": ("learned", "classic"),
    "ORDER": ("learned", "classic"),
    "THREAT": ("learned", "off"),
    "NET": ("learned", "off"),
}


def number_names() -> list[str]:
    """The tunable scalar numbers (what ``NAME=VALUE`` can set besides the tables)."""
    return [
        n
        for n in TUNABLE
        if n in globals() and np.ndim(globals()[n]) == 0 and not isinstance(globals()[n], str)
    ]


def parse_number(name: str, text: str) -> int | float:
    """``text`` as the value of the scalar number ``name`` (an int when it is whole); raises
    KeyError for a name that is no such number, ValueError (saying why) for text that is no
    number or a value out of the number's range (:func:`check_number`)."""
    if name not in number_names():
        raise KeyError(name)
    try:
        number = float(text)
    except ValueError:
        raise ValueError(f"option {name} must be a number, not {text!r}") from None
    value = int(number) if number.is_integer() else number
    check_number(name, value)
    return value


def check_number(name: str, value: float) -> None:
    """ValueError (saying why) when ``value`` is out of the range the scalar ``name`` takes;
    most numbers take any value, a few are bounded (``NET_SIZE``: 0 or a board size,
    the switches ``RENJU_33_FORBIDDEN``, ``TT_EVAL`` and ``VCT_KEEP``: 0 or 1;
    ``VCT_VCF_BUDGET``: a whole number of nodes, at least 1)."""
    from plies.gomoku.rules import MAX_SIZE, MIN_SIZE

    if name in ("RENJU_33_FORBIDDEN", "TT_EVAL", "VCT_KEEP") and value not in (0, 1):
        raise ValueError(f"{name} must be 0 or 1, not {value}")
    if name == "VCT_VCF_BUDGET" and not (value >= 1 and float(value).is_integer()):
        # (no budget would hide every VCF of the defender: the solver's wins would be false)
        raise ValueError(f"VCT_VCF_BUDGET must be a whole number of nodes, at least 1, not {value}")
    if name == "NET_SIZE" and value != 0 and value not in range(MIN_SIZE, MAX_SIZE + 1):
        raise ValueError(f"NET_SIZE must be 0 or a board size {MIN_SIZE}..{MAX_SIZE}, not {value}")


def check_table(name: str, value: str) -> str:
    """``value`` for the table parameter ``name`` (``EVAL``, ``ORDER``, ``THREAT``, ``NET``): one
    of its choices, or a file that loads as such a table; raises ValueError saying why not."""
    if value in TABLE_CHOICES[name]:
        return value
    from plies.gomoku.engine import combos, pattern_net, threat_eval

    load = {
        "EVAL": combos.load_values,
        "ORDER": combos.load_order,
        "NET": pattern_net.load_net,
    }.get(name, threat_eval.load_threat)
    try:
        load(value)
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot load {value!r}: {exc}") from None
    return value
