/** A tool-selection run: per-tool precision, recall and F1, per-area top-1, and which tool was chosen for which expected one, per area. */
import { Stat, Table } from "./common.js";
import { fixed, percent } from "./format.js";
import { BarPlot } from "./plots.js";
import { href } from "./route.js";
import type { ViewRun } from "./types.js";

export function SelectionPage(props: { run: ViewRun; index: number }) {
  const selection = props.run.selection;
  if (!selection) return <p class="page">This run has no tool-selection trials.</p>;
  const areas = [...new Set(selection.confusion.map((c) => c.area))].sort();
  return (
    <div class="page" data-page="selection">
      <p class="crumbs">
        <a href={href({ page: "run", run: props.index })}>← run</a>
      </p>
      <h1>Tool selection</h1>
      <div class="stats">
        <Stat label="top-1">{percent(selection.top1)}</Stat>
        <Stat label="tools">{selection.tools.length}</Stat>
        <Stat label="areas">{selection.areas.length}</Stat>
      </div>
      <div class="plots">
        <BarPlot id="tool-f1" title="F1 per tool" labels={selection.tools.map((t) => t.tool)} values={selection.tools.map((t) => t.f1)} format={(v) => v.toFixed(2)} max={1} />
        <BarPlot id="area-top1" title="top-1 per area" labels={selection.areas.map((a) => a.area)} values={selection.areas.map((a) => a.top1.rate)} format={percent} max={1} />
      </div>
      <section class="card">
        <h2>Per tool</h2>
        <Table id="tools">
          <thead>
            <tr>
              <th>tool</th>
              <th>precision</th>
              <th>recall</th>
              <th>F1</th>
              <th>TP / FP / FN</th>
            </tr>
          </thead>
          <tbody>
            {selection.tools.map((t) => (
              <tr data-tool={t.tool}>
                <td class="mono name">{t.tool}</td>
                <td>{fixed(t.precision)}</td>
                <td>{fixed(t.recall)}</td>
                <td>{fixed(t.f1)}</td>
                <td>{`${t.truePositives} / ${t.falsePositives} / ${t.falseNegatives}`}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </section>
      <section class="card">
        <h2>Expected → chosen, per area</h2>
        {areas.map((area) => (
          <div class="area" data-area={area}>
            <h3>{area}</h3>
            <Table class="confusion">
              <tbody>
                {selection.confusion
                  .filter((c) => c.area === area)
                  .map((c) => (
                    <tr class={c.expected === c.chosen ? "hit" : "miss"}>
                      <td class="mono name">{c.expected}</td>
                      <td>{c.expected === c.chosen ? "✓" : "→"}</td>
                      <td class="mono name">{c.chosen}</td>
                      <td>{`×${c.count}`}</td>
                    </tr>
                  ))}
              </tbody>
            </Table>
          </div>
        ))}
      </section>
    </div>
  );
}
