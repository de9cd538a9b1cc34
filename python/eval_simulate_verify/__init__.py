"""eval-simulate's verify for Python verifiers (a pytest file in the task's container): the same
checks as the TypeScript ``eval-simulate/verify`` and ``eval-simulate/answers``, over the files a
run leaves (the sidecar's manifest directory, the record, the state files), with the standard
library only.

Example: ``changed_entities(load_states("/shared"), load_manifests("/shared/manifests"))``.
"""
from .answers import answer_entries, answered, load_answers, read_answer, read_result
from .canonical_json import canonical_json, js_number, parse_json
from .changed_entities import changed_entities
from .formats import UnsupportedSchema
from .manifests import load_manifests
from .read_record import read_record
from .state_files import load_state, load_states
from .tool_names import pi_tool_names
from .toon import ToonError, decode_toon
from .world_hash import fake_hash, value_hash, world_hash
from .write_attempts import write_attempts

__all__ = [
    "UnsupportedSchema",
    "ToonError",
    "answer_entries",
    "answered",
    "canonical_json",
    "changed_entities",
    "decode_toon",
    "fake_hash",
    "js_number",
    "load_answers",
    "load_manifests",
    "load_state",
    "load_states",
    "parse_json",
    "pi_tool_names",
    "read_answer",
    "read_record",
    "read_result",
    "value_hash",
    "world_hash",
    "write_attempts",
]
