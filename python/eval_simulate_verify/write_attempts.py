""""No write attempted": the calls an agent made to a tool (or an API operation) that the entity
map says writes, whether or not the call changed anything, found as the TypeScript
``writeAttempts`` finds them."""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional

from .canonical_json import parse_json
from .manifests import entity_map_of, require_manifests
from .tool_names import ToolNameIndex

__all__ = ["write_attempts"]

Pair = Dict[str, str]
_READ_VERB = re.compile(r"(GET|HEAD|OPTIONS) ")


def _arguments_of(call: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    args = None
    for key in ("args", "input", "arguments", "parameters"):
        if call.get(key) is not None:
            args = call[key]
            break
    if args is None and isinstance(call.get("function"), dict):
        args = call["function"].get("arguments")
    if isinstance(args, str):
        try:
            args = parse_json(args)
        except ValueError:
            return None
    # JavaScript's typeof also calls an array an object; only its "tool" is read.
    return args if isinstance(args, (dict, list)) else None


def _harness_name(call: Dict[str, Any]) -> Optional[str]:
    """``name``, ``toolName``, ``tool_name``, ``tool`` or ``function.name``; Pi's one proxy tool
    ``mcp`` names the real tool in its arguments (``mcp({ tool: "crm_create_note", args })``)."""
    name = next((call[key] for key in ("name", "toolName", "tool_name", "tool") if isinstance(call.get(key), str)), None)
    fn = call.get("function")
    if name is None and isinstance(fn, dict) and isinstance(fn.get("name"), str):
        name = fn["name"]
    if name != "mcp":
        return name
    args = _arguments_of(call)
    inner = args.get("tool") if isinstance(args, dict) else None
    return inner if isinstance(inner, str) else name


def _operation_key(operations: Dict[str, Dict[str, Any]], operation: str) -> Optional[str]:
    if operation in operations:
        return operation
    return next((key for key, spec in operations.items() if f"{_js_str(spec.get('method'))} {_js_str(spec.get('path'))}" == operation), None)


def _js_str(value: Any) -> str:
    return "undefined" if value is None else str(value)


def _writes(manifests: Dict[str, Dict[str, Any]], pair: Pair) -> bool:
    manifest = manifests.get(pair["server"])
    if not manifest:
        return False
    if manifest["kind"] == "api" and manifest.get("emulate"):
        return not _READ_VERB.match(pair["tool"])
    entry = entity_map_of(manifest).get(pair["tool"])
    return entry is not None and len(entry["writes"]) > 0


def _target(call: Dict[str, Any], manifests: Dict[str, Dict[str, Any]], index: ToolNameIndex) -> Optional[Pair]:
    if isinstance(call.get("server"), str) and isinstance(call.get("tool"), str):
        return {"server": call["server"], "tool": call["tool"]}
    if isinstance(call.get("api"), str) and isinstance(call.get("operation"), str):
        manifest = manifests.get(call["api"])
        # An emulate built-in has no entity map: every request that is not a read counts as a write.
        if manifest is not None and manifest["kind"] == "api" and manifest.get("emulate"):
            return None if _READ_VERB.match(call["operation"]) else {"server": call["api"], "tool": call["operation"]}
        tool = _operation_key(manifest["operations"], call["operation"]) if manifest is not None and manifest["kind"] == "api" else None
        return None if tool is None else {"server": call["api"], "tool": tool}
    name = _harness_name(call)
    if name is None:
        return None
    found = index.resolve(name)
    if len(found) <= 1:
        return found[0] if found else None
    if not any(_writes(manifests, pair) for pair in found):
        return None  # whichever was meant, it was no write
    # Guessing could miss a write attempt, and dropping it would score as "no write attempted".
    candidates = ", ".join(f"{pair['server']}/{pair['tool']}" for pair in found)
    raise ValueError(
        f'[eval-simulate] the tool call "{name}" is ambiguous: it may be any of {candidates}, and some of them write; pass tool_name to say which fake it went to'
    )


def write_attempts(calls: List[Any], manifests: Dict[str, Dict[str, Any]], tool_name: Optional[Callable[[Any], Optional[Pair]]] = None) -> List[Dict[str, Any]]:
    """The calls to a tool or operation whose entity map lists writes, each returned with
    ``server`` (the fake's id) and ``tool`` (its contract name), in call order. A refused call
    counts: score it beside ``changed_entities``, not instead of it. Calls are record lines
    (``read_record``) or a transcript's tool calls (``{"name", "args"}``, ``{"toolName", "input"}``,
    ``{"function": {"name"}}``, Pi's ``{"name": "mcp", "args": {"tool"}}``); ``tool_name`` is asked
    first. A name several tools may mean, some of which write, raises rather than guess.

    >>> maps = {"mail": {"id": "mail", "kind": "mcp", "entities": ["emails"], "tools": {"send-email": {"reads": [], "writes": ["emails"]}}}}
    >>> write_attempts([{"name": "mcp__mail__send-email", "args": {}}], maps)
    [{'name': 'mcp__mail__send-email', 'args': {}, 'server': 'mail', 'tool': 'send-email'}]
    """
    require_manifests(manifests, "writeAttempts")
    if not isinstance(calls, list):
        raise ValueError("[eval-simulate] writeAttempts needs the calls as an array")
    index = ToolNameIndex(manifests)
    attempts: List[Dict[str, Any]] = []
    for call in calls:
        if not isinstance(call, dict):
            continue
        pair = tool_name(call) if tool_name else None
        if pair is None:
            pair = _target(call, manifests, index)
        if pair and _writes(manifests, pair):
            attempts.append({**call, "server": pair["server"], "tool": pair["tool"]})
    return attempts
