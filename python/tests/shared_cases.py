"""The cases test/shared-cases/verify-cases.json holds, shared with the TypeScript tests."""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List

from eval_simulate_verify.canonical_json import canonical_json, parse_json

CASES_FILE = os.path.join(os.path.dirname(__file__), "..", "..", "test", "shared-cases", "verify-cases.json")

with open(CASES_FILE, encoding="utf-8") as handle:
    CASES: Dict[str, List[Dict[str, Any]]] = parse_json(handle.read())


def cases(section: str) -> List[Any]:
    """A section's cases as pytest parameters, named by their case."""
    import pytest

    return [pytest.param(case, id=case.get("name") or f"{case.get('server')}/{case.get('tool')}") for case in CASES[section]]


def same_json(actual: Any, expected: Any) -> bool:
    """Equal as JSON values (1 and 1.0 are one number), as the TypeScript toEqual compares them."""
    return canonical_json(actual) == canonical_json(expected)


def without_dir(message: str, folder: str) -> str:
    """An error message with the temporary folder, and the path in it, written ``<dir>``."""
    return re.sub(re.escape(folder) + r"[^ :]*", "<dir>", message)
