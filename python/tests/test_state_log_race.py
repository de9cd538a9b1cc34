"""A state file read while serve replaces its snapshot: the reader still gets every acknowledged commit."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from eval_simulate_verify import load_state
from eval_simulate_verify.state_log import with_state_log


def _snapshot(world: Any) -> bytes:
    return (json.dumps(world, indent=2) + "\n").encode("utf-8")


def _log(snapshot: bytes, *lines: Any) -> bytes:
    header = {"stateLog": 1, "snapshot": hashlib.sha256(snapshot).hexdigest()}
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in (header, *lines)).encode("utf-8")


def test_a_reader_of_the_snapshot_replaced_before_it_read_the_log_gets_the_new_world(tmp_path: Any) -> None:
    old = _snapshot({"notes": {"counter": 0}})
    new = _snapshot({"notes": {"counter": 1}})
    (tmp_path / "state.json").write_bytes(new)
    commit = {"seq": 2, "fake": "notes", "changes": {"counter": [{"op": "replace", "path": "", "value": 2}]}}
    (tmp_path / "state.json.log").write_bytes(_log(new, commit))
    # The reader's bytes are the old snapshot's: the new log names the new one.
    world = with_state_log(str(tmp_path / "state.json"), old, json.loads(old))
    assert world == {"notes": {"counter": 2}}


def test_load_state_applies_the_log_to_the_bytes_it_parsed(tmp_path: Any) -> None:
    snapshot = _snapshot({"notes": {"counter": 1}})
    (tmp_path / "state.json").write_bytes(snapshot)
    commit = {"seq": 1, "fake": "notes", "changes": {"counter": [{"op": "replace", "path": "", "value": 2}]}}
    (tmp_path / "state.json.log").write_bytes(_log(snapshot, commit))
    assert load_state(str(tmp_path / "state.json")) == {"notes": {"counter": 2}}


def test_a_log_line_past_the_cap_is_refused_naming_the_file_and_line(tmp_path: Any, monkeypatch: Any) -> None:
    from eval_simulate_verify import state_log

    snapshot = _snapshot({"notes": {"counter": 1}})
    (tmp_path / "state.json").write_bytes(snapshot)
    commit = {"seq": 1, "fake": "notes", "changes": {"counter": [{"op": "replace", "path": "", "value": "x" * 400}]}}
    (tmp_path / "state.json.log").write_bytes(_log(snapshot, commit))
    # The cap as the TypeScript reader's (64 MiB), made small so the test writes little.
    monkeypatch.setattr(state_log, "MAX_LINE_BYTES", 300)
    try:
        load_state(str(tmp_path / "state.json"))
    except ValueError as error:
        assert str(error) == f"[eval-simulate] {tmp_path / 'state.json.log'}:2 the line is longer than 300 bytes"
    else:
        raise AssertionError("a line past the cap was read")
