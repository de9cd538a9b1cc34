/**
 * A trial: the transcript (user, agent and tool messages interleaved; each call with its
 * arguments, answer and commit), every assertion with its status, message and evidence linked to
 * its calls and commits, and the world the trial touched at any commit, chosen with a slider.
 */
import { Badge, Long, Stat, Table } from "./common.js";
import { dollars, fixed, jsonText, seconds, tokens } from "./format.js";
import { href, trialKey } from "./route.js";
import { answerText, messagesOf, type ToolCallView } from "./transcript.js";
import type { AssertionView, TrialLine, ViewRun } from "./types.js";
import { commitsOf, worldAtCommit } from "./world-at-commit.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The calls and commits an assertion points at: its evidence's call numbers, and "commit #n" in its message. */
function pointers(a: AssertionView): { calls: number[]; commits: number[] } {
  const calls = new Set<number>();
  const e = isObject(a.evidence) ? a.evidence : {};
  for (const n of Array.isArray(e.calls) ? e.calls : []) if (typeof n === "number") calls.add(n);
  for (const p of Array.isArray(e.placed) ? e.placed : []) if (isObject(p) && typeof p.call === "number") calls.add(p.call);
  for (const m of (a.message ?? "").matchAll(/call #(\d+)/g)) calls.add(Number(m[1]));
  const commits = [...(a.message ?? "").matchAll(/commit #(\d+)/g)].map((m) => Number(m[1]));
  return { calls: [...calls], commits: [...new Set(commits)] };
}

const statusOf = (a: AssertionView) => (a.status === "not_evaluated" ? "not evaluated" : a.status === "failed" || a.passed === false ? "fail" : "pass");

function showCall(seq: number) {
  const row = document.getElementById(`call-${seq}`);
  row?.scrollIntoView({ block: "center" });
  row?.classList.add("flash");
  setTimeout(() => row?.classList.remove("flash"), 1200);
}

function CallBlock(props: { call: ToolCallView; link: (commit: number) => string }) {
  const { call } = props;
  return (
    <div class={`msg tool ${call.isError ? "is-error" : ""}`} id={`call-${call.seq}`} data-call={call.seq}>
      <div class="msg-head">
        <span class="role">tool</span> <span class="mono">{`#${call.seq} ${call.server ? `${call.server}/` : ""}${call.name}`}</span>{" "}
        {call.isError ? <Badge status="error" /> : null}
        {call.commit !== undefined ? (
          <a class="commit-link" href={props.link(call.commit)}>{`commit #${call.commit}`}</a>
        ) : null}
      </div>
      <div class="pair">
        <div>
          <div class="label">arguments</div>
          <Long value={call.args} />
        </div>
        <div>
          <div class="label">answer</div>
          <Long value={answerText(call.result)} />
        </div>
      </div>
    </div>
  );
}

function World(props: { calls: ToolCallView[]; commit?: number; link: (commit: number) => string; base: string }) {
  const commits = commitsOf(props.calls);
  if (commits.length === 0) return <p class="muted">This trial committed nothing: the world it left is the one it started from.</p>;
  const at = props.commit ?? commits[commits.length - 1].commit!;
  const position = Math.max(0, commits.findIndex((c) => c.commit === at));
  const world = worldAtCommit(props.calls, at);
  const made = commits[position];
  return (
    <div id="world">
      <label class="slider">
        <span>{`at commit #${at} of ${commits.length}`}</span>
        <input
          type="range"
          id="commit-slider"
          min={0}
          max={commits.length - 1}
          value={position}
          onInput={(e) => location.replace(props.link(commits[Number((e.target as HTMLInputElement).value)].commit!))}
        />
      </label>
      <p class="muted">
        {`made by call #${made.seq} ${made.server}/${made.name}. `}
        <a href={props.base}>every commit</a>
      </p>
      {world.map((entity) => (
        <section class="entity" data-entity={`${entity.fake}.${entity.entity}`}>
          <h3 class="mono">{`${entity.fake}.${entity.entity}`}</h3>
          <Table>
            <tbody>
              {entity.records.map((r) => (
                <tr data-record={r.key}>
                  <td class="mono">{r.key}</td>
                  <td>
                    <span class={`change ${r.status}`}>{r.status}</span> <span class="muted">{`#${r.commit}`}</span>
                  </td>
                  <td class="value">{r.value === undefined ? "" : <Long value={r.value} />}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          {entity.operations.length > 0 ? <Long value={entity.operations} /> : null}
        </section>
      ))}
    </div>
  );
}

export function TrialPage(props: { run: ViewRun; index: number; trial: string; commit?: number }) {
  const trial: TrialLine | undefined = props.run.trials.find((t) => trialKey(t) === props.trial);
  if (!trial) return <p class="page">{`No trial ${props.trial} in this run.`}</p>;
  const messages = messagesOf(trial as TrialLine & { transcript?: unknown });
  const calls = messages.flatMap((m) => (m.role === "tool" ? [m.call] : []));
  const route = { page: "trial" as const, run: props.index, trial: props.trial };
  const link = (commit: number) => href({ ...route, commit });
  const assertions = trial.assertions as AssertionView[];
  return (
    <div class="page" data-page="trial">
      <p class="crumbs">
        <a href={href({ page: "run", run: props.index })}>← run</a> · <a href={href({ page: "case", run: props.index, case: trial.case })}>{`case ${trial.case}`}</a>
      </p>
      <h1>
        <span class="mono">{trial.case}</span> {`trial ${trial.iteration + 1}`} <Badge status={trial.status} />
      </h1>
      <div class="stats">
        <Stat label="model">{trial.model}</Stat>
        <Stat label="score">{fixed(trial.score)}</Stat>
        <Stat label="calls">{trial.calls}</Stat>
        <Stat label="tokens in / out">{tokens(trial.usage)}</Stat>
        <Stat label="cost">{dollars(trial.costUsd)}</Stat>
        <Stat label="time">{seconds(trial.durationMs)}</Stat>
        {trial.traceId ? <Stat label="trace">{trial.traceId}</Stat> : null}
      </div>
      {trial.reason ? <p class="failure">{trial.reason}</p> : null}
      <section class="card">
        <h2>Assertions</h2>
        <Table id="assertions">
          <thead>
            <tr>
              <th>assertion</th>
              <th>result</th>
              <th>message</th>
              <th>evidence</th>
            </tr>
          </thead>
          <tbody>
            {assertions.map((a) => {
              const { calls: refs, commits } = pointers(a);
              return (
                <tr data-status={statusOf(a)}>
                  <td class="mono name">{a.assertion}</td>
                  <td>
                    <Badge status={statusOf(a)} />
                  </td>
                  <td class="value">{a.message ?? ""}</td>
                  <td class="value">
                    {refs.map((n) => (
                      <button type="button" class="link" onClick={() => showCall(n)}>{`call #${n}`}</button>
                    ))}
                    {commits.map((n) => (
                      <a class="commit-link" href={link(n)}>{`commit #${n}`}</a>
                    ))}
                    {a.evidence !== undefined ? (
                      <details>
                        <summary>evidence</summary>
                        <Long value={jsonText(a.evidence)} />
                      </details>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      </section>
      <section class="card">
        <h2>Transcript</h2>
        <div id="transcript">
          {messages.map((m) =>
            m.role === "tool" ? (
              <CallBlock call={m.call} link={link} />
            ) : (
              <div class={`msg ${m.role}`}>
                <div class="msg-head">
                  <span class="role">{m.role === "assistant" ? "agent" : "user"}</span>
                  {m.by ? <span class="muted">{` (${m.by})`}</span> : null}
                </div>
                <Long value={m.text} class="text" />
              </div>
            ),
          )}
          {messages.length === 0 ? <p class="muted">No messages: the trial made no call and gave no answer.</p> : null}
        </div>
        {trial.session?.truncated ? <p class="muted">{`The record was cut to fit the line: ${jsonText(trial.session.truncated)}`}</p> : null}
      </section>
      <section class="card">
        <h2>World</h2>
        <World calls={calls} commit={props.commit} link={link} base={href(route)} />
      </section>
    </div>
  );
}
