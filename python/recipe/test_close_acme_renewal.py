"""A verifier for the CRM example's task "Acme signed: mark the deal won and close the order-form
task", run by pytest inside the task's container after the agent stops.

The eval-simulate sidecar, started with EVAL_SIMULATE_RUN_DIR=/shared, leaves there the fakes'
manifests (manifests/mcp/crm/manifest.json and answers.json), the record of every call
(record.jsonl) and the world at the start and at the end (initial-state.json, state.json).
"""
import os

from eval_simulate_verify import answered, changed_entities, load_answers, load_manifests, load_states, read_record, write_attempts

RUN = os.environ.get("EVAL_SIMULATE_RUN_DIR", "/shared")
MANIFESTS = load_manifests(os.path.join(RUN, "manifests"))
STATES = load_states(RUN)
CALLS = read_record(os.path.join(RUN, "record.jsonl"))


def record(entity, **fields):
    """The one record of the final world's entity with these fields."""
    found = [item for item in STATES["final"]["crm"][entity] if all(item.get(k) == v for k, v in fields.items())]
    assert len(found) == 1, f"expected one {entity} record with {fields}, found {len(found)}"
    return found[0]


def test_the_acme_renewal_is_won():
    assert record("deals", name="Acme Corp — platform renewal")["stage"] == "won"


def test_the_order_form_task_is_completed():
    assert record("tasks", content="Send Acme the revised order form")["is_completed"] is True


def test_nothing_else_changed():
    assert changed_entities(STATES, MANIFESTS) == ["crm.deals", "crm.tasks"]


def test_no_other_write_was_attempted():
    attempted = {call["tool"] for call in write_attempts(CALLS, MANIFESTS)}
    assert attempted <= {"update-record", "complete-task"}, f"also attempted {sorted(attempted - {'update-record', 'complete-task'})}"


def test_every_answer_the_agent_read_was_in_its_contract():
    # Raises when a successful answer does not read as its tool's format and schema says.
    answered(load_answers(os.path.join(RUN, "manifests"), "crm"), [call for call in CALLS if call.get("server") == "crm"])
