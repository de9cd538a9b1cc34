"""TOON's lines (SPEC.md §12): each line's depth by two-space indentation, blank lines kept apart
(an array may not hold one), tabs in indentation and odd indentation refused, as 4.4.0 scans."""
from __future__ import annotations

from typing import List, Optional, Tuple

from .toon_lexical import ToonError

__all__ = ["Line", "fail", "scan"]


class Line:
    """One non-blank line: its depth, its content after the indentation, its number (from 1)."""

    __slots__ = ("depth", "content", "number")

    def __init__(self, depth: int, content: str, number: int) -> None:
        self.depth, self.content, self.number = depth, content, number


def fail(message: str, line: Optional[Line] = None) -> ToonError:
    """An error naming the line, as 4.4.0 names it."""
    return ToonError(f"Line {line.number}: {message}" if line is not None else message)


def scan(text: str) -> Tuple[List[Line], List[int]]:
    """The non-blank lines with their depth, and the numbers of the blank ones."""
    lines: List[Line] = []
    blanks: List[int] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if number == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]
        if raw.endswith("\r"):
            raw = raw[:-1]
        leading = len(raw) - len(raw.lstrip(" \t"))
        tab = raw.find("\t", 0, leading)
        indent = tab if tab != -1 else leading
        content = raw[indent:].rstrip(" ")
        if tab == -1 and content.startswith("#"):
            continue
        if not content:
            blanks.append(number)
            continue
        line = Line(indent // 2, content, number)
        if tab != -1:
            raise fail("Tabs are not allowed in indentation in strict mode", line)
        if indent % 2 != 0:
            raise fail(f"Indentation must be exact multiple of 2, but found {indent} spaces", line)
        lines.append(line)
    return lines, blanks
