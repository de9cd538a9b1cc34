"""Reading a run's record file (``serve --record``, a run dir's ``record.jsonl``): one call per
JSON line, read as the TypeScript ``readRecord`` reads it."""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional

from .canonical_json import parse_json

__all__ = ["read_record"]

_UNSET = object()
_CUT_HEAD = re.compile(r'\{"(server|api)":("(?:[^"\\]|\\.)*"),"(tool|operation)":("(?:[^"\\]|\\.)*")[,}]')


# What String#trim removes: JavaScript's white space and line terminators (not str.strip's set).
_JS_BLANK = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*\\Z")


def _is_call(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    return (isinstance(value.get("server"), str) and isinstance(value.get("tool"), str)) or (
        isinstance(value.get("api"), str) and isinstance(value.get("operation"), str)
    )


def _cut_call(line: str) -> Optional[Dict[str, Any]]:
    """The call a cut-short last line names in its first two keys, its arguments and answer unknown."""
    head = _CUT_HEAD.match(line)
    if not head:
        return None
    first, second = json.loads(head.group(2)), json.loads(head.group(4))
    if head.group(1) == "server" and head.group(3) == "tool":
        return {"server": first, "tool": second}
    if head.group(1) == "api" and head.group(3) == "operation":
        return {"api": first, "operation": second}
    return None


def read_record(path: str, session: Any = _UNSET) -> List[Dict[str, Any]]:
    """The calls of a record file, in the order they were made. Blank lines are skipped; a last
    line cut short with no newline (a run killed mid-write) is read for the call it names. Any
    other line that is not JSON, or not a call (``{server, tool, …}`` or ``{api, operation, …}``),
    raises naming its line number, since a record read in part would under-count what the agent
    did. ``session`` keeps one session's calls (``None``: the process's own world's); by default
    every line is kept. A cut-short call has no ``args`` or ``result`` (they are unknown).

    Example: ``read_record("/shared/record.jsonl")`` gives ``[{"server": "crm", "tool": "list-records", "args": …, "result": …}, …]``.
    """
    try:
        with open(path, "r", encoding="utf-8", errors="replace", newline="") as handle:
            text = handle.read()
    except OSError as error:
        raise ValueError(f"[eval-simulate] cannot read the record {path}: {error.strerror}") from error
    calls: List[Dict[str, Any]] = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if _JS_BLANK.match(line):
            continue
        try:
            value = parse_json(line)
        except ValueError as error:
            # The host writes a call's line before it commits, so a line cut short by a kill -9
            # changed nothing; the call was still made, and its line begins with whom it called.
            if index == len(lines) - 1:
                cut = _cut_call(line)
                if cut:
                    calls.append(cut)
                continue
            raise ValueError(f"[eval-simulate] {path}:{index + 1}: not a JSON line") from error
        if not _is_call(value):
            raise ValueError(f"[eval-simulate] {path}:{index + 1}: not a recorded call: expected {{ server, tool, … }} or {{ api, operation, … }}")
        if session is not _UNSET and value.get("session") != session:
            continue
        calls.append(value)
    return calls
