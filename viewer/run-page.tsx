/**
 * A run: its totals, plots (pass rate and cost per case, pass^k curves, the score distribution)
 * and the cases, filtered by tag, verdict and model and sorted by any column.
 */
import { useState } from "preact/hooks";
import { Badge, Stat, Table } from "./common.js";
import { dollars, fixed, percent, seconds, tokens } from "./format.js";
import { BarPlot, LinePlot } from "./plots.js";
import { href } from "./route.js";
import type { CaseSummary, ViewRun } from "./types.js";

type SortKey = "case" | "passRate" | "meanScore" | "costUsd" | "durationMs";
const SORTS: Array<[SortKey, string]> = [
  ["case", "case"],
  ["passRate", "pass rate"],
  ["meanScore", "mean score"],
  ["costUsd", "cost"],
  ["durationMs", "time"],
];

const num = (v: number) => (Number.isNaN(v) || v === null ? -1 : v);

/** The scores of a run's judged trials in ten bins of 0.1. */
function histogram(run: ViewRun): number[] {
  const bins = Array.from({ length: 10 }, () => 0);
  for (const t of run.trials) if (typeof t.score === "number") bins[Math.min(9, Math.floor(t.score * 10))]++;
  return bins;
}

export function RunPage(props: { run: ViewRun; index: number }) {
  const { run, index } = props;
  const [tag, setTag] = useState("");
  const [verdict, setVerdict] = useState("");
  const [model, setModel] = useState("");
  const [sort, setSort] = useState<SortKey>("case");
  const tagsOf = new Map<string, string[]>();
  for (const t of run.trials) tagsOf.set(t.case, [...new Set([...(tagsOf.get(t.case) ?? []), ...(t.tags ?? [])])]);
  const tags = [...new Set([...tagsOf.values()].flat())].sort();
  const models = [...new Set(run.summary.cases.map((c) => c.model))].sort();
  const cases = run.summary.cases
    .filter((c) => (tag === "" || (tagsOf.get(c.case) ?? []).includes(tag)) && (verdict === "" || c.verdict === verdict) && (model === "" || c.model === model))
    .sort((a, b) => (sort === "case" ? a.case.localeCompare(b.case) : num(b[sort] as number) - num(a[sort] as number)));
  const s = run.summary;
  const name = (c: CaseSummary) => (models.length > 1 ? `${c.case} (${c.model})` : c.case);
  return (
    <div class="page" data-page="run">
      <h1>
        Run <span class="muted">{run.label}</span> <Badge status={s.verdict.toLowerCase()} />
      </h1>
      <div class="stats">
        <Stat label="cases">{`${s.passed} passed · ${s.failed} failed${s.preliminary ? ` · ${s.preliminary} preliminary` : ""}`}</Stat>
        <Stat label="trials">{`${s.trials.passed}/${s.trials.total} passed`}</Stat>
        <Stat label="tool calls">{s.toolCalls}</Stat>
        <Stat label="tokens in / out">{tokens(s.usage)}</Stat>
        <Stat label="cost">{dollars(s.costUsd)}</Stat>
        <Stat label="time">{seconds(s.durationMs)}</Stat>
      </div>
      {run.selection ? (
        <p>
          <a href={href({ page: "selection", run: index })}>Tool selection of this run →</a>
        </p>
      ) : null}
      {s.cases.length > 0 ? (
        <div class="plots">
          <BarPlot id="pass-rate" title="pass rate per case" labels={s.cases.map(name)} values={s.cases.map((c) => (Number.isNaN(c.passRate) ? null : c.passRate))} format={percent} max={1} />
          <LinePlot id="pass-hat-k" title="pass^k over k" xLabel="k" series={s.cases.map((c) => ({ name: name(c), values: run.curves[`${c.case}@${c.model}`] ?? [] }))} format={percent} />
          <BarPlot id="scores" title="score distribution (trials)" labels={histogram(run).map((_, i) => `${i / 10}–${(i + 1) / 10}`)} values={histogram(run)} />
          <BarPlot id="cost" title="cost per case" labels={s.cases.map(name)} values={s.cases.map((c) => c.costUsd)} format={dollars} />
        </div>
      ) : null}
      <div class="filters">
        <label>
          tag{" "}
          <select value={tag} onChange={(e) => setTag((e.target as HTMLSelectElement).value)} name="tag">
            <option value="">any</option>
            {tags.map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          verdict{" "}
          <select value={verdict} onChange={(e) => setVerdict((e.target as HTMLSelectElement).value)} name="verdict">
            <option value="">any</option>
            {["pass", "fail", "preliminary", "skipped"].map((v) => (
              <option value={v}>{v}</option>
            ))}
          </select>
        </label>
        <label>
          model{" "}
          <select value={model} onChange={(e) => setModel((e.target as HTMLSelectElement).value)} name="model">
            <option value="">any</option>
            {models.map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          sort by{" "}
          <select value={sort} onChange={(e) => setSort((e.target as HTMLSelectElement).value as SortKey)} name="sort">
            {SORTS.map(([key, label]) => (
              <option value={key}>{label}</option>
            ))}
          </select>
        </label>
      </div>
      <Table id="cases">
        <thead>
          <tr>
            <th>case</th>
            <th>model</th>
            <th>verdict</th>
            <th>passed</th>
            <th>pass rate</th>
            <th>pass^k</th>
            <th>mean score</th>
            <th>cost</th>
            <th>tokens</th>
            <th>time</th>
          </tr>
        </thead>
        <tbody>
          {cases.map((c) => (
            <tr data-case={c.case}>
              <td class="name">
                <a href={href({ page: "case", run: index, case: c.case })}>{c.case}</a>
                {c.failures.length > 0 ? <div class="failure">{c.failures[0]}</div> : null}
              </td>
              <td>{c.model}</td>
              <td>
                <Badge status={c.verdict} />
              </td>
              <td>{`${c.passed}/${c.passed + c.failed + c.notEvaluated}`}</td>
              <td>{`${percent(c.passRate)} (needs ${percent(c.accuracyThreshold)})`}</td>
              <td>{`${percent(c.passHatK)} (k=${c.k})`}</td>
              <td>{fixed(c.meanScore)}</td>
              <td>{dollars(c.costUsd)}</td>
              <td>{tokens(c.usage)}</td>
              <td>{seconds(c.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
