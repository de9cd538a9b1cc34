import { type CompiledSchema, createSchemaCompiler } from "../../author/contract/index.js";
import type { StubManifest, StubOutcome } from "../../author/model/index.js";

/** A stub chosen for a call, and the outcome it plays this time. */
export interface StubChoice {
  stub: StubManifest;
  outcome: StubOutcome;
}

/** How often each stub answered, for `/admin/stubs` and the unused-stub warnings. */
export interface StubUsage {
  id: string;
  fake: string;
  target: string;
  uses: number;
}

interface LiveStub {
  stub: StubManifest;
  match?: CompiledSchema;
  uses: number;
}

/**
 * A scenario's stubs, tried top to bottom before the handler; the first that matches wins.
 * `outcomes` advance per matching call and repeat their last entry; only the chosen stub
 * advances. Matching reads the arguments as sent: no defaults, no coercion.
 *
 * @example const stubs = new StubSet(scenario.stubs); stubs.choose("mail", "send-email", args);
 */
export class StubSet {
  private readonly stubs: LiveStub[];

  constructor(stubs: readonly StubManifest[]) {
    const compiler = createSchemaCompiler({ defaultDialect: "2020-12" });
    this.stubs = stubs.map((stub) => ({
      stub,
      uses: 0,
      match:
        stub.match && Object.keys(stub.match).length > 0
          ? compiler.compile({ type: "object", properties: stub.match, required: Object.keys(stub.match) })
          : undefined,
    }));
  }

  /**
   * A set with the same stubs and compiled matches (nothing is compiled again): its sequences
   * start over, or carry on from where this set's are with `keepUses` (a forked session).
   */
  copy(keepUses = false): StubSet {
    const copy = Object.create(StubSet.prototype) as StubSet;
    (copy as unknown as { stubs: LiveStub[] }).stubs = this.stubs.map((live) => ({ ...live, uses: keepUses ? live.uses : 0 }));
    return copy;
  }

  /** The stub that answers this call, advancing its sequence; undefined when none matches. */
  choose(fake: string, target: string | readonly string[], args: unknown): StubChoice | undefined {
    const targets = typeof target === "string" ? [target] : target;
    for (const live of this.stubs) {
      if (live.stub.fake !== fake || !targets.includes(live.stub.target)) continue;
      if (live.match && !live.match.validate(args ?? {})) continue;
      const outcomes = live.stub.outcomes;
      const outcome = outcomes[Math.min(live.uses, outcomes.length - 1)];
      live.uses++;
      return { stub: live.stub, outcome };
    }
    return undefined;
  }

  /** Each stub with how many calls it answered. */
  usage(fake?: string): StubUsage[] {
    return this.stubs
      .filter((live) => fake === undefined || live.stub.fake === fake)
      .map(({ stub, uses }) => ({ id: stub.id, fake: stub.fake, target: stub.target, uses }));
  }

  /** Warnings for the stubs no call used: a stub that never matched usually means a typo in `match`. */
  unusedWarnings(scenario: string): string[] {
    return this.usage()
      .filter((u) => u.uses === 0)
      .map((u) => `[eval-simulate] warning: stub "${u.id}" of scenario "${scenario}" (${u.fake}/${u.target}) was never used`);
  }
}

/** Waits `ms`, or less when the call is aborted. */
export function stubDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
