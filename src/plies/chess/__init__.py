"""Chess: a compiled alpha-beta engine behind python-chess (positions, moves, UCI, Syzygy).

``plies.chess.position`` is the boundary with python-chess, ``plies.chess.engine`` the numba
kernels and the Python search driver, ``plies.chess.uci`` the UCI front end.
"""
