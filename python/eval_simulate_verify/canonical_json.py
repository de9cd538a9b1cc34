"""JSON as JavaScript reads and writes it.

The TypeScript checks compare and hash values through ``JSON.parse`` and ``JSON.stringify``;
these functions do the same in Python, so a value read here compares and hashes exactly as there:
every number is a double (an integer past 2**53 is the double it rounds to), numbers are written
as JavaScript's ``Number#toString`` writes them (``1e+21``, ``1e-7``, ``0`` for ``-0``), strings
are escaped as ``JSON.stringify`` escapes them (a lone surrogate as ``\\udXXX``), and object keys
are sorted in the order a JavaScript object built in sorted order gives them back: array-index
keys (``"0"`` … ``"4294967294"``) first by value, then the others by UTF-16 code units.
"""
from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["canonical_json", "js_number", "js_string", "parse_json", "js_key_order"]

_MAX_INDEX = 4294967294  # 2**32 - 2: the largest array index, which JS objects list first


def js_number(value: float | int) -> str:
    """A finite number as JavaScript's ``String(n)`` writes it (``"null"`` for NaN and infinities,
    as ``JSON.stringify`` writes them).

    >>> js_number(1e21), js_number(1e-7), js_number(-0.0), js_number(100.0)
    ('1e+21', '1e-7', '0', '100')
    """
    try:
        number = float(value)
    except OverflowError:
        return "null"
    if not math.isfinite(number):
        return "null"
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    # repr gives the shortest digits that read back as the same double, as JavaScript picks them.
    text = repr(abs(number))
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # The position of the decimal point relative to the first significant digit.
    point = len(whole.lstrip("0")) if whole.strip("0") else -(len(fraction) - len(fraction.lstrip("0")))
    point += int(exponent or 0)
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    n = point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    exp = ("+" if e >= 0 else "-") + str(abs(e))
    return sign + digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + exp


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def js_string(text: str) -> str:
    """A string as ``JSON.stringify`` writes it: the short escapes, other control characters and
    lone surrogates as lowercase ``\\u00XX``, everything else as it is."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20 or 0xD800 <= code <= 0xDFFF:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _is_index(key: str) -> bool:
    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) <= _MAX_INDEX


def js_key_order(keys: Any) -> list[str]:
    """Keys in the order ``Object.keys`` lists them for an object whose keys were added sorted:
    array indices ascending by value, then the rest by UTF-16 code units (``Array#sort``)."""
    keys = list(keys)
    indices = sorted((k for k in keys if _is_index(k)), key=int)
    names = sorted((k for k in keys if not _is_index(k)), key=_utf16)
    return indices + names


def canonical_json(value: Any) -> str:
    """The text the TypeScript ``canonicalJson`` gives a value: ``JSON.stringify`` with every
    object's keys sorted, numbers and strings written as JavaScript writes them.

    >>> canonical_json({"b": 1, "a": [0.1, 1e21, "é"]})
    '{"a":[0.1,1e+21,"é"],"b":1}'
    """
    out: list[str] = []
    # A stack instead of recursion: a state may nest deeper than Python's recursion limit.
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Text):
            out.append(item.text)
        elif item is None:
            out.append("null")
        elif item is True:
            out.append("true")
        elif item is False:
            out.append("false")
        elif isinstance(item, (int, float)):
            out.append(js_number(item))
        elif isinstance(item, str):
            out.append(js_string(item))
        elif isinstance(item, (list, tuple)):
            parts: list[Any] = [_Text("[")]
            for index, element in enumerate(item):
                if index:
                    parts.append(_Text(","))
                parts.append(element)
            parts.append(_Text("]"))
            stack.extend(reversed(parts))
        elif isinstance(item, dict):
            parts = [_Text("{")]
            for index, key in enumerate(js_key_order(item.keys())):
                parts.append(_Text(("," if index else "") + js_string(key) + ":"))
                parts.append(item[key])
            parts.append(_Text("}"))
            stack.extend(reversed(parts))
        else:
            raise TypeError(f"[eval-simulate] {type(item).__name__} is not a JSON value")
    return "".join(out)


class _Text:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _js_int(text: str) -> int | float:
    # JSON.parse reads every number as a double: a long integer becomes the double it rounds to.
    number = float(text)
    return int(number) if math.isfinite(number) else number


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str) -> Any:
    """``JSON.parse``: refuses ``NaN`` and ``Infinity`` (which Python's json accepts) and reads
    integers as the doubles JavaScript reads them as."""
    return json.loads(text, parse_int=_js_int, parse_constant=_no_constant)
