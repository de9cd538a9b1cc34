"""The shared cases, run through the Python verify: one expected result for both languages."""
from __future__ import annotations

import os
import re
from typing import Any, Dict

import pytest

from eval_simulate_verify import (
    UnsupportedSchema,
    answered,
    canonical_json,
    changed_entities,
    decode_toon,
    load_manifests,
    load_state,
    parse_json,
    pi_tool_names,
    read_answer,
    read_record,
    read_result,
    value_hash,
    world_hash,
    write_attempts,
)
from shared_cases import cases, same_json, without_dir


def expect(case: Dict[str, Any], run: Any, folder: str = "") -> None:
    """Runs a case: its expected value, or an error holding its expected message."""
    if "error" in case:
        with pytest.raises(ValueError) as raised:
            run()
        assert case["error"] in without_dir(str(raised.value), folder) if folder else case["error"] in str(raised.value)
    else:
        assert same_json(run(), case["expected"])


@pytest.mark.parametrize("case", cases("canonical"))
def test_canonical_json_and_value_hash_as_javascript_writes_them(case: Dict[str, Any]) -> None:
    value = parse_json(case["json"])
    assert canonical_json(value) == case["canonical"]
    assert value_hash(value) == case["hash"]


@pytest.mark.parametrize("case", cases("worldHash"))
def test_world_hash_equals_the_typescript_hash(case: Dict[str, Any]) -> None:
    assert world_hash(case["states"]) == case["expected"]


@pytest.mark.parametrize("case", cases("loadManifests"))
def test_load_manifests_reads_a_manifest_dir_as_typescript_does(case: Dict[str, Any], tmp_path: Any) -> None:
    for path, content in case["files"].items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content if isinstance(content, str) else canonical_json(content), encoding="utf-8")
    expect(case, lambda: load_manifests(str(tmp_path)), str(tmp_path))


@pytest.mark.parametrize("case", cases("changedEntities"))
def test_changed_entities_agrees(case: Dict[str, Any]) -> None:
    expect(case, lambda: changed_entities(case["states"], case["manifests"]))


@pytest.mark.parametrize("case", cases("writeAttempts"))
def test_write_attempts_agrees(case: Dict[str, Any]) -> None:
    if "error" in case:
        case = {**case, "error": case["error"].replace("pass options.toolName", "pass tool_name")}
    expect(case, lambda: write_attempts(case["calls"], case["manifests"]))


@pytest.mark.parametrize("case", cases("piToolNames"))
def test_pi_tool_names_agree(case: Dict[str, Any]) -> None:
    assert list(pi_tool_names(case["server"], case["tool"])) == case["expected"]


@pytest.mark.parametrize("case", cases("readRecord"))
def test_read_record_agrees(case: Dict[str, Any], tmp_path: Any) -> None:
    file = tmp_path / "record.jsonl"
    file.write_bytes(case["text"].encode("utf-8"))
    options = {"session": case["session"]} if "session" in case else {}
    expect(case, lambda: read_record(str(file), **options), str(file))


def reading(result: Dict[str, Any]) -> Dict[str, Any]:
    """A reading as the cases keep it: the error's shared part, and the issues sorted."""
    if result["ok"]:
        return result
    error = result["error"]
    for shared in ("the answer is not JSON: ", "the answer does not match its schema: "):
        if error.startswith(shared):
            error = shared
    issues = sorted(([issue["path"], issue["keyword"], issue["message"]] for issue in result["issues"]), key=canonical_json)
    return {"ok": False, "error": error, "issues": issues}


@pytest.mark.parametrize("case", cases("answers"))
def test_read_answer_and_read_result_agree(case: Dict[str, Any]) -> None:
    if case.get("result"):
        parts = {key: case[key] for key in ("text", "structured") if key in case}
        read = lambda: read_result({"answer": case["answer"]}, **parts)  # noqa: E731
    else:
        read = lambda: read_answer(case["answer"], case["text"])  # noqa: E731
    if "error" in case:
        # A schema the engine refuses to compile: Python refuses it too, rather than judge by it.
        with pytest.raises(UnsupportedSchema, match=re.escape(case["error"])):
            read()
    else:
        assert same_json(reading(read()), case["expected"])


@pytest.mark.parametrize("case", cases("answered"))
def test_answered_agrees(case: Dict[str, Any]) -> None:
    expect(case, lambda: answered(case["contract"], case["calls"]))


@pytest.mark.parametrize("case", cases("toon"))
def test_toon_decodes_as_the_typescript_decoder(case: Dict[str, Any]) -> None:
    decoded = decode_toon(case["text"])
    if case["expected"]["ok"]:
        assert decoded["ok"], decoded.get("error")
        assert same_json(decoded["value"], case["expected"]["value"])
    else:
        assert not decoded["ok"], f"decoded what the TypeScript decoder refuses: {decoded.get('value')!r}"
        assert decoded["error"] == case["expected"]["error"]


def test_the_cases_cover_every_section() -> None:
    from shared_cases import CASES

    assert sorted(name for name in CASES if name != "$comment" and not CASES[name]) == []
    assert {"canonical", "worldHash", "loadManifests", "changedEntities", "writeAttempts", "piToolNames", "readRecord", "answers", "answered", "toon"} <= set(CASES)


@pytest.mark.parametrize("case", cases("loadState"))
def test_load_state_applies_the_log_as_typescript_does(case: Dict[str, Any], tmp_path: Any) -> None:
    (tmp_path / "state.json").write_bytes(case["state"].encode("utf-8"))
    if "log" in case:
        (tmp_path / "state.json.log").write_bytes(case["log"].encode("utf-8"))
    expect(case, lambda: load_state(str(tmp_path / "state.json")), str(tmp_path))
