/**
 * One spending limit across every model of a run: `--budget-usd` (or `EVAL_BUDGET_USD`), each
 * model's requests charged at its own price, the run stopping before the total would cross it.
 */
import { Budget, costOf, type Price, priceOf, UnknownPriceError, type Usage } from "./pricing.js";

/** The limit in dollars from a flag or the environment, or why it is not a number. */
export function budgetLimit(flag: string | number | undefined, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = flag ?? env.EVAL_BUDGET_USD;
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`[eval-simulate] a budget is a number of US dollars (--budget-usd 5, EVAL_BUDGET_USD=5), not "${raw}"`);
  return value;
}

/** The total spent by every model of a run, against one limit. */
export class SpendLedger {
  spentUsd = 0;
  /** The dearest single request so far: the guess of what the next one costs. */
  dearestUsd = 0;

  /**
   * Every model with a price (the caller's `prices` first, then the table); with a limit, a
   * model without one is an error, since its spend could not be counted.
   *
   * @example const ledger = new SpendLedger(5, ["anthropic:claude-sonnet-4-5"]);
   */
  constructor(
    readonly limitUsd: number | undefined,
    models: readonly string[] = [],
    readonly prices: Readonly<Record<string, Price>> = {},
  ) {
    if (limitUsd !== undefined) for (const model of models) if (priceOf(model, prices) === undefined) throw new UnknownPriceError(model);
  }

  /** Whether another request (or trial) fits. */
  allows(): boolean {
    return this.limitUsd === undefined || this.spentUsd + this.dearestUsd <= this.limitUsd;
  }

  /** The Budget a model's agent loop charges: its requests counted here, at its price. */
  forModel(model: string): Budget {
    return new LedgerBudget(this, model);
  }
}

/** A model's view of the shared ledger, in the shape `runModelAgent` takes. */
class LedgerBudget extends Budget {
  constructor(
    private readonly ledger: SpendLedger,
    model: string,
  ) {
    super(undefined, model, ledger.prices);
  }

  override allows(): boolean {
    return this.ledger.allows();
  }

  override charge(usage: Usage): number {
    const cost = this.price ? costOf(usage, this.price) : 0;
    this.ledger.spentUsd += cost;
    this.ledger.dearestUsd = Math.max(this.ledger.dearestUsd, cost);
    super.charge(usage);
    return cost;
  }
}
