"""String formats as ajv-formats (3.0.1, its "full" mode, which the TypeScript schema check adds)
checks them. The regular expressions are ajv-formats' own, rewritten for Python's engine: ``\\d``
as ``[0-9]``, ``$`` as ``\\Z``, ASCII-only case folding where JavaScript folds without ``u``.
A format ajv-formats does not define is not checked, as ajv (``strict: false``) does not check it.
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable, Dict, Optional

__all__ = ["UnsupportedSchema", "check_format", "pattern_matches"]


class UnsupportedSchema(ValueError):
    """A schema this checker cannot check as ajv would: the answer is not judged at all."""

# JavaScript's \s: its white space and line terminators.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

_SOURCES = {
    'duration': ('^P(?!$)(([0-9]+Y)?([0-9]+M)?([0-9]+D)?(T(?=[0-9])([0-9]+H)?([0-9]+M)?([0-9]+S)?)?|([0-9]+W)?)\\Z', ''),
    'uri': ("^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::[0-9]*)?(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?\\Z", 'i'),
    'uri-reference': ('^(?:[a-z][a-z0-9+\\-.]*:)?(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&\'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&\'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)|(?:[a-z0-9\\-._~!$&\'"()*+,;=]|%[0-9a-f]{2})*)(?::[0-9]*)?(?:\\/(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&\'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\\?(?:[a-z0-9\\-._~!$&\'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&\'"()*+,;=:@/?]|%[0-9a-f]{2})*)?\\Z', 'i'),
    'uri-template': ('^(?:(?:[^\\x00-\\x20"\'<>%\\\\^`{|}]|%[0-9a-f]{2})|\\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\\*)?)*\\})*\\Z', 'i'),
    'url': ('^(?:https?|ftp):\\/\\/(?:\\S+(?::\\S*)?@)?(?:(?!(?:10|127)(?:\\.[0-9]{1,3}){3})(?!(?:169\\.254|192\\.168)(?:\\.[0-9]{1,3}){2})(?!172\\.(?:1[6-9]|2[0-9]|3[0-1])(?:\\.[0-9]{1,3}){2})(?:[1-9][0-9]?|1[0-9][0-9]|2[01][0-9]|22[0-3])(?:\\.(?:1?[0-9]{1,2}|2[0-4][0-9]|25[0-5])){2}(?:\\.(?:[1-9][0-9]?|1[0-9][0-9]|2[0-4][0-9]|25[0-4]))|(?:(?:[a-z0-9\\u00a1-\\uffff]+-)*[a-z0-9\\u00a1-\\uffff]+)(?:\\.(?:[a-z0-9\\u00a1-\\uffff]+-)*[a-z0-9\\u00a1-\\uffff]+)*(?:\\.(?:[a-z\\u00a1-\\uffff]{2,})))(?::[0-9]{2,5})?(?:\\/[^\\s]*)?\\Z', 'iu'),
    'email': ("^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\Z", 'i'),
    'hostname': ('^(?=.{1,253}\\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?\\Z', 'i'),
    'ipv4': ('^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\Z', ''),
    'ipv6': ('^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}))|:)))\\Z', 'i'),
    'uuid': ('^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}\\Z', 'i'),
    'json-pointer': ('^(?:\\/(?:[^~/]|~0|~1)*)*\\Z', ''),
    'json-pointer-uri-fragment': ("^#(?:\\/(?:[a-z0-9_\\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*\\Z", 'i'),
    'relative-json-pointer': ('^(?:0|[1-9][0-9]*)(?:#|(?:\\/(?:[^~/]|~0|~1)*)*)\\Z', ''),
}


def _compile(source: str, flags: str) -> "re.Pattern[str]":
    if "u" in flags:
        # Unicode mode: \S and [^\s] are JavaScript's Unicode white space; case folds fully.
        source = source.replace("[^\\s]", "[^" + _JS_SPACE + "]").replace("\\S", "[^" + _JS_SPACE + "]")
        return re.compile(source, re.IGNORECASE if "i" in flags else 0)
    return re.compile(source, re.ASCII | (re.IGNORECASE if "i" in flags else 0))


_REGEXES = {name: _compile(source, flags) for name, (source, flags) in _SOURCES.items()}
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z", re.ASCII)
_TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2}(?:\.[0-9]+)?)(z|([+-])([0-9]{2})(?::?([0-9]{2}))?)?\Z", re.ASCII | re.IGNORECASE)
_DATE_TIME_SEPARATOR = re.compile("[tT" + _JS_SPACE + "]")
_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
_NOT_URI_FRAGMENT = re.compile(r"/|:")
_BYTE = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$", re.MULTILINE)


def _date(text: str) -> bool:
    found = _DATE.match(text)
    if not found:
        return False
    year, month, day = (int(part) for part in found.groups())
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= month <= 12 and 1 <= day <= (29 if month == 2 and leap else _DAYS[month])


def _time(strict_zone: bool) -> Callable[[str], bool]:
    def check(text: str) -> bool:
        found = _TIME.match(text)
        if not found:
            return False
        hour, minute, second = int(found.group(1)), int(found.group(2)), float(found.group(3))
        zone, sign = found.group(4), -1 if found.group(5) == "-" else 1
        zone_hour, zone_minute = int(found.group(6) or 0), int(found.group(7) or 0)
        if zone_hour > 23 or zone_minute > 59 or (strict_zone and not zone):
            return False
        if hour <= 23 and minute <= 59 and second < 60:
            return True
        # A leap second: 23:59:60 in UTC.
        utc_minute = minute - zone_minute * sign
        utc_hour = hour - zone_hour * sign - (1 if utc_minute < 0 else 0)
        return utc_hour in (23, -1) and utc_minute in (59, -1) and second < 61
    return check


def _date_time(strict_zone: bool) -> Callable[[str], bool]:
    time = _time(strict_zone)

    def check(text: str) -> bool:
        parts = _DATE_TIME_SEPARATOR.split(text)
        return len(parts) == 2 and _date(parts[0]) and time(parts[1])
    return check


def _byte(text: str) -> bool:
    # JavaScript's test() with the m flag: the pattern holds from the start of some line.
    return any(_BYTE.match(text, position) for position in [0] + [i + 1 for i, ch in enumerate(text) if ch in "\n\r\u2028\u2029"])


def _regex(text: str) -> bool:
    if re.search(r"[^\\]\\Z", text):
        return False
    try:
        re.compile(text)
        return True
    except (re.error, OverflowError, RecursionError):
        return False


_STRING_FORMATS: Dict[str, Callable[[str], bool]] = {
    "date": _date,
    "time": _time(True),
    "date-time": _date_time(True),
    "iso-time": _time(False),
    "iso-date-time": _date_time(False),
    "uri": lambda text: bool(_NOT_URI_FRAGMENT.search(text)) and bool(_REGEXES["uri"].match(text)),
    "byte": _byte,
    "regex": _regex,
    "password": lambda text: True,
    "binary": lambda text: True,
}
_STRING_FORMATS.update({name: regex.match for name, regex in _REGEXES.items() if name != "uri"})


def _integer(value: Any, low: Optional[float], high: Optional[float]) -> bool:
    if not (isinstance(value, (int, float)) and math.isfinite(value) and float(value).is_integer()):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


_NUMBER_FORMATS: Dict[str, Callable[[Any], bool]] = {
    "int32": lambda value: _integer(value, -(2**31), 2**31 - 1),
    "int64": lambda value: _integer(value, None, None),
    "float": lambda value: True,
    "double": lambda value: True,
}


def check_format(name: str, value: Any) -> bool:
    """Whether ``value`` is in format ``name``: strings for the string formats, numbers for
    int32/int64/float/double; any other value, and any format ajv-formats lacks, passes."""
    if isinstance(value, str) and name in _STRING_FORMATS:
        return bool(_STRING_FORMATS[name](value))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and name in _NUMBER_FORMATS:
        return _NUMBER_FORMATS[name](value)
    return True


_PATTERNS: Dict[str, "re.Pattern[str]"] = {}


def _python_pattern(pattern: str) -> str:
    """A JavaScript pattern (Unicode mode, as ajv compiles them) in Python's syntax: ``$`` ends the
    input, ``(?<name>`` names a group, ``\\d`` and ``\\w`` are ASCII. Raises UnsupportedSchema for syntax
    Python lacks (``\\p{…}``, ``\\u{…}``)."""
    out = []
    i, in_class = 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt in "pPc" or (nxt == "u" and pattern[i + 2 : i + 3] == "{"):
                raise UnsupportedSchema(f"[eval-simulate] the pattern {pattern!r} uses \\{nxt}, which the Python checker cannot run")
            if nxt == "d":
                out.append("0-9" if in_class else "[0-9]")
            elif nxt == "w":
                out.append("A-Za-z0-9_" if in_class else "[A-Za-z0-9_]")
            elif nxt == "s":
                out.append(_JS_SPACE if in_class else "[" + _JS_SPACE + "]")
            elif nxt == "S" and not in_class:
                out.append("[^" + _JS_SPACE + "]")
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
            out.append(ch)
        elif ch == "[":
            in_class = True
            out.append(ch)
            if pattern[i + 1 : i + 2] == "]":
                # [] matches nothing in JavaScript; Python would read the ] as a member.
                out[-1] = "(?!)"
                in_class = False
                i += 1
        elif ch == "$":
            out.append("\\Z")
        elif pattern.startswith("(?<", i) and pattern[i + 3 : i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def pattern_matches(pattern: str, text: str) -> bool:
    """``new RegExp(pattern, "u").test(text)`` as ajv runs a schema's ``pattern``."""
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        try:
            compiled = re.compile(_python_pattern(pattern))
        except re.error as error:
            raise UnsupportedSchema(f"[eval-simulate] the pattern {pattern!r} is not one the Python checker can run: {error}") from error
        if len(_PATTERNS) < 10_000:
            _PATTERNS[pattern] = compiled
    return compiled.search(text) is not None
