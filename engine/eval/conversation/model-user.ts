/**
 * The model user: a simulator on the AI SDK like the agent, its own system prompt from the
 * case's `instructions`, its temperature and seed, its requests retried and charged to the run's
 * budget apart from the agent's; under dual control it calls the tools of the user's own fakes,
 * recorded in the trial's session as the user's.
 */
import type { LanguageModel } from "ai";
import { DEFAULT_USER_STOP } from "../../../schema/evals/user-stop.js";
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { Session } from "../../serve/host/index.js";
import type { TranscriptMessage, UserReply, UserSimulator } from "../hosts/index.js";
import {
  callServedTool,
  connectTools,
  languageModel,
  loadAi,
  ModelRequestError,
  parseModel,
  type RequestGate,
  type RetryOptions,
  type ServedTool,
  type SpendLedger,
} from "../models/index.js";
import { simulatorMessages, simulatorSystem } from "./simulator-prompt.js";

/** A case's `user:` block. */
export type UserConfig = NonNullable<EvalCase["user"]>;

/** What a model user needs from the run. */
export interface ModelUserContext {
  env: NodeJS.ProcessEnv;
  ledger: SpendLedger;
  retry?: RetryOptions;
  gate?: RequestGate;
}

/** The most model steps one reply may take (its own tool calls, then its message). */
const REPLY_STEPS = 6;

/** Whether a served tool is among the user's: on one of `fakes`, or named in `tools`. */
function usersTool(served: ServedTool, config: UserConfig): boolean {
  if (config.tools) return config.tools.some((name) => name === served.tool.name || name === `${served.server}/${served.tool.name}`);
  return (config.fakes ?? []).includes(served.server);
}

/** Why a simulator request failed, in a sentence. */
function why(error: unknown): string {
  const request = error instanceof ModelRequestError ? error : (error as { cause?: unknown })?.cause;
  if (request instanceof ModelRequestError) return `its requests kept failing (${request.attempts} attempts): ${request.classification.message}`;
  return String((error as Error)?.message ?? error).replace(/^\[eval-simulate\] /, "");
}

/**
 * A maker of model users for `config`: the provider's model made once, a simulator per trial.
 *
 * @example const user = modelUser(c.user, { env, ledger }).forTrial(session, iteration);
 */
export function modelUser(config: UserConfig, context: ModelUserContext): { label: string; forTrial(session: Session, iteration: number): UserSimulator } {
  if (config.model === undefined) throw new Error("[eval-simulate] a model user needs user.model");
  const spec = parseModel(config.model, config.baseURL);
  const stop = config.stop ?? DEFAULT_USER_STOP;
  const dual = config.fakes !== undefined || config.tools !== undefined;
  const system = simulatorSystem(config.instructions, stop, dual);
  let model: Promise<LanguageModel> | undefined;
  return {
    label: config.model,
    forTrial(session, iteration): UserSimulator {
      return {
        label: config.model!,
        async reply(messages: readonly TranscriptMessage[], signal?: AbortSignal): Promise<UserReply> {
          if (!context.ledger.allows()) throw new Error("[eval-simulate] the budget was spent before the user's next reply");
          const budget = context.ledger.forModel(spec.id);
          const usage = { inputTokens: 0, outputTokens: 0 };
          let requests = 0;
          const connected = dual ? await connectTools(session.mcpServers()) : undefined;
          try {
            const { generateText, dynamicTool, jsonSchema, stepCountIs } = await loadAi();
            model ??= languageModel(spec, context.env, { ...context.retry }, {}, context.gate);
            const tools = Object.fromEntries(
              (connected?.tools ?? [])
                .filter((served) => usersTool(served, config))
                .map((served) => [
                  served.name,
                  dynamicTool({
                    description: served.tool.description ?? "",
                    inputSchema: jsonSchema(served.tool.inputSchema as Parameters<typeof jsonSchema>[0]),
                    execute: async (args, { abortSignal }) => {
                      const outcome = await callServedTool(served, args, abortSignal);
                      if (outcome.isError) throw new Error(outcome.text);
                      return outcome.text;
                    },
                  }),
                ]),
            );
            const result = await generateText({
              model: await model,
              system,
              messages: simulatorMessages(messages),
              ...(Object.keys(tools).length > 0 ? { tools } : {}),
              temperature: config.temperature ?? 0,
              ...(config.seed === undefined ? {} : { seed: config.seed + iteration }),
              maxOutputTokens: config.maxTokens,
              maxRetries: 0,
              abortSignal: signal,
              stopWhen: [stepCountIs(REPLY_STEPS), () => !budget.allows()],
              onStepFinish: (step) => {
                requests++;
                const used = { inputTokens: step.usage.inputTokens ?? 0, outputTokens: step.usage.outputTokens ?? 0 };
                usage.inputTokens += used.inputTokens;
                usage.outputTokens += used.outputTokens;
                budget.charge(used);
              },
            });
            const text = result.text.trim();
            const stops = text.includes(stop);
            const content = text.replaceAll(stop, "").trim();
            if (!stops && content === "")
              throw new Error(`[eval-simulate] the user simulator ${spec.id} broke format: it answered no message and no stop signal (${stop})`);
            return { ...(content === "" ? {} : { content }), stop: stops, requests, usage, costUsd: budget.spentUsd };
          } catch (error) {
            if (signal?.aborted) throw error;
            const failure = new Error(`[eval-simulate] the user simulator ${spec.id} failed: ${why(error)}`, { cause: error });
            Object.assign(failure, { spent: { requests, usage, costUsd: budget.spentUsd } });
            throw failure;
          } finally {
            await connected?.close();
          }
        },
      };
    },
  };
}
