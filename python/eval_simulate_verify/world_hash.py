"""World hashes, as the TypeScript ``worldHash`` computes them: the sha256 of each entity's
canonical JSON, of each fake (its entities' hashes by name) and of the whole world (the fakes'
hashes by id), so a Python verifier compares a run's final world with a reference by a string.
"""
from __future__ import annotations

import hashlib
from typing import Any, Dict

from .canonical_json import canonical_json, js_key_order

__all__ = ["value_hash", "fake_hash", "world_hash"]


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def value_hash(value: Any) -> str:
    """The sha256 of one JSON value's canonical JSON.

    >>> value_hash({"b": 1, "a": 2}) == value_hash({"a": 2, "b": 1})
    True
    """
    return _sha256(canonical_json(value))


def _own_entries(state: Any) -> Dict[str, Any]:
    """What ``Object.keys`` finds on a state that is not an object: a list's indices, a string's
    characters, nothing for a number or boolean."""
    if isinstance(state, dict):
        return state
    if isinstance(state, (list, str)):
        return {str(i): item for i, item in enumerate(state)}
    return {}


def fake_hash(state: Any) -> Dict[str, Any]:
    """One fake's hash: ``{"hash", "entities"}``, each entity's ``value_hash`` by name and the hash
    of those hashes."""
    own = _own_entries(state)
    entities = {name: value_hash(own[name]) for name in js_key_order(own.keys())}
    return {"hash": _sha256(canonical_json(entities)), "entities": entities}


def world_hash(states: Any) -> Dict[str, Any]:
    """The hash of every fake's state and of the whole world: ``{"hash", "fakes"}``, where
    ``fakes[id]`` is ``fake_hash`` of that fake's state.

    >>> world_hash({"crm": {"notes": []}})["fakes"]["crm"]["entities"]["notes"][:8]
    '4f53cda1'
    """
    if not isinstance(states, dict):
        raise ValueError("[eval-simulate] world_hash needs the states keyed by fake id")
    fakes = {fake: fake_hash(states[fake] if states[fake] is not None else {}) for fake in js_key_order(states.keys())}
    by_id = {fake: entry["hash"] for fake, entry in fakes.items()}
    return {"hash": _sha256(canonical_json(by_id)), "fakes": fakes}
