import { getHeapStatistics } from "node:v8";
import { MAX_WALK, treeSize } from "./jsonata-value-size.js";

/**
 * The limits of one handler run, enforced from jsonata's evaluation hook. jsonata's own
 * `timeout` and `stack` options measure each `evaluate()` from its own start, while a block's
 * parts share one deadline; and jsonata evaluates on microtasks only, so a runaway expression
 * would starve the event loop (every other fake on the port, and the timer that would abort it)
 * unless the hook yields now and then.
 */

/** What one handler run may use. */
export interface RunLimits {
  /** The whole run's time limit: every part of a block shares one deadline. */
  timeoutMs: number;
  /** How deeply evaluations may nest (jsonata's evaluation depth, not the user's recursion depth). */
  maxDepth: number;
  /** Ends the run when aborted (the client went away, the host is closing). */
  signal?: AbortSignal;
}

/** §7: a handler over its time limit (30 s by default) is a tool error. */
export const DEFAULT_RUN_LIMITS: Readonly<RunLimits> = { timeoutMs: 30_000, maxDepth: 500 };

/** Why a run was stopped from inside jsonata. */
/** `stalled`: the watchdog terminated a blocked event loop while the run was under way. */
export type StopReason = "timeout" | "depth" | "aborted" | "too-large" | "not-implemented" | "stalled";

/**
 * Thrown through jsonata to end a run. jsonata adds `position` and `token` to what passes its
 * function calls, and `$eval` wraps it in its own error; `findStop` digs it out again.
 */
export class RunStop {
  position?: number;
  token?: string;
  /**
   * @param detail what was built ("a string of 12 characters"), or for `not-implemented` what is missing
   * @param refusal a whole clause said instead of "built <detail>, past its limit": "gave $pad a width of 1e9"
   */
  constructor(
    readonly reason: StopReason,
    readonly detail: string,
    readonly refusal?: string,
  ) {}
}

/** The first RunStop in a jsonata error and the errors it wraps (`$eval` wraps as `{ error }`). */
export function findStop(error: unknown): RunStop | undefined {
  for (let e = error, hops = 0; typeof e === "object" && e !== null && hops < 20; e = (e as { error?: unknown }).error, hops++) {
    if (e instanceof RunStop) return e;
  }
  return undefined;
}

/** How often a long evaluation yields to the event loop, and looks at the heap. */
const YIELD_EVERY_MS = 10;
/** Past this share of the heap limit the process is about to die: stop the run first. */
const HEAP_CEILING = 0.85;

/**
 * One run's deadline, depth limit and cancellation, checked as jsonata enters every expression.
 *
 * @example
 * const guard = new RunGuard({ timeoutMs: 1000, maxDepth: 500, signal });
 * await compiled.expression.evaluate(args, bindings, guard); // every part of the run, one guard
 */
export class RunGuard {
  readonly limits: RunLimits;
  /** When the run's time is up; pushed back by the time it spent yielded to others. */
  private deadline: number;
  private lastYield: number;
  /** When the run last yielded to the event loop, until it is entered again. */
  private yieldedAt: number | undefined;

  constructor(limits: Partial<RunLimits> = {}) {
    this.limits = { ...DEFAULT_RUN_LIMITS, ...limits };
    const now = Date.now();
    this.deadline = now + this.limits.timeoutMs;
    this.lastYield = now;
  }

  /** Throws when the run must end; sometimes returns a promise that yields to the event loop. */
  enter(depth: number): Promise<void> | undefined {
    if (depth > this.limits.maxDepth) throw this.stop("depth");
    if (this.limits.signal?.aborted) throw this.stop("aborted");
    const now = this.resumed();
    if (now > this.deadline) throw this.stop("timeout");
    if (now - this.lastYield < YIELD_EVERY_MS) return undefined;
    this.lastYield = now;
    const heap = getHeapStatistics();
    if (heap.used_heap_size > heap.heap_size_limit * HEAP_CEILING) throw this.stop("too-large", "memory");
    this.yieldedAt = now;
    return new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * The time now, the deadline moved past the time the run spent yielded: on a busy host the
   * other trials' work between two of its slices is not the expression's, and must not time it out.
   */
  private resumed(): number {
    const now = Date.now();
    if (this.yieldedAt !== undefined) {
      this.deadline += now - this.yieldedAt;
      this.yieldedAt = undefined;
      this.lastYield = now;
    }
    return now;
  }

  /** Throws the stop for a signal aborted or a deadline passed between evaluations. */
  check(): void {
    if (this.limits.signal?.aborted) throw this.stop("aborted");
    if (this.resumed() > this.deadline) throw this.stop("timeout");
  }

  stop(reason: Exclude<StopReason, "not-implemented" | "stalled">, detail = ""): RunStop {
    return new RunStop(reason, detail);
  }
}

/**
 * The binding that carries a run's guard into jsonata. It is not a JSONata name (`-` and `:` are
 * operators), so no expression can read or rebind it.
 */
export const GUARD_BINDING = "eval-simulate:guard";

const CACHED_GUARD = Symbol("eval-simulate.guard");

interface EvaluationFrame {
  lookup(name: string): unknown;
  base: { depth: number; [CACHED_GUARD]?: RunGuard | null };
}

/**
 * jsonata's `__evaluate_entry` hook: finds the run's guard (once per evaluation, kept on the
 * evaluation's root frame) and checks it. An evaluation without a guard runs unchecked.
 */
export function guardEntry(expr: OperandNode, _input: unknown, environment: EvaluationFrame): Promise<void> | undefined {
  // The bounds are marked as the range is entered, before they are evaluated, so a range that
  // `$eval` parses at run time is covered as well as one compiled with the manifest.
  if (expr.type === "binary") {
    const role = expr.value === ".." ? "range" : expr.value === "=" || expr.value === "!=" ? "equality" : undefined;
    if (role && expr.lhs) expr.lhs[OPERAND] = role;
    if (role && expr.rhs) expr.rhs[OPERAND] = role;
  }
  const base = environment.base;
  let guard = base[CACHED_GUARD];
  if (guard === undefined) {
    const found = environment.lookup(GUARD_BINDING);
    guard = base[CACHED_GUARD] = found instanceof RunGuard ? found : null;
  }
  return guard?.enter(base.depth);
}

/**
 * Range bounds (`[a..b]`) are checked as they are evaluated. jsonata 2.2.2 builds a range
 * with `item++` from `a` to `b` in one synchronous loop; past 2^53 `item++` no longer changes the
 * number, so the loop never ends and fills the heap (its own size check, `b - a + 1`, passes).
 */
const OPERAND = Symbol("eval-simulate.operand");

/**
 * An AST node, marked when it is an operand jsonata uses in one synchronous step: a range's
 * bound, or a side of `=`/`!=` (compared deeply, every shared part walked again).
 */
interface OperandNode {
  type?: string;
  value?: unknown;
  lhs?: OperandNode;
  rhs?: OperandNode;
  [OPERAND]?: "range" | "equality";
}

/** A range bound past the integers a double holds exactly (±(2^53 − 1)) ends the run. */
function checkRangeBound(value: unknown): void {
  if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    throw new RunStop(
      "too-large",
      `a range bound of ${value}`,
      `gave a range the bound ${value}, past ±${Number.MAX_SAFE_INTEGER} (2^53 − 1), beyond which a range cannot count`,
    );
  }
}

/**
 * Values already counted and found small enough: a variable compared once per item of a filter
 * (`$state.notes[tags = $wanted]`) is counted once, not once per item.
 */
const comparable = new WeakSet<object>();

/** A side of `=`/`!=` too large to compare in one step ends the run. */
function checkComparable(value: object): void {
  if (comparable.has(value)) return;
  const size = treeSize(value);
  if (size === undefined) {
    throw new RunStop(
      "too-large",
      `a value of more than ${MAX_WALK} nodes`,
      `compared a value of more than ${MAX_WALK} nodes with = or != (shared parts count each time they are reached)`,
    );
  }
  // Small ones (a path's one-item sequence per item) cost less to count again than to remember.
  if (size > 1000) comparable.add(value);
}

/**
 * jsonata's `__evaluate_exit` hook. It enforces an expression's size caps: a string or an array
 * past its cap ends the run as soon as it is built, before it is built upon; a range bound past
 * 2^53 ends it before jsonata's range loop starts, and a side of `=` too large to compare before
 * the comparison. And it undoes
 * jsonata's one write to its input: a path ending in `[]` whose value is an array of the input
 * (`$state.notes[]`) gets `keepSingleton = true` set on that very array. jsonata reads the flag
 * only on its own sequences (marked `sequence`), so removing it from any other array changes
 * nothing but the input, which stays as the caller gave it.
 */
export function exitHook(maxStringLength: number, maxSequence: number) {
  return (expr: OperandNode & { keepSingletonArray?: boolean }, _input: unknown, _environment: unknown, result: unknown): void => {
    if (typeof result === "number") {
      if (!Number.isSafeInteger(result) && expr[OPERAND] === "range") checkRangeBound(result);
    } else if (typeof result === "object" && result !== null && !Array.isArray(result)) {
      if (expr[OPERAND] === "equality") checkComparable(result);
    } else if (typeof result === "string") {
      if (result.length > maxStringLength) throw new RunStop("too-large", `a string of ${result.length} characters`);
    } else if (Array.isArray(result)) {
      if (result.length > maxSequence) throw new RunStop("too-large", `an array of ${result.length} items`);
      // A path gives its one value as a one-item sequence, unwrapped after this hook.
      if (result.length === 1 && expr[OPERAND] === "range") checkRangeBound(result[0]);
      if (expr[OPERAND] === "equality") checkComparable(result);
      if (expr.keepSingletonArray && !(result as { sequence?: boolean }).sequence && "keepSingleton" in result) {
        delete (result as { keepSingleton?: boolean }).keepSingleton;
      }
    }
  };
}
