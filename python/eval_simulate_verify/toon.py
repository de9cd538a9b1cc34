"""A TOON decoder, written to the TOON specification (github.com/toon-format/spec, SPEC.md) and
checked against what ``@toon-format/toon`` 4.4.0, the encoder the fakes answer with, writes.

Strict mode throughout, as the TypeScript ``decodeToon`` decodes: declared lengths and row widths
must match, indentation is two spaces per level, no tabs in it, no blank lines inside an array,
only the escapes ``\\\\ \\" \\n \\r \\t`` (and ``\\uXXXX``, below), a colon after every key, no
duplicate sibling keys.

Where 4.4.0 writes or reads beyond the spec, this decoder follows it, so a Python check reads an
answer exactly when the TypeScript one does:

- ``key: []`` (and a root ``[]``) is an empty array; the spec's ``key[0]:`` is read too.
- numbers may be written with an exponent (``1e+21``, ``1e-7``), as ``String(number)`` writes them.
- a tabular header's field may hold a group of fields, ``items[2]{id,owner{name,email}}:``, for a
  column of uniform objects; each row carries the leaves in order.
- a keyed header ``key[N:]{fields}:`` is an object of N entries, one ``entryKey: cells`` line each.
- ``\\uXXXX`` escapes (not a lone surrogate), which 4.4.0 writes for control characters.
- a line whose content starts with ``#`` outside quotes and tab-free indentation is a comment.
- a byte order mark before the first line, and CR before each LF, are dropped.

Not read: the spec's mixed columnar form (§9.3.2), which 4.4.0 neither writes nor reads, and path
expansion (§13.4, off by default). Numbers are doubles, as in JavaScript: an integer token becomes
an ``int`` equal to the double it rounds to, any other number a ``float``; a token that is not a
finite number stays a string.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from .toon_header import Header, parse_header
from .toon_lines import Line, fail, scan
from .toon_lexical import ToonError, key_token, primitive, split_values, trim_spaces, unquoted

__all__ = ["decode_toon", "ToonError"]


def _is_array_header_content(content: str) -> bool:
    return trim_spaces(content).startswith("[") and unquoted(content, ":") != -1


def _is_data_row(content: str, delimiter: str) -> bool:
    colon = unquoted(content, ":")
    found = unquoted(content, delimiter)
    return colon == -1 or (found != -1 and found < colon)


def _object_from_fields(fields: List[Dict[str, Any]], cells: List[Any]) -> Dict[str, Any]:
    position = 0

    def walk(nodes: List[Dict[str, Any]]) -> Dict[str, Any]:
        nonlocal position
        out: Dict[str, Any] = {}
        for node in nodes:
            if node.get("children") is not None:
                out[node["name"]] = walk(node["children"])
            else:
                out[node["name"]] = cells[position]
                position += 1
        return out

    return walk(fields)


class _Decoder:
    def __init__(self, text: str) -> None:
        self.lines, self.blanks = scan(text)
        self.position = 0
        self.last: Optional[Line] = None

    def peek(self) -> Optional[Line]:
        return self.lines[self.position] if self.position < len(self.lines) else None

    def read(self) -> Line:
        line = self.lines[self.position]
        self.position += 1
        self.last = line
        return line

    def header(self, content: str, line: Line) -> Optional[Tuple[Header, Optional[str]]]:
        try:
            return parse_header(content)
        except ToonError as error:
            raise fail(str(error), line) from None

    def primitive(self, token: str, line: Line) -> Any:
        try:
            return primitive(token)
        except ToonError as error:
            raise fail(str(error), line) from None

    def document(self) -> Any:
        first = self.peek()
        if first is None:
            return {}
        if first.depth != 0:
            raise fail(f"Over-indented line: expected depth 0, but found {first.depth}", first)
        if trim_spaces(first.content) == "[]":
            self.read()
            self.fully_consumed()
            return []
        if _is_array_header_content(first.content):
            found = self.header(first.content, first)
            if found:
                self.read()
                value = self.array(found[0], found[1], 0, first)
                self.fully_consumed()
                return value
        self.read()
        following = self.peek()
        is_key_value = unquoted(first.content, ":") != -1
        if following is None and not is_key_value:
            return self.primitive(first.content, first)
        if not is_key_value and following is not None and following.depth == 0:
            raise fail("Top-level document must start with a key-value or array-header line", first)
        root: Dict[str, Any] = {}
        seen: set = set()
        self.key_value(first, 0, root, seen)
        while True:
            line = self.peek()
            if line is None:
                break
            if line.depth != 0:
                raise fail(f"Over-indented line: expected depth 0, but found {line.depth}", line)
            self.read()
            self.key_value(line, 0, root, seen)
        return root

    def fully_consumed(self) -> None:
        line = self.peek()
        if line is not None:
            raise fail("Unexpected content after the document root", line)

    @staticmethod
    def claim(key: str, line: Line, seen: set) -> None:
        if key in seen:
            raise fail(f'Duplicate sibling key "{key}"', line)
        seen.add(key)

    def key_value(self, line: Line, base: int, target: Dict[str, Any], seen: set) -> None:
        found = self.header(line.content, line)
        if found and found[0].key is not None:
            self.claim(found[0].key, line, seen)
            target[found[0].key] = self.array(found[0], found[1], base, line)
            return
        if found:
            raise fail("Keyless array header is only valid at the document root or as a list item", line)
        try:
            key, end = key_token(line.content, 0)
        except ToonError as error:
            raise fail(str(error), line) from None
        rest = trim_spaces(line.content[end:])
        self.claim(key, line, seen)
        if not rest:
            nxt = self.peek()
            if nxt is not None and nxt.depth > base:
                self.no_depth_jump(nxt, base)
                target[key] = self.object_fields(base + 1)
            else:
                target[key] = {}
        elif rest == "[]":
            target[key] = []
        else:
            target[key] = self.primitive(rest, line)

    @staticmethod
    def no_depth_jump(line: Line, parent: int) -> None:
        if line.depth > parent + 1:
            raise fail(f"Indentation depth jump: expected depth {parent + 1}, but found {line.depth}", line)

    def object_fields(self, base: int) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        seen: set = set()
        depth: Optional[int] = None
        while True:
            line = self.peek()
            if line is None or line.depth < base:
                return out
            depth = line.depth if depth is None else depth
            if line.depth != depth:
                raise fail(f"Over-indented line: expected depth {depth}, but found {line.depth}", line)
            self.read()
            self.key_value(line, depth, out, seen)

    def content_depth(self, base: int) -> int:
        first = self.peek()
        if first is not None and first.depth > base + 1:
            self.no_depth_jump(first, base)
        return base + 1

    def no_blank_lines(self, start: Optional[int], end: Optional[int], what: str) -> None:
        if start is None or end is None:
            return
        blank = next((number for number in self.blanks if start < number < end), None)
        if blank is not None:
            raise ToonError(f"Line {blank}: Blank lines inside {what} are not allowed in strict mode")

    @staticmethod
    def count(actual: int, expected: int, what: str, line: Line) -> None:
        if actual != expected:
            raise fail(f"Expected {expected} {what}, but got {actual}", line)

    def array(self, header: Header, inline: Optional[str], base: int, line: Line) -> Any:
        if header.keyed:
            return self.keyed_object(header, base, line)
        if inline:
            try:
                values = [primitive(token) for token in split_values(inline, header.delimiter)]
            except ToonError as error:
                raise fail(str(error), line) from None
            self.count(len(values), header.length, "inline-form values", line)
            return values
        if header.fields:
            return self.tabular(header, base, line)
        return self.list_items(header, base, line)

    def cells(self, text: str, header: Header, line: Line, what: str) -> Dict[str, Any]:
        try:
            tokens = split_values(text, header.delimiter)
            self.count(len(tokens), header.leaves, what, line)
            return _object_from_fields(header.fields, [primitive(token) for token in tokens])
        except ToonError as error:
            if str(error).startswith("Line "):
                raise
            raise fail(str(error), line) from None

    def keyed_object(self, header: Header, base: int, header_line: Line) -> Dict[str, Any]:
        depth = self.content_depth(base)
        out: Dict[str, Any] = {}
        seen: set = set()
        start = end = None
        last = header_line
        while True:
            line = self.peek()
            if line is None or line.depth <= base:
                break
            if line.depth != depth:
                raise fail(f"Over-indented line: expected depth {depth}, but found {line.depth}", line)
            if unquoted(line.content, ":") == -1:
                raise fail("Expected entry row inside keyed tabular object", line)
            self.read()
            start = line.number if start is None else start
            end = line.number
            last = line
            try:
                key, after = key_token(line.content, 0)
            except ToonError as error:
                raise fail(str(error), line) from None
            self.claim(key, line, seen)
            out[key] = self.cells(trim_spaces(line.content[after:]), header, line, "keyed entry cells")
        self.count(len(out), header.length, "keyed entries", last)
        self.no_blank_lines(start, end, "keyed tabular object")
        return out

    def tabular(self, header: Header, base: int, header_line: Line) -> List[Any]:
        depth = self.content_depth(base)
        rows: List[Any] = []
        start = end = None
        last = header_line
        while len(rows) < header.length:
            line = self.peek()
            if line is None or line.depth <= base:
                break
            if line.depth != depth:
                raise fail(f"Over-indented line: expected depth {depth}, but found {line.depth}", line)
            if not _is_data_row(line.content, header.delimiter):
                break
            start = line.number if start is None else start
            end = line.number
            last = line
            self.read()
            rows.append(self.cells(line.content, header, line, "tabular row values"))
        self.count(len(rows), header.length, "tabular rows", last)
        self.no_blank_lines(start, end, "tabular array")
        nxt = self.peek()
        if nxt is not None and nxt.depth == depth and not nxt.content.startswith("- ") and _is_data_row(nxt.content, header.delimiter):
            raise fail(f"Expected {header.length} tabular rows, but found more", nxt)
        return rows

    def list_items(self, header: Header, base: int, header_line: Line) -> List[Any]:
        depth = self.content_depth(base)
        items: List[Any] = []
        start = end = None
        last = header_line
        while len(items) < header.length:
            line = self.peek()
            if line is None or line.depth <= base:
                break
            if line.depth != depth:
                raise fail(f"Over-indented line: expected depth {depth}, but found {line.depth}", line)
            if not (line.content.startswith("- ") or line.content == "-"):
                break
            start = line.number if start is None else start
            items.append(self.list_item(depth))
            if self.last is not None:
                end = self.last.number
                last = self.last
        self.count(len(items), header.length, "list-form items", last)
        self.no_blank_lines(start, end, "list-form array")
        nxt = self.peek()
        if nxt is not None and nxt.depth == depth and nxt.content.startswith("- "):
            raise fail(f"Expected {header.length} list-form items, but found more", nxt)
        return items

    def list_item(self, base: int) -> Any:
        line = self.read()
        if line.content == "-":
            return {}
        after = line.content[2:].lstrip(" ")
        if not trim_spaces(after):
            return {}
        if trim_spaces(after) == "[]":
            return []
        item = Line(line.depth, after, line.number)
        if _is_array_header_content(after):
            found = self.header(after, item)
            if found:
                if found[0].keyed:
                    raise fail("Keyless keyed header is only valid at the document root", item)
                if found[0].fields is not None:
                    raise fail("Keyless header with a field list is only valid at the document root", item)
                return self.array(found[0], found[1], base, item)
        found = self.header(after, item)
        if found and found[0].key is not None and found[0].fields is not None:
            header = found[0]
            out: Dict[str, Any] = {header.key: self.array(header, found[1], base + 1, item)}
            self.siblings(base + 1, out, {header.key})
            return out
        if unquoted(after, ":") != -1:
            out = {}
            seen: set = set()
            self.key_value(item, base + 1, out, seen)
            self.siblings(base + 1, out, seen)
            return out
        return self.primitive(after, item)

    def siblings(self, depth: int, out: Dict[str, Any], seen: set) -> None:
        while True:
            line = self.peek()
            if line is None or line.depth < depth:
                return
            if line.depth != depth:
                raise fail(f"Over-indented line: expected depth {depth}, but found {line.depth}", line)
            self.read()
            self.key_value(line, depth, out, seen)


def decode_toon(text: str) -> Dict[str, Any]:
    """``{"ok": True, "value": …}`` for a TOON text, or ``{"ok": False, "error": …}`` naming the
    line, as the TypeScript ``decodeToon`` answers.

    >>> decode_toon("notes[0]:")
    {'ok': True, 'value': {'notes': []}}
    >>> decode_toon("users[2]{id,name}:\\n  1,Ada\\n  2,Bob")["value"]["users"]
    [{'id': 1, 'name': 'Ada'}, {'id': 2, 'name': 'Bob'}]
    """
    try:
        return {"ok": True, "value": _Decoder(text).document()}
    except ToonError as error:
        return {"ok": False, "error": str(error)}
    except RecursionError:
        return {"ok": False, "error": "the TOON text nests too deeply to decode"}
