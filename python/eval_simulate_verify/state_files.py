"""The state files a run leaves: ``initial-state.json`` and ``state.json`` in a run dir
(``serve --run-dir``), or the files ``--initial-state-file`` and ``--state-file`` name, each read
with the log beside it (``state.json.log``, which a run killed before it stopped leaves) applied."""
from __future__ import annotations

import os
from typing import Any, Dict

from .canonical_json import parse_json
from .manifests import read_file_bytes
from .state_log import with_state_log

__all__ = ["load_state", "load_states"]


def load_state(path: str) -> Dict[str, Any]:
    """Every fake's state keyed by fake id, read as ``JSON.parse`` reads it, with the commits of its
    log (``<path>.log``) applied: the world of every acknowledged call, as ``loadState`` reads it."""
    data = read_file_bytes(path, "the state file")
    try:
        state = parse_json(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"[eval-simulate] cannot read the state file {path}: {error}") from error
    if not isinstance(state, dict):
        raise ValueError(f"[eval-simulate] {path} is not a state file: it holds no object keyed by fake id")
    # The log is applied to the very bytes parsed above: a snapshot replaced since is read again there.
    return with_state_log(path, data, state)


def load_states(run_dir: str) -> Dict[str, Any]:
    """``{"initial", "final"}`` from a run dir's ``initial-state.json`` and ``state.json``, as
    ``changed_entities`` takes them."""
    return {"initial": load_state(os.path.join(run_dir, "initial-state.json")), "final": load_state(os.path.join(run_dir, "state.json"))}
