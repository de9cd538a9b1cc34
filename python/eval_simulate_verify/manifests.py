"""Every fake's write map, read from the folder ``serve --manifest-dir`` (or ``--run-dir``'s
``manifests/``) writes, checked and put in the shape the TypeScript ``loadManifests`` returns.

A ``fakes.yaml`` is not read here: Python's standard library has no YAML parser. Serve the
fakes with ``--manifest-dir`` (the sidecar does, into ``/shared/manifests``) and read that.
"""
from __future__ import annotations

import os
import re
import stat
from typing import Any, Dict, List, Optional

from .canonical_json import canonical_json, parse_json

__all__ = ["load_manifests", "normalize_manifest", "entity_map_of", "require_manifests", "read_json_file"]

_KINDS = ("mcp", "api")
#: A key that is absent, which JSON.parse leaves undefined: unlike null, it takes the default.
_MISSING = object()
#: The size past which a manifest or record is refused, as the TypeScript readers refuse it.
MAX_FILE_BYTES = 64 * 1024 * 1024


def read_file_bytes(path: str, what: str) -> bytes:
    """A file's bytes, refusing anything but a regular file under 64 MiB (a FIFO would block a
    verifier for ever)."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise ValueError(f"[eval-simulate] cannot read {what} {path}: {error.strerror}") from error
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"[eval-simulate] cannot read {what} {path}: it is not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise ValueError(f"[eval-simulate] cannot read {what} {path}: it is larger than 64 MiB")
    with open(path, "rb") as handle:
        return handle.read()


def read_json_file(path: str, what: str) -> Any:
    """A JSON file read as ``JSON.parse`` reads it, refusing anything but a regular file under
    64 MiB (a FIFO would block a verifier for ever)."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise ValueError(f"[eval-simulate] cannot read {what} {path}: {error.strerror}") from error
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"[eval-simulate] cannot read {what} {path}: it is not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise ValueError(f"[eval-simulate] cannot read {what} {path}: it is larger than 64 MiB")
    with open(path, "r", encoding="utf-8") as handle:
        text = handle.read()
    try:
        return parse_json(text)
    except ValueError as error:
        raise ValueError(f"[eval-simulate] cannot read {what} {path}: {error}") from error


def _stringify(value: Any) -> str:
    """``JSON.stringify`` of a value, as the TypeScript messages quote it."""
    return canonical_json(value)


def _names(value: Any, what: str, where: str) -> List[str]:
    if value is _MISSING:
        return []
    if not isinstance(value, list) or any(not isinstance(name, str) for name in value):
        raise ValueError(f"[eval-simulate] {where}: {what} must be a list of entity names")
    return list(value)


def _tool_writes(name: str, spec: Any, where: str) -> Dict[str, Any]:
    if not isinstance(spec, dict):
        raise ValueError(f'[eval-simulate] {where}: tool "{name}" must be an object with reads and writes')
    kind = spec.get("kind")
    kind = "stateful" if kind is None else kind  # `spec.kind ?? "stateful"`
    if kind not in ("stateful", "static"):
        raise ValueError(f'[eval-simulate] {where}: tool "{name}" has kind {_stringify(kind)}; expected stateful or static')
    return {"kind": kind, "reads": _names(spec.get("reads", _MISSING), f'"{name}".reads', where), "writes": _names(spec.get("writes", _MISSING), f'"{name}".writes', where)}


_ROUTE = re.compile(r"([A-Za-z]+) (/\S*)\Z")


def _operation_writes(name: str, spec: Any, where: str) -> Dict[str, Any]:
    if not isinstance(spec, dict):
        raise ValueError(f'[eval-simulate] {where}: operation "{name}" must be an object with reads and writes')
    entry: Dict[str, Any] = {"reads": _names(spec.get("reads", _MISSING), f'"{name}".reads', where), "writes": _names(spec.get("writes", _MISSING), f'"{name}".writes', where)}
    route = _ROUTE.match(name)
    method = spec["method"] if isinstance(spec.get("method"), str) else (route.group(1) if route else None)
    path = spec["path"] if isinstance(spec.get("path"), str) else (route.group(2) if route else None)
    if method is not None:
        entry["method"] = method.upper()
    if path is not None:
        entry["path"] = path
    return entry


def _map_of(value: Any, what: str, where: str, entry: Any) -> Dict[str, Any]:
    if value is _MISSING:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"[eval-simulate] {where}: {what} must be an object keyed by name")
    return {name: entry(name, spec, where) for name, spec in value.items()}


def entity_map_of(manifest: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """The entity maps of a write map, tools and operations alike, by name."""
    return manifest["operations"] if manifest["kind"] == "api" else manifest["tools"]


def normalize_manifest(raw: Any, fake_id: str, kind: Optional[str], where: str) -> Dict[str, Any]:
    """One fake's write map from a parsed ``manifest.json``. A manifest naming another id, or
    another kind than the folder it sits in, is refused: a check would read one fake's map for
    another's calls."""
    if not isinstance(raw, dict):
        raise ValueError(f"[eval-simulate] {where}: a manifest must be a JSON object")
    if "id" in raw and raw["id"] != fake_id:
        raise ValueError(f'[eval-simulate] {where}: the manifest says id {_stringify(raw["id"])}, but it is the manifest of "{fake_id}"')
    stated = raw.get("kind") if raw.get("kind") in _KINDS else None
    if "kind" in raw and stated is None:
        raise ValueError(f'[eval-simulate] {where}: kind {_stringify(raw["kind"])} is neither "mcp" nor "api"')
    if kind is not None and stated is not None and stated != kind:
        raise ValueError(f'[eval-simulate] {where}: the manifest says kind "{stated}", but it sits with the {kind} fakes')
    resolved = kind or stated or ("api" if "operations" in raw and "tools" not in raw else "mcp")
    entities_raw = raw.get("entities", _MISSING)
    entities = list(entities_raw.keys()) if isinstance(entities_raw, dict) else _names(entities_raw, "entities", where)
    manifest: Dict[str, Any] = {"id": fake_id, "kind": resolved}
    if isinstance(raw.get("description"), str):
        manifest["description"] = raw["description"]
    manifest["entities"] = entities
    if resolved == "api":
        manifest["operations"] = _map_of(raw.get("operations", _MISSING), "operations", where, _operation_writes)
        if isinstance(raw.get("emulate"), str):
            manifest["emulate"] = raw["emulate"]
    else:
        manifest["tools"] = _map_of(raw.get("tools", _MISSING), "tools", where, _tool_writes)
    for name, entry in entity_map_of(manifest).items():
        unknown = [entity for entity in entry["writes"] if entity not in entities]
        if unknown:
            raise ValueError(f'[eval-simulate] {where}: "{name}" writes {", ".join(unknown)}, which "{fake_id}" does not declare among its entities')
    return manifest


def _fake_folders(folder: str) -> List[str]:
    return sorted(
        (name for name in os.listdir(folder) if os.path.isdir(os.path.join(folder, name)) and os.path.exists(os.path.join(folder, name, "manifest.json"))),
        key=lambda name: name.encode("utf-16-be", "surrogatepass"),
    )


def load_manifests(path: str) -> Dict[str, Dict[str, Any]]:
    """Every fake's write map by fake id, from a manifest dir (``<path>/mcp/<id>/manifest.json``,
    ``<path>/api/<id>/manifest.json``) or a folder of fake folders (``<path>/<id>/manifest.json``).
    Raises when there is nothing there, or no manifest: checks over no fakes would report nothing.

    Example: ``load_manifests("/shared/manifests")["mail"]["tools"]["send-email"]["writes"]`` is
    ``["emails", "sendAttempts"]``.
    """
    if not os.path.exists(path):
        raise ValueError(f"[eval-simulate] cannot load manifests: {path} does not exist")
    if not os.path.isdir(path):
        raise ValueError(f"[eval-simulate] cannot load manifests from {path}: Python reads a manifest dir (serve --manifest-dir), not a fakes.yaml")
    by_kind = [kind for kind in _KINDS if os.path.isdir(os.path.join(path, kind))]
    if by_kind:
        folders = [(name, kind, os.path.join(path, kind, name)) for kind in by_kind for name in _fake_folders(os.path.join(path, kind))]
    else:
        folders = [(name, None, os.path.join(path, name)) for name in _fake_folders(path)]
    manifests: Dict[str, Dict[str, Any]] = {}
    for fake_id, kind, folder in folders:
        file = os.path.join(folder, "manifest.json")
        if fake_id in manifests:
            raise ValueError(f'[eval-simulate] {path} holds two manifests for "{fake_id}" (an id names one fake)')
        manifests[fake_id] = normalize_manifest(read_json_file(file, "the manifest"), fake_id, kind, file)
    if not manifests:
        raise ValueError(f"[eval-simulate] {path} holds no manifest: expected mcp/<id>/manifest.json or api/<id>/manifest.json (serve --manifest-dir writes them)")
    return manifests


def require_manifests(manifests: Any, check: str) -> None:
    """Refuses an empty set of manifests: checks over no fakes would report nothing, read as a pass."""
    if not isinstance(manifests, dict) or not manifests:
        raise ValueError(f"[eval-simulate] {check} needs at least one fake's manifest: with none it would report nothing, which a check reads as a pass")
