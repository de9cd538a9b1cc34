/**
 * What model requests cost, and the budget a run stops at. Prices are US dollars per million
 * tokens, as the providers published them (list prices, no caching or batch discounts); a
 * Recipe can add or override models with `prices`.
 */

export interface Price {
  /** Dollars per million input tokens. */
  input: number;
  /** Dollars per million output tokens. */
  output: number;
}

/** List prices of the models this table knows, by `provider:model`. */
export const PRICES: Readonly<Record<string, Price>> = {
  "anthropic:claude-opus-4-5": { input: 5, output: 25 },
  "anthropic:claude-opus-4-1": { input: 15, output: 75 },
  "anthropic:claude-sonnet-4-5": { input: 3, output: 15 },
  "anthropic:claude-sonnet-4-0": { input: 3, output: 15 },
  "anthropic:claude-haiku-4-5": { input: 1, output: 5 },
  "anthropic:claude-3-5-haiku-latest": { input: 0.8, output: 4 },
  "openai:gpt-5": { input: 1.25, output: 10 },
  "openai:gpt-5-mini": { input: 0.25, output: 2 },
  "openai:gpt-5-nano": { input: 0.05, output: 0.4 },
  "openai:gpt-4.1": { input: 2, output: 8 },
  "openai:gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "openai:gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "openai:gpt-4o": { input: 2.5, output: 10 },
  "openai:gpt-4o-mini": { input: 0.15, output: 0.6 },
  "openai:o3": { input: 2, output: 8 },
  "openai:o4-mini": { input: 1.1, output: 4.4 },
  "google:gemini-2.5-pro": { input: 1.25, output: 10 },
  "google:gemini-2.5-flash": { input: 0.3, output: 2.5 },
  "google:gemini-2.5-flash-lite": { input: 0.1, output: 0.4 },
  "google:gemini-2.0-flash": { input: 0.1, output: 0.4 },
};

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** The cost of one request's usage at a price. */
export function costOf(usage: Usage, price: Price): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** The price of a model, from the caller's prices first, then the table. */
export function priceOf(model: string, prices: Readonly<Record<string, Price>> = {}): Price | undefined {
  return prices[model] ?? PRICES[model];
}

/** A budget was set for a model the price table does not know: the spend could not be counted. */
export class UnknownPriceError extends Error {
  constructor(model: string) {
    super(
      `[eval-simulate] a budget needs the price of ${model}, which the price table does not have: add it (--prices prices.json, or the prices option: { "${model}": { "input": n, "output": n } }, dollars per million tokens)`,
    );
    this.name = "UnknownPriceError";
  }
}

/**
 * Spend across every request of a run, stopping before it would cross `limitUsd`: a request is
 * only started when the spend so far plus the dearest request seen yet (the best guess of the
 * next one's cost) stays within the limit.
 *
 * @example const budget = new Budget(5, "anthropic:claude-sonnet-4-5"); if (budget.allows()) budget.charge(usage);
 */
export class Budget {
  private spent = 0;
  private dearest = 0;
  readonly price: Price | undefined;

  constructor(
    readonly limitUsd: number | undefined,
    readonly model: string,
    prices: Readonly<Record<string, Price>> = {},
  ) {
    this.price = priceOf(model, prices);
    if (limitUsd !== undefined && this.price === undefined) throw new UnknownPriceError(model);
  }

  /** Whether another request fits. */
  allows(): boolean {
    return this.limitUsd === undefined || this.spent + this.dearest <= this.limitUsd;
  }

  /** Counts one request's usage; returns its cost (0 when the model has no known price). */
  charge(usage: Usage): number {
    const cost = this.price ? costOf(usage, this.price) : 0;
    this.spent += cost;
    this.dearest = Math.max(this.dearest, cost);
    return cost;
  }

  get spentUsd(): number {
    return this.spent;
  }
}
