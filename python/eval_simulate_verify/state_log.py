"""A durable state file's log (``state.json.log`` beside ``state.json``), applied as the
TypeScript ``withStateLog`` applies it: the commits serve appended since its last snapshot, which
a run killed before it stopped leaves behind.

The first line names the snapshot it follows by the sha256 of its bytes
(``{"stateLog":1,"snapshot":"<hex>"}``); each commit is ``{"seq":n,"fake":id,"changes":{...}}``
(the record's per-entity patches); a newer snapshot's mark is ``{"snapshot":"<hex>","seq":n}``
(that snapshot holds commits 1..n; without ``seq``, all of them). A last line without its newline
was never acknowledged and is left out.
"""
from __future__ import annotations

import hashlib
import os
import stat
from typing import Any, Dict, List, Optional

from .canonical_json import parse_json

__all__ = ["apply_entity_patch", "with_state_log"]

#: The most a log may hold, as the TypeScript reader caps it.
MAX_LOG_BYTES = 512 * 1024 * 1024
# One line holds one commit's patches: past this it is refused, as the TypeScript reader refuses it.
MAX_LINE_BYTES = 64 * 1024 * 1024
_ABSENT = object()


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer()


def _is_safe_int(value: Any) -> bool:
    """``Number.isSafeInteger``."""
    return _is_int(value) and abs(value) <= 2**53 - 1


def _shape_problem(value: Dict[str, Any]) -> Optional[str]:
    """Which shape a log's line lacks, in the TypeScript reader's words; None when it has one."""
    if "stateLog" in value:
        version = value["stateLog"]
        if not (_is_int(version) and version == 1) or not isinstance(value.get("snapshot"), str):
            return "a header of a log version this reader does not know"
        return None
    if isinstance(value.get("fake"), str):
        if not _is_safe_int(value.get("seq")) or not isinstance(value.get("changes"), dict):
            return "a commit without a whole seq or an object of changes"
        return None
    if isinstance(value.get("snapshot"), str) and ("seq" not in value or _is_safe_int(value["seq"])):
        return None
    return "neither a header, a commit nor a snapshot's mark"


def _unpointer(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


def _apply_operation(value: Any, segments: List[str], op: Dict[str, Any]) -> Any:
    if not segments:
        return _ABSENT if op["op"] == "remove" else op["value"]
    head, rest = segments[0], segments[1:]
    if isinstance(value, list):
        copy = list(value)
        index = len(copy) if head == "-" else (int(head) if head.isdigit() else -1)
        if index < 0 or index > len(copy):
            raise ValueError(f"[eval-simulate] a patch names index {head} of an array of {len(copy)}")
        if rest:
            copy[index] = _apply_operation(copy[index], rest, op)
        elif op["op"] == "add":
            copy.insert(index, op["value"])
        elif op["op"] == "remove":
            del copy[index]
        else:
            copy[index] = op["value"]
        return copy
    if isinstance(value, dict):
        copy = dict(value)
        if rest:
            copy[head] = _apply_operation(copy.get(head), rest, op)
        elif op["op"] == "remove":
            copy.pop(head, None)
        else:
            copy[head] = op["value"]
        return copy
    raise ValueError(f'[eval-simulate] a patch goes through "{head}" of a value that is not an object or array')


def _keys_of(value: Any, key: str) -> Optional[List[Any]]:
    if not isinstance(value, list):
        return None
    keys: List[Any] = []
    seen = set()
    for item in value:
        ident = item.get(key) if isinstance(item, dict) else None
        if isinstance(ident, bool) or not isinstance(ident, (str, int, float)) or (ident in seen):
            return None
        seen.add(ident)
        keys.append(ident)
    return keys


def _apply(before: Any, patch: Any) -> Any:
    """One entity's patch applied; ``_ABSENT`` stands for an entity that is not there (before or after)."""
    if isinstance(patch, list):
        value = before
        for op in patch:
            path = op["path"]
            segments = [] if path == "" else [_unpointer(s) for s in path[1:].split("/")]
            value = _apply_operation(value, segments, op)
        return value
    key = patch["key"]
    values = [] if before is _ABSENT or before is None else before
    keys = _keys_of(values, key)
    if keys is None:
        raise ValueError(f'[eval-simulate] a keyed patch (by "{key}") applies to an array of records with unique keys')
    records: Dict[Any, Any] = dict(zip(keys, values))
    for k in patch.get("removed") or []:
        records.pop(k, None)
    for record in patch.get("updated") or []:
        records[record[key]] = record
    added = [record[key] for record in patch.get("added") or []]
    for k, record in zip(added, patch.get("added") or []):
        records[k] = record
    added_set = set(added)
    order = patch.get("order")
    if order is None:
        order = [k for k in keys if k in records and k not in added_set] + added
    result = []
    for k in order:
        if k not in records:
            raise ValueError(f'[eval-simulate] a keyed patch orders a record "{k}" it does not hold')
        result.append(records[k])
    return result


def apply_entity_patch(before: Any, patch: Any) -> Any:
    """The value after one entity's patch, as the TypeScript ``applyEntityPatch``: a JSON Patch
    (a list of operations) or a keyed patch of records (``{key, added, updated, removed, order}``).
    ``before`` is left untouched; ``None`` when the patch removes the value."""
    value = _apply(before, patch)
    return None if value is _ABSENT else value


def _size_text(size: int) -> str:
    """A size as the TypeScript reader words it: MiB, KiB or bytes, whichever divides it."""
    if size >= 1024 * 1024 and size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MiB"
    if size >= 1024 and size % 1024 == 0:
        return f"{size // 1024} KiB"
    return f"{size} bytes"


def _read_lines(path: str) -> Optional[List[Dict[str, Any]]]:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"[eval-simulate] cannot read the state log {path}: it is not a regular file")
    if info.st_size > MAX_LOG_BYTES:
        raise ValueError(f"[eval-simulate] cannot read the state log {path}: it is larger than 512 MiB")
    with open(path, "rb") as handle:
        data = handle.read()
    parts = data.split(b"\n")
    for number, raw in enumerate(parts, start=1):
        if len(raw) > MAX_LINE_BYTES:
            raise ValueError(f"[eval-simulate] {path}:{number} the line is longer than {_size_text(MAX_LINE_BYTES)}")
    # The part after the last newline is a write cut short (or empty): never acknowledged.
    lines: List[Dict[str, Any]] = []
    for number, raw in enumerate(parts[:-1], start=1):
        try:
            value = parse_json(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise ValueError(f"[eval-simulate] {path}:{number}: the state log's line is not JSON") from None
        if not isinstance(value, dict):
            raise ValueError(f"[eval-simulate] {path}:{number}: the state log's line is not an object")
        problem = _shape_problem(value)
        if problem is not None:
            raise ValueError(f"[eval-simulate] {path}:{number}: the state log's line is {problem}")
        lines.append(value)
    return lines


def with_state_log(state_file: str, snapshot_bytes: bytes, snapshot: Dict[str, Any]) -> Dict[str, Any]:
    """The world a state file stands for: ``snapshot`` (its parsed bytes) with the commits of
    ``<state_file>.log`` that follow it applied in order; the snapshot as it is without a log, or
    with a log written for another snapshot."""
    log_file = state_file + ".log"
    # A snapshot can be replaced (and its log with it) between the caller's read and this one: a
    # log that follows another snapshot sends the reader back to the file, while it keeps changing.
    for attempt in range(_MAX_REREADS + 1):
        lines = _read_lines(log_file)
        if not lines:
            return snapshot
        applied = _apply_log(log_file, lines, snapshot_bytes, snapshot)
        if applied is not None:
            return applied
        again = _reread(state_file) if attempt < _MAX_REREADS else None
        if again is None or again[0] == snapshot_bytes:
            return snapshot
        snapshot_bytes, snapshot = again
    return snapshot


# How many times a reader goes back to a snapshot replaced under it.
_MAX_REREADS = 3


def _reread(state_file: str) -> Optional[Any]:
    """The state file's bytes and parsed object now, or None when it is no longer one."""
    try:
        info = os.stat(state_file)
        if not stat.S_ISREG(info.st_mode) or info.st_size > 64 * 1024 * 1024:
            return None
        with open(state_file, "rb") as handle:
            data = handle.read()
        value = parse_json(data.decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return (data, value) if isinstance(value, dict) else None


def _apply_log(log_file: str, lines: List[Dict[str, Any]], snapshot_bytes: bytes, snapshot: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The snapshot with the log's commits that follow it applied; None when the log follows another snapshot."""
    header = lines[0]
    if header.get("stateLog") != 1 or not isinstance(header.get("snapshot"), str):
        raise ValueError(f"[eval-simulate] {log_file}: its first line is not a log's header")
    digest = hashlib.sha256(snapshot_bytes).hexdigest()
    commits = [line for line in lines if isinstance(line.get("fake"), str)]
    # The newest mark naming this snapshot wins over the header (a new world started on the same
    # file writes the seed's bytes again, the very ones the old header names), as in TypeScript.
    marks = [line for line in lines[1:] if "fake" not in line and "stateLog" not in line and line.get("snapshot") == digest]
    if marks:
        after = marks[-1].get("seq")
        commits = [] if after is None else [c for c in commits if _is_int(c.get("seq")) and c["seq"] > after]
    elif header["snapshot"] != digest:
        return None
    states = dict(snapshot)
    for commit in commits:
        fake = commit["fake"]
        entities = dict(states.get(fake) or {})
        for name, patch in (commit.get("changes") or {}).items():
            value = _apply(entities.get(name, _ABSENT), patch)
            if value is _ABSENT:
                entities.pop(name, None)
            else:
                entities[name] = value
        states[fake] = entities
    return states
