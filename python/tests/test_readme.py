"""The README's verifier recipe is the file the end-to-end test runs, word for word."""
from __future__ import annotations

import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def read(*parts: str) -> str:
    with open(os.path.join(HERE, "..", *parts), encoding="utf-8") as handle:
        return handle.read()


def test_the_readme_recipe_is_the_tested_recipe_file() -> None:
    blocks = re.findall(r"```python\n(.*?)```", read("README.md"), re.DOTALL)
    assert blocks == [read("recipe", "test_close_acme_renewal.py")]


def test_the_readme_names_every_public_function() -> None:
    import eval_simulate_verify

    readme = read("README.md")
    missing = [name for name in eval_simulate_verify.__all__ if name[0].islower() and f"`{name}" not in readme]
    assert missing == []
