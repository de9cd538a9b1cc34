/**
 * The CRM fake's TypeScript handlers: the three tools whose logic reads better as code than as
 * JSONata. Every other served tool is handled by its `jsonata` in fakes.yaml; a tool has exactly
 * one handler, so none of these names has a `jsonata` there.
 *
 * A handler changes `state` in place and returns the answer (encoded in the tool's answer format);
 * `fail(message)` ends the call as a tool error and the engine discards any change made before it.
 */
import { defineHandlers } from "eval-simulate";
import type { ToolContext } from "eval-simulate";
// Generated from fakes.yaml by `eval-simulate types` (validate warns when it is stale).
import type { Company, CrmArgs, CrmFake, CrmState, Deal, Person } from "../../fakes.js";

type ObjectSlug = "companies" | "people" | "deals";
type Stage = Deal["stage"];
type CrmRecord = Company | Person | Deal;
type State = CrmState;
type Context = ToolContext<State>;
type Values = Record<string, unknown>;
type Filter = NonNullable<CrmArgs["search-records"]["filters"]>[number];
type Op = Filter["op"];

const WORKSPACE_URL = "https://app.attio.example/northwind";

/** The attributes a caller may write, by object (created_at and updated_at are the server's). */
const WRITABLE: Record<ObjectSlug, readonly string[]> = {
  companies: ["name", "domain", "industry", "employee_count", "owner_email"],
  people: ["name", "email", "job_title", "phone", "company_id"],
  deals: ["name", "stage", "value", "currency", "company_id", "owner_email", "expected_close_at"],
};

const REQUIRED: Record<ObjectSlug, readonly string[]> = {
  companies: ["name"],
  people: ["name", "email"],
  deals: ["name", "stage"],
};

/** What a filter may compare, by object: the writable attributes and the timestamps. */
const FILTERABLE: Record<ObjectSlug, readonly string[]> = {
  companies: [...WRITABLE.companies, "created_at"],
  people: [...WRITABLE.people, "created_at"],
  deals: [...WRITABLE.deals, "created_at", "updated_at"],
};

const IMPLEMENTED_OPS: readonly Op[] = ["eq", "neq", "contains", "gt", "gte", "lt", "lte"];

function recordsOf(state: State, object: ObjectSlug): CrmRecord[] {
  return state[object];
}

function webUrl(object: ObjectSlug, id: string): string {
  return `${WORKSPACE_URL}/${object}/record/${id}`;
}

/** Numbers compare as numbers, ISO timestamps as instants, anything else as lowercase text. */
function compare(left: unknown, right: unknown): number {
  if (typeof left === "number" && typeof right === "number") return left - right;
  const l = String(left);
  const r = String(right);
  const timestamp = /^\d{4}-\d{2}-\d{2}T/;
  if (timestamp.test(l) && timestamp.test(r)) return Date.parse(l) - Date.parse(r);
  return l.toLowerCase().localeCompare(r.toLowerCase());
}

function holds(record: CrmRecord, filter: Filter): boolean {
  const actual = (record as unknown as Values)[filter.attribute];
  if (actual === undefined) return filter.op === "neq";
  switch (filter.op) {
    case "eq":
      return compare(actual, filter.value) === 0;
    case "neq":
      return compare(actual, filter.value) !== 0;
    case "contains":
      return String(actual).toLowerCase().includes(String(filter.value).toLowerCase());
    case "gt":
      return compare(actual, filter.value) > 0;
    case "gte":
      return compare(actual, filter.value) >= 0;
    case "lt":
      return compare(actual, filter.value) < 0;
    case "lte":
      return compare(actual, filter.value) <= 0;
    default:
      return false; // unreachable: unimplemented ops are refused before filtering
  }
}

/** Refuses attributes the object does not have, naming the ones it does. */
function checkAttributes(object: ObjectSlug, values: Values, fail: Context["fail"]): void {
  const unknown = Object.keys(values).filter((name) => !WRITABLE[object].includes(name));
  if (unknown.length > 0) {
    fail(
      `Unknown attribute${unknown.length > 1 ? "s" : ""} ${unknown.map((a) => `"${a}"`).join(", ")} on ${object}. ` +
        `Writable attributes: ${WRITABLE[object].join(", ")}.`,
    );
  }
}

/** Refuses a company link to a company that does not exist, and a duplicate domain or email. */
function checkReferences(state: State, object: ObjectSlug, values: Values, selfId: string | undefined, fail: Context["fail"]): void {
  if (typeof values.company_id === "string" && !state.companies.some((c) => c.id === values.company_id)) {
    fail(`No company has the record ID ${values.company_id}.`);
  }
  if (object === "companies" && typeof values.domain === "string") {
    const domain = values.domain.toLowerCase();
    const holder = state.companies.find((c) => c.id !== selfId && c.domain?.toLowerCase() === domain);
    if (holder) fail(`The domain ${domain} already belongs to the company "${holder.name}" (record ID ${holder.id}).`);
  }
  if (object === "people" && typeof values.email === "string") {
    const email = values.email.toLowerCase();
    const holder = state.people.find((p) => p.id !== selfId && p.email.toLowerCase() === email);
    if (holder) fail(`The email address ${email} already belongs to "${holder.name}" (record ID ${holder.id}).`);
  }
}

export default defineHandlers<CrmFake>({
  "search-records": (args, { state, fail, notImplemented }) => {
    const filters = args.filters ?? [];
    for (const filter of filters) {
      if (!IMPLEMENTED_OPS.includes(filter.op)) return notImplemented(`the filter op ${filter.op}`);
      if (!FILTERABLE[args.object].includes(filter.attribute)) {
        fail(`Cannot filter ${args.object} by "${filter.attribute}". Filterable attributes: ${FILTERABLE[args.object].join(", ")}.`);
      }
      if (filter.value === undefined || Array.isArray(filter.value)) {
        fail(`The filter op ${filter.op} needs a single value to compare "${filter.attribute}" with.`);
      }
    }

    const query = args.query?.toLowerCase();
    const matches = recordsOf(state, args.object).filter((record) => {
      const text = record as unknown as Values;
      if (
        query &&
        !["name", "email", "domain"].some((key) =>
          String(text[key] ?? "")
            .toLowerCase()
            .includes(query),
        )
      ) {
        return false;
      }
      if (filters.length === 0) return true;
      return args.match === "all" ? filters.every((f) => holds(record, f)) : filters.some((f) => holds(record, f));
    });

    return { records: matches.slice(0, args.limit), total: matches.length };
  },

  "create-record": (args, { state, now, fail, labelId }) => {
    const { object } = args;
    const values: Values = args.values;
    checkAttributes(object, values, fail);
    const missing = REQUIRED[object].filter((name) => values[name] === undefined);
    if (missing.length > 0) fail(`A record in ${object} needs ${missing.join(" and ")}.`);
    checkReferences(state, object, values, undefined, fail);

    const records = recordsOf(state, object);
    // A stable id: the n-th record created in this object in a run always gets the same UUID.
    const id = labelId(`${object}/created-${records.length + 1}`);
    const record = {
      id,
      ...values,
      created_at: now,
      ...(object === "deals" ? { updated_at: now } : {}),
    } as CrmRecord;
    records.push(record);
    return { object, record_id: id, web_url: webUrl(object, id), record };
  },

  "update-record": (args, { state, now, fail, log }) => {
    const { object, record_id } = args;
    const values: Values = args.values;
    const record = recordsOf(state, object).find((r) => r.id === record_id) ?? fail(`Record ${record_id} was not found in ${object}.`);
    checkAttributes(object, values, fail);
    checkReferences(state, object, values, record_id, fail);

    if (object === "deals") {
      const deal = record as Deal;
      const stage = values.stage as Stage | undefined;
      if (stage && stage !== deal.stage && (deal.stage === "won" || deal.stage === "lost")) {
        fail(`The deal "${deal.name}" is ${deal.stage}; a closed deal's stage cannot be changed.`);
      }
      const value = values.value ?? deal.value;
      if (stage === "won" && value === undefined) {
        fail(`The deal "${deal.name}" needs a value before it can be marked won.`);
      }
      if (stage && stage !== deal.stage) log({ deal: deal.id, from: deal.stage, to: stage });
    }

    Object.assign(record, values);
    if (object === "deals") (record as Deal).updated_at = now;
    return {
      object,
      record_id,
      web_url: webUrl(object, record_id),
      updated_attributes: Object.keys(values),
      record,
    };
  },
});
