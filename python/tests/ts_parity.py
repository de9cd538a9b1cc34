"""What the TypeScript tests ask the Python verify, to compare with their own results:

    python3 tests/ts_parity.py worlds FILE   # FILE: {"worlds": [states…], "toon": [text…]}
    python3 tests/ts_parity.py run RUN_DIR   # a serve --run-dir folder

Prints one JSON document: the worlds' hashes and the texts decoded, or the run's verdict.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from eval_simulate_verify import (  # noqa: E402
    answered,
    canonical_json,
    changed_entities,
    decode_toon,
    load_answers,
    load_manifests,
    load_states,
    parse_json,
    read_record,
    world_hash,
    write_attempts,
)


def worlds(path: str) -> dict:
    with open(path, encoding="utf-8") as handle:
        given = parse_json(handle.read())
    return {"hashes": [world_hash(states) for states in given["worlds"]], "toon": [decode_toon(text) for text in given["toon"]]}


def run(folder: str) -> dict:
    manifests = load_manifests(os.path.join(folder, "manifests"))
    states = load_states(folder)
    calls = read_record(os.path.join(folder, "record.jsonl"))
    mcp = [fake for fake, manifest in manifests.items() if manifest["kind"] == "mcp"]
    return {
        "changed": changed_entities(states, manifests),
        "attempts": [f"{call['server']}/{call['tool']}" for call in write_attempts(calls, manifests)],
        "initialHash": world_hash(states["initial"]),
        "finalHash": world_hash(states["final"]),
        "answered": {fake: answered(load_answers(os.path.join(folder, "manifests"), fake), [c for c in calls if c.get("server") == fake]) for fake in mcp},
    }


if __name__ == "__main__":
    command, target = sys.argv[1], sys.argv[2]
    sys.stdout.write(canonical_json(worlds(target) if command == "worlds" else run(target)))
