""""No state changed": the entities a run's tools could write whose value at the end differs from
the value at the start, compared as the TypeScript ``changedEntities`` compares them."""
from __future__ import annotations

from typing import Any, Dict, List

from .canonical_json import canonical_json
from .manifests import entity_map_of, require_manifests

__all__ = ["changed_entities"]


def _state_of(states: Any, fake_id: str, which: str) -> Dict[str, Any]:
    state = states.get(fake_id) if isinstance(states, dict) else None
    if not isinstance(state, dict):
        held = ", ".join(states.keys()) if isinstance(states, dict) and states else "nothing"
        # A fake missing from the states would compare nothing with nothing and pass unseen.
        raise ValueError(f'[eval-simulate] the {which} states hold no state for "{fake_id}"; they hold {held}')
    return state


def _written_entities(manifest: Dict[str, Any]) -> List[str]:
    seen: Dict[str, None] = {}
    for entry in entity_map_of(manifest).values():
        for entity in entry["writes"]:
            seen.setdefault(entity, None)
    return list(seen)


def changed_entities(states: Dict[str, Any], manifests: Dict[str, Dict[str, Any]]) -> List[str]:
    """``['<id>.<entity>', …]``, sorted: every entity a tool or operation of these fakes writes
    whose final value differs from its initial one as a JSON value (``False`` and ``0`` differ,
    key order does not matter, a missing entity differs from a present one). ``states`` is
    ``{"initial": …, "final": …}``, each keyed by fake id (the run dir's ``initial-state.json``
    and ``state.json``). Only the two ends are compared: a change undone within the run is not seen.

    >>> changed_entities({"initial": {"mail": {"emails": []}}, "final": {"mail": {"emails": [{"id": 1}]}}},
    ...                  {"mail": {"id": "mail", "kind": "mcp", "entities": ["emails"], "tools": {"send": {"reads": [], "writes": ["emails"]}}}})
    ['mail.emails']
    """
    require_manifests(manifests, "changedEntities")
    if not isinstance(states, dict):
        raise ValueError("[eval-simulate] changedEntities needs the states as { initial, final }, each keyed by fake id")
    changed: List[str] = []
    for fake_id, manifest in manifests.items():
        initial = _state_of(states.get("initial"), fake_id, "initial")
        final = _state_of(states.get("final"), fake_id, "final")
        for entity in _written_entities(manifest):
            before = canonical_json(initial[entity]) if entity in initial else None
            after = canonical_json(final[entity]) if entity in final else None
            if before != after:
                changed.append(f"{fake_id}.{entity}")
    return sorted(changed, key=lambda name: name.encode("utf-16-be", "surrogatepass"))
