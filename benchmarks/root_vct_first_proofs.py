"""Does the root VCT find wins the plain search misses?

    python benchmarks/root_vct_first_proofs.py RULE OPENINGS MOVETIME

Self-play of A (root VCT on) against B (off) over the first OPENINGS openings, both colours;
at A's first proof in each game, a fresh engine without the VCT searches that position for
MOVETIME and 4 x MOVETIME: does it see a win? Prints one tuple a game with a proof (line
plies, seen at 1x, seen at 4x, A won the game) and a summary.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import selfplay as SP  # noqa: E402

from plies.gomoku import Board  # noqa: E402
from plies.gomoku.engine import search as S  # noqa: E402
from plies.gomoku.engine.api import Engine  # noqa: E402

rule, n, mt = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
a = Engine(rule, 15, hash_mb=16)
b = Engine(rule, 15, hash_mb=16, params={"ROOT_VCT_SHARE": 0})
probe = Engine(rule, 15, hash_mb=16, params={"ROOT_VCT_SHARE": 0})
firsts = []
for opening in SP.OPENINGS[:n]:
    for a_black in (True, False):
        board = Board.from_moves(opening.split(), 15, rule, forbidden="loses")
        a.new_game()
        b.new_game()
        first = None
        while not board.is_over:
            eng = a if (board.to_move == 1) == a_black else b
            r = eng.search(board, movetime=mt)
            if eng is a and first is None and a.root_vct_stats.get("proved"):
                first = (board.copy(), len(r.pv))
            board.play(r.move)
        if first is not None:
            pos, plies = first
            probe.new_game()
            r1 = probe.search(pos, movetime=mt)
            probe.new_game()
            r4 = probe.search(pos, movetime=4 * mt)
            won = board.winner == (1 if a_black else 2)
            firsts.append((plies, r1.score > S.WIN_BOUND, r4.score > S.WIN_BOUND, won))
            print(firsts[-1], flush=True)
median = sorted(f[0] for f in firsts)[len(firsts) // 2] if firsts else 0
print(
    f"{rule} {mt}: games with a proof {len(firsts)}/{2 * n}; first proof: median line "
    f"{median} plies; plain search saw it: {sum(f[1] for f in firsts)} at {mt}s, "
    f"{sum(f[2] for f in firsts)} at {4 * mt}s; A won {sum(f[3] for f in firsts)}"
)
