"""The tutorial in docs/search.md runs as written (its Python blocks, in order)."""

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "search.md"


def test_the_tutorial_code_runs() -> None:
    if not DOC.exists():  # an installed package without the docs
        pytest.skip("docs/search.md is not next to the tests")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 2
    namespace: dict = {}
    exec(compile("\n".join(blocks), str(DOC), "exec"), namespace)  # noqa: S102
    # what the tutorial's comments claim
    game = namespace["TakeAway"](21)
    assert namespace["alphabeta"](game).move == 1
    assert namespace["solve"](game).score_text == "win in 11"
    assert namespace["r"].proven and namespace["r"].move == 1
