"""The names an agent harness gives a fake's tools, and the lookup from such a name back to the
fake and the tool's contract name, as the TypeScript ``tool-names.ts`` resolves them: the bare
name (while one fake serves it), ``<server>_<tool>``, ``<server>__<tool>``, ``<server>/<tool>``,
``mcp__<server>__<tool>``, the hashed form of ``pi_tool_names``; then each made provider-safe,
then each in snake_case.
"""
from __future__ import annotations

import hashlib
import re
from typing import Callable, Dict, List, Tuple

from .manifests import entity_map_of

__all__ = ["pi_tool_names", "ToolNameIndex"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_NOT_ALNUM = re.compile(r"[^a-z0-9]")


def _safe(name: str) -> str:
    # JavaScript replaces each UTF-16 code unit: a character past U+FFFF becomes "__".
    return "".join("__" if ord(ch) > 0xFFFF else ("_" if _UNSAFE.match(ch) else ch) for ch in name)


def _loose(name: str) -> str:
    # str.lower() lowers as toLowerCase() does (final sigma and "İ" included).
    return "".join("__" if ord(ch) > 0xFFFF else ("_" if _NOT_ALNUM.match(ch) else ch) for ch in name.lower())


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _utf8(text: str) -> bytes:
    """The bytes Node hashes for a string: UTF-8, a lone surrogate as U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def _utf16_prefix(name: str, units: int) -> str:
    """``name.slice(0, units)`` as JavaScript cuts it, by UTF-16 code units."""
    encoded = name.encode("utf-16-be", "surrogatepass")[: units * 2]
    return encoded.decode("utf-16-be", "surrogatepass")


def pi_tool_names(server: str, tool: str) -> Tuple[str, str]:
    """The names a harness such as Pi gives a fake's MCP tool: the readable
    ``mcp__<server>__<tool>`` and the hashed ``<server>_<h>`` (the first 8 hex digits of the SHA-1
    of ``<server>/<tool>``), both provider-safe.

    >>> pi_tool_names("crm", "create-record")[0]
    'mcp__crm__create-record'
    """
    digest = hashlib.sha1(_utf8(f"{server}/{tool}")).hexdigest()[:8]
    return (f"mcp__{_safe(server)}__{_safe(tool)}", f"{_utf16_prefix(_safe(server), 55)}_{digest}")


def _qualified_names(server: str, tool: str) -> List[str]:
    return [f"{server}_{tool}", f"{server}__{tool}", f"{server}/{tool}", f"mcp__{server}__{tool}", *pi_tool_names(server, tool)]


class ToolNameIndex:
    """Every name each tool (and operation) of a set of fakes may be called by."""

    def __init__(self, manifests: Dict[str, Dict]) -> None:
        forms: List[Callable[[str], str]] = [lambda name: name, _safe, _loose]
        self._tiers: List[Tuple[Callable[[str], str], Dict[str, Dict[Tuple[str, str], Dict[str, str]]]]] = [(form, {}) for form in forms]
        for server, manifest in manifests.items():
            for tool in entity_map_of(manifest):
                for name in [tool, *_qualified_names(server, tool)]:
                    for form, index in self._tiers:
                        index.setdefault(form(name), {})[(server, tool)] = {"server": server, "tool": tool}

    def resolve(self, name: str) -> List[Dict[str, str]]:
        """The (server, tool) pairs a name may mean: exact forms first, then provider-safe, then snake_case."""
        for form, index in self._tiers:
            found = index.get(form(name))
            if found:
                return list(found.values())
        return []
