/**
 * The agent hosts of a run, made once per distinct configuration and shared by its trials (a
 * model's provider client, say), then closed together.
 */
import type { Variant } from "../../judge/selection/index.js";
import { type AgentHost, commandHost, modelHost, scriptHost } from "../hosts/index.js";
import type { RequestGate, RetryOptions, SpendLedger } from "../models/index.js";
import { type HostChoice, isAgentHost } from "./trial-plan.js";

export interface HostContext {
  env: NodeJS.ProcessEnv;
  ledger: SpendLedger;
  retry?: RetryOptions;
  variant?: Variant;
  /** Every model request waits for its permit here (provider limits). */
  gate?: RequestGate;
}

/** A run's hosts, by configuration. */
export class TrialHosts {
  private readonly hosts = new Map<string, AgentHost>();

  constructor(private readonly context: HostContext) {}

  /**
   * The host for a configuration, made on first use.
   *
   * @example const host = hosts.of({ type: "script" });
   */
  of(choice: HostChoice): AgentHost {
    if (isAgentHost(choice)) return choice;
    const id = JSON.stringify(choice);
    let host = this.hosts.get(id);
    if (!host) {
      const { env, ledger, retry, variant, gate } = this.context;
      if (choice.type === "model") host = modelHost(choice, { env, ledger, retry, ...(variant ? { variant } : {}), ...(gate ? { gate } : {}) });
      else if (choice.type === "command") host = commandHost(choice);
      else host = scriptHost();
      this.hosts.set(id, host);
    }
    return host;
  }

  /** What results lines name the host by (a model's `provider:model` as the case wrote it). */
  label(choice: HostChoice): string {
    return isAgentHost(choice) ? choice.label : choice.type === "model" ? choice.model : this.of(choice).label;
  }

  /** Closes every host made (a host given ready-made is its owner's to close). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.hosts.values()].map((host) => host.close?.()));
  }
}
