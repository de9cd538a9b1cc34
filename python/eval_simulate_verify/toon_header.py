"""TOON's array headers (SPEC.md §6): ``key[N<delim?>]{fields}:``, with 4.4.0's keyed form
``key[N:]{…}:`` and nested field groups ``{id,owner{name,email}}``, parsed as 4.4.0 parses them."""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .toon_lexical import ToonError, closing_quote, string_literal, trim_spaces, unquoted

__all__ = ["Header", "parse_header"]

_LENGTH = re.compile(r"(?:0|[1-9][0-9]*)\Z", re.ASCII)
_DELIMITERS = (",", "\t", "|")


class Header:
    """One array header: its key (None for a root or list-item header), declared length, active
    delimiter, field tree (``[{"name", "children"?}]``) and whether it is keyed."""

    __slots__ = ("key", "length", "delimiter", "fields", "keyed", "leaves")

    def __init__(self, key: Optional[str], length: int, delimiter: str, fields: Optional[List[Dict[str, Any]]], keyed: bool) -> None:
        self.key, self.length, self.delimiter, self.fields, self.keyed = key, length, delimiter, fields, keyed
        self.leaves = _leaf_count(fields or [])


def _leaf_count(fields: List[Dict[str, Any]]) -> int:
    return sum(_leaf_count(field["children"]) if field.get("children") is not None else 1 for field in fields)


def _matching_brace(content: str, start: int) -> int:
    in_quotes = False
    depth = 0
    i = start
    while i < len(content):
        ch = content[i]
        if ch == "\\" and in_quotes and i + 1 < len(content):
            i += 2
            continue
        if ch == '"':
            in_quotes = not in_quotes
        elif not in_quotes and ch == "{":
            depth += 1
        elif not in_quotes and ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _split_fields(content: str, delimiter: str) -> List[str]:
    entries: List[str] = []
    buffer: List[str] = []
    in_quotes = False
    depth = 0
    i = 0
    while i < len(content):
        ch = content[i]
        if ch == "\\" and in_quotes and i + 1 < len(content):
            buffer.append(content[i : i + 2])
            i += 2
            continue
        if ch == '"':
            in_quotes = not in_quotes
        elif not in_quotes and ch == "{":
            depth += 1
        elif not in_quotes and ch == "}":
            depth -= 1
        elif not in_quotes and ch == delimiter and depth == 0:
            entries.append("".join(buffer))
            buffer = []
            i += 1
            continue
        buffer.append(ch)
        i += 1
    entries.append("".join(buffer))
    return entries


def _field_entries(content: str, delimiter: str) -> List[Dict[str, Any]]:
    fields: List[Dict[str, Any]] = []
    for entry in _split_fields(content, delimiter):
        entry = trim_spaces(entry)
        if not entry:
            raise ToonError("Empty field name in field list")
        group = unquoted(entry, "{")
        if group == -1:
            fields.append({"name": string_literal(entry)})
            continue
        name = entry[:group]
        if not name:
            raise ToonError("Missing field name before nested field group")
        if name.endswith(" "):
            raise ToonError("Unexpected whitespace before nested field group")
        end = _matching_brace(entry, group)
        if end == -1:
            raise ToonError("Unmatched brace in field list")
        if end != len(entry) - 1:
            raise ToonError("Unexpected content after nested field group")
        fields.append({"name": string_literal(name), "children": _field_entries(entry[group + 1 : end], delimiter)})
    return fields


def _duplicate(fields: List[Dict[str, Any]]) -> Optional[str]:
    seen = set()
    for field in fields:
        if field["name"] in seen:
            return field["name"]
        seen.add(field["name"])
        if field.get("children") is not None:
            nested = _duplicate(field["children"])
            if nested is not None:
                return nested
    return None


def _bracket(segment: str) -> Tuple[int, str, bool]:
    content, delimiter = segment, ","
    if content.endswith("\t"):
        content, delimiter = content[:-1], "\t"
    elif content.endswith("|"):
        content, delimiter = content[:-1], "|"
    keyed = content.endswith(":")
    if keyed:
        content = content[:-1]
    if not _LENGTH.match(content):
        raise ToonError(f'Invalid array length: "{segment}" (expected non-negative integer with no leading zeros)')
    return int(content), delimiter, keyed


def _gap(text: str) -> str:
    return text.strip(" \t")


def parse_header(content: str) -> Optional[Tuple[Header, Optional[str]]]:
    """The header a line's content holds and the inline values after its colon, or None when the
    line is no header. Raises ToonError for a line that starts a header and breaks its grammar."""
    if content.startswith('"'):
        close = closing_quote(content, 0)
        if close == -1 or content[close + 1 : close + 2] != "[":
            return None
        bracket_start = close + 1
    else:
        bracket_start = unquoted(content, "[")
    if bracket_start == -1:
        return None
    first_colon = unquoted(content, ":")
    if first_colon == -1 or first_colon < bracket_start:
        return None
    bracket_end = unquoted(content, "]", bracket_start)
    if bracket_end == -1:
        raise ToonError("Unterminated bracket segment")
    brace_end = bracket_end + 1
    brace_start = unquoted(content, "{", bracket_end)
    if brace_start != -1 and brace_start < unquoted(content, ":", bracket_end):
        gap = content[bracket_end + 1 : brace_start]
        if gap:
            raise ToonError("Unexpected whitespace between bracket segment and field list" if not _gap(gap) else f'Unexpected content "{_gap(gap)}" between bracket segment and field list')
        found = _matching_brace(content, brace_start)
        if found != -1:
            brace_end = found + 1
    colon = unquoted(content, ":", max(bracket_end, brace_end))
    if colon == -1:
        raise ToonError("Missing colon after array header")
    gap = content[max(bracket_end + 1, brace_end) : colon]
    if gap:
        raise ToonError("Unexpected whitespace between bracket segment and colon" if not _gap(gap) else f'Unexpected content "{_gap(gap)}" between bracket segment and colon')
    key = None
    if bracket_start > 0:
        raw_key = content[:bracket_start]
        if raw_key.endswith((" ", "\t")):
            raise ToonError("Unexpected whitespace between key and bracket segment")
        key = string_literal(raw_key) if raw_key.startswith('"') else raw_key
    after = trim_spaces(content[colon + 1 :])
    length, delimiter, keyed = _bracket(content[bracket_start + 1 : bracket_end])
    fields = None
    if brace_start != -1 and brace_start < colon:
        found = _matching_brace(content, brace_start)
        if found != -1 and found < colon:
            inner = content[brace_start + 1 : found]
            for candidate in _DELIMITERS:
                if candidate != delimiter and unquoted(inner, candidate) != -1:
                    shown = {"\t": "\\t"}
                    raise ToonError(f'Header delimiter mismatch: bracket declares "{shown.get(delimiter, delimiter)}" but field list contains unquoted "{shown.get(candidate, candidate)}"')
            fields = _field_entries(inner, delimiter)
    duplicate = _duplicate(fields) if fields else None
    if keyed and not fields:
        raise ToonError("Keyed header requires a field list")
    if fields and after:
        raise ToonError(f'Duplicate field name "{duplicate}" in field list' if duplicate else "Unexpected content after fields-bearing header colon")
    if duplicate is not None:
        # The TypeScript decoder is strict: a repeated field name is an error there too.
        raise ToonError(f'Duplicate field name "{duplicate}" in field list')
    return Header(key, length, delimiter, fields, keyed), (after or None)
