"""Reading the answers an agent got, as the TypeScript ``readAnswer``, ``readResult`` and
``answered`` read them: a tool's text (or structured content) turned back into the value it
answered, in the tool's format (``json``, ``prefixed_json``, ``toon``, ``text``, structured) and
checked against its schema, from the ``answers.json`` that ``serve --manifest-dir`` writes.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional

from .canonical_json import canonical_json, js_string, parse_json
from .json_schema import errors_text, schema_issues
from .manifests import read_json_file
from .toon import decode_toon

__all__ = ["load_answers", "read_answer", "read_result", "answer_entries", "answered"]

_ABSENT = object()


def load_answers(manifest_dir: str, fake_id: str) -> Dict[str, Any]:
    """Each tool's answer spec by name, from ``<manifest_dir>/mcp/<fake_id>/answers.json``."""
    return read_json_file(os.path.join(manifest_dir, "mcp", fake_id, "answers.json"), "the answers")


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-be", "surrogatepass")) // 2


def _utf16_slice(text: str, start: int, end: Optional[int] = None) -> str:
    units = text.encode("utf-16-be", "surrogatepass")
    piece = units[start * 2 : None if end is None else end * 2]
    # A cut through a surrogate pair leaves a lone surrogate, as JavaScript's slice does.
    return piece.decode("utf-16-be", "surrogatepass")


def _excerpt(text: str, end: bool = False) -> str:
    """A short, quoted piece of the text for an error: its start, or with ``end`` its end."""
    length = _utf16_len(text)
    if length <= 60:
        return js_string(text)
    return "…" + js_string(_utf16_slice(text, length - 60)) if end else js_string(_utf16_slice(text, 0, 60)) + "…"


def _parse_json(text: str) -> Dict[str, Any]:
    try:
        return {"ok": True, "value": parse_json(text)}
    except (ValueError, RecursionError) as error:
        return {"ok": False, "error": f"the answer is not JSON: {error}"}


def _parse(answer: Dict[str, Any], text: str) -> Dict[str, Any]:
    form = answer.get("format")
    if form == "text":
        return {"ok": True, "value": text}
    if form == "json":
        return _parse_json(text)
    if form == "toon":
        decoded = decode_toon(text)
        return decoded if decoded["ok"] else {"ok": False, "error": f"the answer is not TOON: {decoded['error']}"}
    if form == "prefixed_json":
        prefix = answer.get("prefix") if answer.get("prefix") is not None else ""
        suffix = answer.get("suffix") if answer.get("suffix") is not None else ""
        if not text.startswith(prefix):
            return {"ok": False, "error": f"the answer does not start with its prefix {js_string(prefix)}: {_excerpt(text)}"}
        if _utf16_len(text) < _utf16_len(prefix) + _utf16_len(suffix) or not text.endswith(suffix):
            return {"ok": False, "error": f"the answer does not end with its suffix {js_string(suffix)}: {_excerpt(text, True)}"}
        return _parse_json(text[len(prefix) : len(text) - len(suffix)])
    return {"ok": False, "error": f"unknown answer format {canonical_json(form) if form is not None else 'undefined'}"}


def _checked(schema: Any, value: Any) -> Dict[str, Any]:
    if schema is _ABSENT:
        return {"ok": True, "value": value}
    issues = schema_issues(schema, value)
    if not issues:
        return {"ok": True, "value": value}
    return {"ok": False, "error": f"the answer does not match its schema: {errors_text(issues)}", "issues": issues}


def read_answer(answer: Dict[str, Any], text: str) -> Dict[str, Any]:
    """An answer's text read back into its value: ``{"ok": True, "value"}``, or ``{"ok": False,
    "error", "issues"}`` (``issues`` empty when the text does not even parse). A ``text`` answer
    is the text itself. Raises ``UnsupportedSchema`` for a schema the Python checker cannot check.

    >>> read_answer({"format": "toon"}, "notes[0]:")
    {'ok': True, 'value': {'notes': []}}
    >>> read_answer({"format": "prefixed_json", "prefix": "Sent! "}, 'Sent! {"id":"e1"}')["value"]
    {'id': 'e1'}
    """
    parsed = _parse(answer, text)
    if not parsed["ok"]:
        return {**parsed, "issues": []}
    return _checked(answer.get("schema", _ABSENT) if answer.get("format") != "text" else _ABSENT, parsed["value"])


def read_result(entry: Dict[str, Any], text: Optional[str] = None, structured: Any = _ABSENT) -> Dict[str, Any]:
    """A tool result's answer read where its tool puts it: the structured content for a tool with
    an output schema (its text then ignored), the text for any other. ``entry`` is an answer
    spec from ``answers.json`` or a contract entry ``{"answer": spec}``.

    >>> read_result({"format": "json"}, text='{"ok":true}')
    {'ok': True, 'value': {'ok': True}}
    """
    answer = entry["answer"] if isinstance(entry.get("answer"), dict) and "format" not in entry else entry
    if answer.get("structured") is True:
        if structured is _ABSENT:
            return {"ok": False, "error": "the result has no structured content, which this tool answers with", "issues": []}
        return _checked(answer.get("schema", _ABSENT), structured)
    if text is None:
        return {"ok": False, "error": "the result has no text", "issues": []}
    return read_answer(answer, text)


def _is_answer(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("format"), str)


def answer_entries(source: Any) -> Dict[str, Any]:
    """``{"id"?, "entries": {name: {"answer": spec}}}`` from an ``answers.json`` (answers by
    name), contract entries (``{name: {"answer"}}``) or a manifest with ``tools`` (``[{name, answer}]``)."""
    if not isinstance(source, dict):
        raise ValueError("[eval-simulate] a fake's contract must be an object of tool entries or answers")
    manifest = source["manifest"] if source.get("kind") in ("mcp", "api") and isinstance(source.get("manifest"), dict) else source
    if source.get("kind") == "api" or isinstance(manifest.get("operations"), list):
        raise ValueError(f'[eval-simulate] "{manifest.get("id")}" is an API fake: it has no tool answers to read; read its record lines\' responses instead')
    entries: Dict[str, Any] = {}
    if isinstance(manifest.get("tools"), list):
        for tool in manifest["tools"]:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str) or not _is_answer(tool.get("answer")):
                name = tool.get("name") if isinstance(tool, dict) else None
                raise ValueError(f"[eval-simulate] the manifest's tool {canonical_json(name) if name is not None else 'undefined'} has no answer to read its results by")
            entries[tool["name"]] = {"answer": tool["answer"]}
        return {**({"id": manifest["id"]} if isinstance(manifest.get("id"), str) else {}), "entries": entries}
    for name, value in source.items():
        if isinstance(value, dict) and _is_answer(value.get("answer")):
            entries[name] = {"answer": value["answer"]}
        elif _is_answer(value):
            entries[name] = {"answer": value}
        else:
            raise ValueError(f'[eval-simulate] "{name}" is neither a contract entry ({{ answer }}) nor an answer ({{ format, … }})')
    return {"entries": entries}


def _text_of(result: Dict[str, Any]) -> Optional[str]:
    content = result.get("content") if isinstance(result.get("content"), list) else []
    item = next((part for part in content if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)), None)
    return item["text"] if item else None


def answered(fake: Any, calls: List[Any]) -> List[Dict[str, Any]]:
    """The calls ``fake`` answered, in order, as ``{"name", "args", "result"}`` with ``result``
    decoded by the tool's answer. A refused call (a tool error, a JSON-RPC error) is left out; a
    successful answer outside the contract raises, since a measure taken over it would be invalid.
    When the contract names its fake, record lines of other fakes are skipped.

    Example: ``answered(load_answers("/shared/manifests", "mail"), read_record("/shared/record.jsonl"))``
    gives ``[{"name": "send-email", "args": {…}, "result": {"id": …}}, …]``.
    """
    contract = answer_entries(fake)
    fake_id, entries = contract.get("id"), contract["entries"]
    out: List[Dict[str, Any]] = []
    for index, raw in enumerate(calls):
        if not isinstance(raw, dict) or isinstance(raw.get("api"), str):
            continue
        if fake_id is not None and isinstance(raw.get("server"), str) and raw["server"] != fake_id:
            continue
        name = raw["tool"] if isinstance(raw.get("tool"), str) else raw.get("name")
        if not isinstance(name, str):
            raise ValueError(f"[eval-simulate] call {index} names no tool (expected tool or name)")
        result = raw.get("result")
        if not isinstance(result, dict):
            raise ValueError(f'[eval-simulate] the call {index} to "{name}" holds no tool result')
        if result.get("isError") is True or "error" in result:
            continue
        if name not in entries:
            raise ValueError(f'[eval-simulate] "{name}" answered call {index}, but the contract has no tool of that name: the calls and the contract are of different fakes')
        structured = result["structuredContent"] if "structuredContent" in result else _ABSENT
        reading = read_result(entries[name], text=_text_of(result), structured=structured)
        if not reading["ok"]:
            raise ValueError(f'[eval-simulate] "{name}" answered call {index} outside its contract: {reading["error"]}')
        args = next((raw[key] for key in ("args", "arguments", "input") if raw.get(key) is not None), None)
        out.append({"name": name, "args": args if isinstance(args, dict) else {}, "result": reading["value"]})
    return out
