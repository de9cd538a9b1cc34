import { compileBounded, type Expression, expressionProblem, toPlainJson } from "./bounded-jsonata.js";
import { labelId } from "./label-id.js";

/**
 * The manifest's `invariants`: rules every scenario's world must satisfy, as JSONata
 * expressions reading `$world` that must evaluate to true.
 */

/** An invariant ready to check. */
export interface CompiledInvariant {
  name: string;
  expression: Expression;
  /** The manifest's shared functions, bound by name before the invariant runs. */
  functions?: ReadonlyArray<{ name: string; expression: Expression }>;
}

/** An invariant whose expression does not compile. */
export interface InvariantSyntaxProblem {
  name: string;
  /** Its index in the manifest's `invariants`. */
  index: number;
  /** Always E_JSONATA_SYNTAX (the validator's code). */
  code: "E_JSONATA_SYNTAX";
  /** jsonata's own code, such as S0201. */
  jsonataCode: string;
  message: string;
  /** The offending token's offset in the `assert` string, when jsonata gives one. */
  offset?: number;
}

/** An invariant a world does not satisfy. */
export interface InvariantFailure {
  name: string;
  /** Its index in the list checked. */
  index: number;
  /** Absent when the expression returned false; else why it could not say true. */
  error?: string;
}

/**
 * Compiles the manifest's invariants, each with the time and depth limits; syntax errors are
 * returned, all of them, rather than thrown.
 *
 * @example const { compiled, problems } = compileInvariants(manifest.invariants ?? []);
 */
export function compileInvariants(
  invariants: ReadonlyArray<{ name: string; assert: string }>,
  functions: Readonly<Record<string, string>> = {},
): {
  compiled: CompiledInvariant[];
  problems: InvariantSyntaxProblem[];
} {
  const compiled: CompiledInvariant[] = [];
  const problems: InvariantSyntaxProblem[] = [];
  // A function that does not compile is the manifest check's to report (at `functions`), not an invariant's.
  const shared = Object.entries(functions).flatMap(([name, source]) => {
    const result = compileBounded(source);
    return "expression" in result ? [{ name, expression: result.expression }] : [];
  });
  invariants.forEach(({ name, assert }, index) => {
    const result = compileBounded(assert);
    if ("expression" in result) compiled.push({ name, expression: result.expression, ...(shared.length > 0 ? { functions: shared } : {}) });
    else {
      const { code, message, offset } = result.problem;
      problems.push({ name, index, code: "E_JSONATA_SYNTAX", jsonataCode: code, message, ...(offset === undefined ? {} : { offset }) });
    }
  });
  return { compiled, problems };
}

/**
 * The invariants a world breaks: those returning false, returning anything but a boolean, or
 * failing to evaluate (a runaway expression hits the time limit and fails, it does not hang).
 * `$world` is the world; `$now` is the clock when one is given; `$labelId(label)` and the
 * manifest's shared functions are bound.
 *
 * @example const failures = await checkInvariants(world, compiled); // [] when all hold
 */
export async function checkInvariants(world: unknown, invariants: ReadonlyArray<CompiledInvariant>, clock?: Date): Promise<InvariantFailure[]> {
  const bindings: Record<string, unknown> = { world, labelId };
  if (clock) Object.assign(bindings, { now: clock.toISOString(), millis: () => clock.getTime() });
  const failures: InvariantFailure[] = [];
  // Each function closes over these bindings (`$world`); one that fails to define is left out, and a call to it fails.
  for (const fn of invariants[0]?.functions ?? []) {
    try {
      Object.defineProperty(bindings, fn.name, {
        value: await fn.expression.evaluate(undefined, bindings),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } catch {}
  }
  for (const [index, { name, expression }] of invariants.entries()) {
    let result: unknown;
    try {
      result = await expression.evaluate(undefined, bindings);
    } catch (error) {
      const problem = expressionProblem(error);
      const at = problem.offset === undefined ? "" : ` at character ${problem.offset}`;
      failures.push({ name, index, error: `failed${at}: ${problem.message}` });
      continue;
    }
    if (result === true) continue;
    if (result === false) failures.push({ name, index });
    else failures.push({ name, index, error: `returned ${describeResult(result)}, not true/false` });
  }
  return failures;
}

/** A short, readable rendering of a non-boolean result. */
function describeResult(result: unknown): string {
  if (result === undefined) return "nothing (a path that matched no value?)";
  let text: string;
  try {
    text = JSON.stringify(toPlainJson(result));
  } catch {
    return "a function";
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
