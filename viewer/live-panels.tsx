/** The live page's panels: the call timeline, each fake's state against the start, an eval run's results, stubs, one fake's whole state. */
import { Badge, Long, Table } from "./common.js";
import { percent } from "./format.js";
import { answerOf, failedStatus, type LiveCall, type ResultsPanel, type WorldData } from "./live-data.js";

export function CallsPanel(props: { calls: LiveCall[]; seen: number }) {
  const { calls, seen } = props;
  return (
    <section class="card">
      <h2>
        Calls{" "}
        <span class="muted" id="count">
          {seen > calls.length ? `(the last ${calls.length} of ${seen})` : `(${calls.length})`}
        </span>
      </h2>
      <Table id="calls">
        <thead>
          <tr>
            <th>#</th>
            <th>time</th>
            <th>tool / operation</th>
            <th>status</th>
            <th>ms</th>
            <th>arguments</th>
            <th>answer</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((c) => (
            <tr data-seq={c.seq}>
              <td>{c.seq}</td>
              <td class="mono">{c.startedAt.slice(11, 23)}</td>
              <td class="mono name">
                {`${c.fake}/${c.name}`}
                {c.stub ? <div class="muted">{`stub ${c.stub}`}</div> : null}
                {c.committed ? <div class="muted">committed</div> : null}
              </td>
              <td>
                <Badge status={failedStatus(c.status) ? "error" : "ok"} /> <span class="muted">{String(c.status)}</span>
              </td>
              <td>{c.durationMs.toFixed(1)}</td>
              <td class="value">
                <Long value={c.input} />
              </td>
              <td class="value answer">
                <Long value={answerOf(c)} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}

export function StatePanel(props: { fakes: WorldData["fakes"]; open: string | undefined; toggle: (fake: string) => void }) {
  const { fakes, open, toggle } = props;
  return (
    <section class="card" id="state">
      <h2>State against the start</h2>
      {fakes.map((fake) => (
        <div data-fake={fake.id}>
          <h3>
            {`${fake.id} (${fake.kind})`}{" "}
            <button type="button" onClick={() => toggle(fake.id)}>
              {open === fake.id ? "hide state" : "show state"}
            </button>
          </h3>
          <Table>
            <tbody>
              {fake.entities.map((e) => (
                <tr data-entity={e.entity}>
                  <td class="mono">{e.entity}</td>
                  <td>
                    <span class={`badge ${e.changed ? "changed" : ""}`}>{e.changed ? "changed" : "unchanged"}</span>
                    {(["added", "removed", "updated"] as const).map((kind) => (e[kind]?.length ? <span class={`change ${kind}`}>{` ${kind}: ${e[kind]!.join(", ")}`}</span> : null))}
                    {e.more ? <span class="muted">{` +${e.more} more`}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      ))}
    </section>
  );
}

export function ResultsTable(props: { results: ResultsPanel }) {
  const { results } = props;
  return (
    <section class="card" id="results-section">
      <h2>
        Eval results <span class="muted" id="results-meta">{`${results.verdict} · ${results.trials.passed}/${results.trials.total} trials passed`}</span>
      </h2>
      <Table id="results">
        <thead>
          <tr>
            <th>case</th>
            <th>verdict</th>
            <th>passed</th>
            <th>pass rate</th>
            <th>pass^k</th>
          </tr>
        </thead>
        <tbody>
          {results.cases.map((c) => (
            <tr data-case={c.case}>
              <td class="name">
                {c.case} <span class="muted">{c.model}</span>
                {c.failures.map((f) => (
                  <div class="failure">{f}</div>
                ))}
              </td>
              <td>
                <Badge status={c.verdict} />
              </td>
              <td>{`${c.passed}/${c.judged}`}</td>
              <td>{`${percent(c.passRate)} (needs ${percent(c.threshold)})`}</td>
              <td>{`${percent(c.passHatK)} (k=${c.k})`}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}

export function StubsPanel(props: { stubs: WorldData["stubs"] }) {
  return (
    <section class="card">
      <h2>Stubs</h2>
      <Table id="stubs">
        <tbody>
          {props.stubs.map((s) => (
            <tr>
              <td class="mono">{s.id}</td>
              <td>{s.fake}</td>
              <td>{s.target}</td>
              <td>{s.uses}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}

export function StateDetail(props: { detail: { fake: string; state: unknown; initial: unknown } }) {
  const { detail } = props;
  return (
    <section class="card" id="detail">
      <h2>{`${detail.fake}: the whole state`}</h2>
      <div class="pair">
        <div>
          <div class="label">at the start</div>
          <Long value={detail.initial} class="tall" />
        </div>
        <div>
          <div class="label">now</div>
          <Long value={detail.state} class="tall" />
        </div>
      </div>
    </section>
  );
}
