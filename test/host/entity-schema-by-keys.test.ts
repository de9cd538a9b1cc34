import { describe, expect, it } from "vitest";
import { type CompiledSchema, createSchemaCompiler, isKeyWiseSchema, keyWiseSchema } from "../../engine/author/contract/index.js";
import { type States, StateStore, stateProblem } from "../../engine/serve/runtime/index.js";

type Order = { id: string; status: string };
const ORDER = { type: "object", properties: { id: { type: "string" }, status: { enum: ["open", "shipped"] } }, required: ["id", "status"] };
const BY_ID = { type: "object", additionalProperties: ORDER };

function world(size: number, status = "open"): States {
  const orders: Record<string, Order> = {};
  for (let i = 0; i < size; i++) orders[`o-${i}`] = { id: `o-${i}`, status: i === 3 ? status : "open" };
  return { shop: { orders } };
}

/** `BY_ID` compiled (noted as checked key by key unless `plain`), with the sizes of the objects it was asked to check. */
function counted(plain = false): { schema: CompiledSchema; checked: number[] } {
  const compiled = createSchemaCompiler().compile(BY_ID);
  const checked: number[] = [];
  const schema: CompiledSchema = {
    ...compiled,
    validate: (value) => {
      checked.push(Object.keys(value as object).length);
      return compiled.validate(value);
    },
    errorsText: () => compiled.errorsText(),
  };
  return { schema: plain ? schema : keyWiseSchema(schema, BY_ID), checked };
}

/** One write to `orders` on `store`: the problem `stateProblem` finds with `schema`, else the commit made. */
function write(store: StateStore, schema: CompiledSchema, body: (orders: Record<string, Order>) => void): string | undefined {
  const draft = store.draft("shop", ["orders"]);
  body(draft.state.orders as Record<string, Order>);
  const changes = draft.changes()!;
  const problem = stateProblem(new Map([["orders", schema]]), "shop/write", changes, store.states.shop);
  if (!problem) store.commit("shop", changes);
  return problem;
}

describe("an entity whose schema constrains each record alone", () => {
  it("is checked by the records a write changed once its value before was found to fit", () => {
    const { schema, checked } = counted();
    const store = new StateStore(world(2_000), undefined, false, { layeredMinKeys: 1 });
    expect(write(store, schema, (orders) => void (orders["o-1"].status = "shipped"))).toBeUndefined();
    // The starting value is checked whole once, then each write's changed records alone.
    expect(write(store, schema, (orders) => void (orders["o-2"].status = "shipped"))).toBeUndefined();
    expect(write(store, schema, (orders) => void (orders["o-new"] = { id: "o-new", status: "open" }))).toBeUndefined();
    expect(write(store, schema, (orders) => void delete orders["o-5"])).toBeUndefined();
    expect(checked).toEqual([2_000, 1, 1, 1, 0]);
    // A session of the same start checks it whole no more.
    const again = new StateStore(store.initial, store.initial, true, { layeredMinKeys: 1 });
    expect(write(again, schema, (orders) => void (orders["o-9"].status = "shipped"))).toBeUndefined();
    expect(checked.slice(5)).toEqual([1]);
  });

  it("refuses a changed record outside the schema in the words of the whole value's check", () => {
    const keyed = counted();
    const whole = counted(true);
    const bad = (orders: Record<string, Order>) => void (orders["o-7"].status = "lost");
    const stores = [keyed, whole].map(({ schema }) => {
      const store = new StateStore(world(50), undefined, false, { layeredMinKeys: 1 });
      write(store, schema, (orders) => void (orders["o-1"].status = "shipped"));
      return store;
    });
    const problem = write(stores[0], keyed.schema, bad);
    expect(problem).toMatch(/would leave orders outside its schema: data\/o-7\/status must be equal to one of the allowed values/);
    expect(problem).toBe(write(stores[1], whole.schema, bad));
  });

  it("checks every write of a value that started outside the schema whole, and refuses it", () => {
    const { schema, checked } = counted();
    const store = new StateStore(world(50, "lost"), undefined, false, { layeredMinKeys: 1 });
    for (const id of ["o-1", "o-2"]) expect(write(store, schema, (orders) => void (orders[id].status = "shipped"))).toMatch(/data\/o-3\/status/);
    expect(checked).toEqual([50, 50, 50]);
  });

  it("is told from schemas that constrain keys together", () => {
    expect(isKeyWiseSchema(BY_ID)).toBe(true);
    expect(isKeyWiseSchema({ type: "object", patternProperties: { "^o-": ORDER }, propertyNames: { pattern: "^o-" }, description: "orders" })).toBe(true);
    for (const together of [
      { type: "object" },
      { ...BY_ID, required: ["o-1"] },
      { ...BY_ID, maxProperties: 10 },
      { ...BY_ID, properties: { "o-1": ORDER } },
      { ...BY_ID, allOf: [{ minProperties: 1 }] },
      { additionalProperties: ORDER },
      { type: ["object", "null"], additionalProperties: ORDER },
      { $ref: "#/definitions/orders" },
    ])
      expect(isKeyWiseSchema(together)).toBe(together.type === "object" && Object.keys(together).length === 1);
  });
});
