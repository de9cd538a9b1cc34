/** Two runs compared: pass-rate and score deltas against the noise, improved and regressed cases, per-tool F1 deltas. */
import { Badge, Stat, Table } from "./common.js";
import { fixed, percent, signed } from "./format.js";
import { BarPlot } from "./plots.js";
import { href } from "./route.js";
import type { Comparison } from "./types.js";

const side = (s: { passes: number; of: number; meanScore?: number } | undefined) => (s ? `${s.passes}/${s.of}${s.meanScore === undefined || s.meanScore === null ? "" : ` · ${fixed(s.meanScore)}`}` : "–");

export function ComparePage(props: { comparison: Comparison }) {
  const c = props.comparison;
  const changed = [...c.cases].sort((a, b) => (a.change === b.change ? a.case.localeCompare(b.case) : a.change.localeCompare(b.change)));
  return (
    <div class="page" data-page="compare">
      <h1>
        <span class="mono">{c.baseline.label}</span> → <span class="mono">{c.candidate.label}</span> <Badge status={c.proposal.decision} />
      </h1>
      <p>{c.proposal.reason}</p>
      <div class="stats">
        <Stat label="pass rate">{`${percent(c.baseline.passRate)} → ${percent(c.candidate.passRate)} (${signed(c.passRateDelta, " points")})`}</Stat>
        <Stat label="noise margin">{`±${(c.noise * 100).toFixed(1)} points`}</Stat>
        <Stat label="mean score">{`${fixed(c.baseline.meanScore)} → ${fixed(c.candidate.meanScore)}`}</Stat>
        <Stat label="improved / regressed">{`${c.improved.length} / ${c.regressed.length}`}</Stat>
      </div>
      <p>
        <a href={href({ page: "run", run: 0 })}>baseline run</a> · <a href={href({ page: "run", run: 1 })}>candidate run</a>
      </p>
      {c.tools.length > 0 ? <BarPlot id="f1-delta" title="F1 change per tool" labels={c.tools.map((t) => t.tool)} values={c.tools.map((t) => t.delta.f1)} format={(v) => v.toFixed(2)} /> : null}
      <section class="card">
        <h2>Cases</h2>
        <Table id="compare-cases">
          <thead>
            <tr>
              <th>case</th>
              <th>change</th>
              <th>baseline</th>
              <th>candidate</th>
              <th>score Δ</th>
            </tr>
          </thead>
          <tbody>
            {changed.map((row) => (
              <tr data-case={row.case} data-change={row.change}>
                <td class="mono name">{row.case}</td>
                <td>
                  <Badge status={row.change} />
                </td>
                <td>
                  <a href={href({ page: "case", run: 0, case: row.case })}>{side(row.baseline)}</a>
                </td>
                <td>
                  <a href={href({ page: "case", run: 1, case: row.case })}>{side(row.candidate)}</a>
                </td>
                <td>{row.scoreDelta === undefined ? "–" : fixed(row.scoreDelta)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </section>
      {c.tools.length > 0 ? (
        <section class="card">
          <h2>Tools</h2>
          <Table id="compare-tools">
            <thead>
              <tr>
                <th>tool</th>
                <th>precision</th>
                <th>recall</th>
                <th>F1</th>
              </tr>
            </thead>
            <tbody>
              {c.tools.map((t) => (
                <tr data-tool={t.tool}>
                  <td class="mono name">{t.tool}</td>
                  <td>{`${fixed(t.baseline.precision)} → ${fixed(t.candidate.precision)}`}</td>
                  <td>{`${fixed(t.baseline.recall)} → ${fixed(t.candidate.recall)}`}</td>
                  <td>{`${fixed(t.baseline.f1)} → ${fixed(t.candidate.f1)} (${t.delta.f1 >= 0 ? "+" : ""}${t.delta.f1.toFixed(2)})`}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </section>
      ) : null}
    </div>
  );
}
