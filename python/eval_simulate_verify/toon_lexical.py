"""The tokens of TOON (SPEC.md §4, §7): quoted strings and their escapes, keys, primitives and
delimited values, read as ``@toon-format/toon`` 4.4.0 reads them (``\\uXXXX`` escapes included)."""
from __future__ import annotations

import math
import re
from typing import Any, List, Tuple


class ToonError(ValueError):
    """A text that is not TOON; the message names the line."""


_NUMERIC = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?\Z", re.IGNORECASE | re.ASCII)
_HEX4 = re.compile(r"[0-9a-fA-F]{4}\Z")


def trim_spaces(value: str) -> str:
    return value.strip(" ")


def closing_quote(content: str, start: int) -> int:
    i = start + 1
    while i < len(content):
        if content[i] == "\\" and i + 1 < len(content):
            i += 2
            continue
        if content[i] == '"':
            return i
        i += 1
    return -1


def unquoted(content: str, char: str, start: int = 0) -> int:
    """The index of ``char`` outside quoted sections, or -1."""
    in_quotes = False
    i = start
    while i < len(content):
        ch = content[i]
        if ch == "\\" and in_quotes and i + 1 < len(content):
            i += 2
            continue
        if ch == '"':
            in_quotes = not in_quotes
        elif ch == char and not in_quotes:
            return i
        i += 1
    return -1


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}


def unescape(value: str) -> str:
    out: List[str] = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(value):
            raise ToonError("Invalid escape sequence: backslash at end of string")
        nxt = value[i + 1]
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
        elif nxt == "u":
            hexits = value[i + 2 : i + 6]
            if not _HEX4.match(hexits):
                raise ToonError(f"Invalid escape sequence: \\u must be followed by 4 hex digits, got {hexits!r}")
            code = int(hexits, 16)
            if 0xD800 <= code <= 0xDFFF:
                raise ToonError(f"Invalid escape sequence: \\u{hexits} is a lone surrogate. Supplementary code points MUST appear as literal UTF-8")
            out.append(chr(code))
            i += 6
        else:
            raise ToonError(f"Invalid escape sequence: \\{nxt}")
    return "".join(out)


def string_literal(token: str) -> str:
    token = trim_spaces(token)
    if not token.startswith('"'):
        return token
    close = closing_quote(token, 0)
    if close == -1:
        raise ToonError("Unterminated string: missing closing quote")
    if close != len(token) - 1:
        raise ToonError("Unexpected characters after closing quote")
    return unescape(token[1:close])


def _number(token: str) -> Any:
    number = float(token)
    if not math.isfinite(number):
        return None
    if number == 0:
        return 0  # -0 decodes to 0
    if "." in token or "e" in token or "E" in token:
        return number
    return int(number)


def primitive(token: str) -> Any:
    token = trim_spaces(token)
    if not token:
        return ""
    if token.startswith('"'):
        return string_literal(token)
    if token in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[token]
    if _NUMERIC.match(token):
        number = _number(token)
        if number is not None:
            return number
    return token


def split_values(text: str, delimiter: str) -> List[str]:
    values: List[str] = []
    buffer: List[str] = []
    in_quotes = False
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and in_quotes and i + 1 < len(text):
            buffer.append(text[i : i + 2])
            i += 2
            continue
        if ch == '"':
            in_quotes = not in_quotes
        elif ch == delimiter and not in_quotes:
            values.append(trim_spaces("".join(buffer)))
            buffer = []
            i += 1
            continue
        buffer.append(ch)
        i += 1
    if buffer or values:
        values.append(trim_spaces("".join(buffer)))
    return values


def key_token(content: str, start: int) -> Tuple[str, int]:
    if content[start : start + 1] == '"':
        close = closing_quote(content, start)
        if close == -1:
            raise ToonError("Unterminated quoted key")
        key = unescape(content[start + 1 : close])
        position = close + 1
        while content[position : position + 1] == " ":
            position += 1
        if content[position : position + 1] != ":":
            raise ToonError("Missing colon after key")
        return key, position + 1
    colon = unquoted(content, ":", start)
    if colon == -1:
        raise ToonError("Missing colon after key")
    return trim_spaces(content[start:colon]), colon + 1
