"""The trainers: what plies learns from its own games.

* :mod:`plies.tune.gomoku_data`: self-play games of the Gomoku engine at a fixed node budget,
  from seeded random openings, spread over a local process pool (or Ray), saved game by game
  in a JSON Lines file that a later run resumes.
* :mod:`plies.tune.gomoku_fit`: the learned evaluation, a value per pattern combination
  (:mod:`plies.gomoku.engine.combos`), fitted to those games' results and search scores; it
  writes the ``.npy`` table the engine loads (the shipped ones live in ``plies/data``).

``plies train gomoku`` runs both. This package may import the game packages (gomoku, chess,
dots), search and arena; nothing below it imports tune.
"""
