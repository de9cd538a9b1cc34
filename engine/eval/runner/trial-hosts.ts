/**
 * The agent hosts of a run, made once per distinct configuration and shared by its trials (a
 * model's provider client, say), then closed together.
 */
import type { Variant } from "../../judge/selection/index.js";
import type { EvalCase } from "../../../schema/evals/evals.js";
import { type AgentHost, type AgentTrial, commandHost, modelHost, scriptHost, type UserSimulator } from "../hosts/index.js";
import { modelUser, scriptedUser } from "../conversation/index.js";
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
  private readonly users = new Map<string, ReturnType<typeof modelUser>>();

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

  /**
   * Who plays a conversation case's user: its `user.model` (made once per configuration), or,
   * for the script host (`--dry`) and a case without one, its scripted `turns`.
   *
   * @example const user = hosts.userFor(c, { type: "model", model })(trial);
   */
  userFor(c: EvalCase, choice: HostChoice): (trial: AgentTrial) => UserSimulator {
    const config = c.user;
    if (!config?.model || (!isAgentHost(choice) && choice.type === "script")) return (trial) => scriptedUser(trial);
    const id = JSON.stringify(config);
    let user = this.users.get(id);
    if (!user) {
      const { env, ledger, retry, gate } = this.context;
      user = modelUser(config, { env, ledger, ...(retry ? { retry } : {}), ...(gate ? { gate } : {}) });
      this.users.set(id, user);
    }
    const made = user;
    return (trial) => made.forTrial(trial.session, trial.iteration);
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
