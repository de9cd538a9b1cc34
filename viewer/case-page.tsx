/** A case: its trials side by side, each with its verdict, score, calls, failing assertions and answer. */
import { Badge, Long } from "./common.js";
import { dollars, fixed, seconds } from "./format.js";
import { href, trialKey } from "./route.js";
import type { AssertionView, ViewRun } from "./types.js";

export function CasePage(props: { run: ViewRun; index: number; case: string }) {
  const trials = props.run.trials.filter((t) => t.case === props.case).sort((a, b) => a.model.localeCompare(b.model) || a.iteration - b.iteration);
  const summary = props.run.summary.cases.filter((c) => c.case === props.case);
  return (
    <div class="page" data-page="case">
      <p class="crumbs">
        <a href={href({ page: "run", run: props.index })}>← run</a>
      </p>
      <h1>
        Case <span class="mono">{props.case}</span> {summary.map((c) => <Badge status={c.verdict} />)}
      </h1>
      {trials.length === 0 ? <p class="muted">No trial of this case in the run.</p> : null}
      <div class="side-by-side">
        {trials.map((t) => {
          const failed = (t.assertions as AssertionView[]).filter((a) => a.status === "failed" || a.passed === false);
          return (
            <article class="card trial-card" data-trial={trialKey(t)}>
              <h2>
                <a href={href({ page: "trial", run: props.index, trial: trialKey(t) })}>{`trial ${t.iteration + 1}`}</a> <Badge status={t.status} />
              </h2>
              <div class="muted">{t.model}</div>
              <dl class="facts">
                <dt>score</dt>
                <dd>{fixed(t.score)}</dd>
                <dt>calls</dt>
                <dd>{t.calls}</dd>
                <dt>cost</dt>
                <dd>{dollars(t.costUsd)}</dd>
                <dt>time</dt>
                <dd>{seconds(t.durationMs)}</dd>
              </dl>
              {t.reason ? <p class="failure">{t.reason}</p> : null}
              {failed.length > 0 ? (
                <ul class="failures">
                  {failed.map((a) => (
                    <li>
                      <strong>{a.assertion}</strong>: {a.message ?? ""}
                    </li>
                  ))}
                </ul>
              ) : null}
              <h3>answer</h3>
              <Long value={t.answer ?? "(no answer)"} />
            </article>
          );
        })}
      </div>
    </div>
  );
}
