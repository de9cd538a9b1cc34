/**
 * `serve --inspect`: each world as it runs. Polls the inspector's JSON once a second: the world
 * list (so sessions created after the page opened appear), the chosen world's new calls, its
 * diff against the start and, when open, one fake's whole state (refreshed with every poll). A
 * world that is gone (a deleted session) sends the page back to the served world once, instead
 * of asking for it again every second. An eval run's results show each case's failing assertions.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { Badge, Long, Table } from "./common.js";
import { percent } from "./format.js";
import { href } from "./route.js";
import { answerText } from "./transcript.js";

interface LiveCall {
  seq: number;
  fake: string;
  name: string;
  status: string | number;
  startedAt: string;
  durationMs: number;
  stub?: string;
  committed?: boolean;
  input: string;
  output: string;
  error?: string;
}
interface EntityDiff {
  entity: string;
  changed: boolean;
  added?: string[];
  removed?: string[];
  updated?: string[];
  more?: number;
}
interface WorldInfo {
  id: string;
  scenario: string;
  clock: string;
  fakes: Array<{ id: string; kind: string }>;
}
interface WorldData extends WorldInfo {
  calls: LiveCall[];
  fakes: Array<{ id: string; kind: string; entities: EntityDiff[] }>;
  stubs: Array<{ id: string; fake: string; target: string; uses: number }>;
}
interface ResultsPanel {
  verdict: string;
  trials: { passed: number; total: number };
  cases: Array<{ case: string; model: string; verdict: string; passed: number; judged: number; passRate: number | null; threshold: number; passHatK: number; k: number; notRun: number; failures: string[] }>;
}

class Gone extends Error {}

/** The calls the timeline keeps, the newest. */
const MAX_CALLS = 1000;

async function get<T>(path: string): Promise<T> {
  const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  if (response.status === 404) throw new Gone(path);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
}

const failedStatus = (status: string | number) => status !== "ok" && !(typeof status === "number" && status < 400);

/** The answer cell: the error once, then the answer only when it says more than the error. */
function answerOf(call: LiveCall): string {
  const answer = answerText(safeJson(call.output));
  if (!call.error) return answer;
  return answer === "" || answer.includes(call.error) ? (answer || call.error) : `${call.error}\n${answer}`;
}
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function LivePage(props: { world?: string }) {
  const [worlds, setWorlds] = useState<WorldInfo[]>([]);
  const [world, setWorld] = useState<string | undefined>(props.world);
  const [data, setData] = useState<WorldData | undefined>();
  const [calls, setCalls] = useState<LiveCall[]>([]);
  const [status, setStatus] = useState("connecting");
  const [notice, setNotice] = useState("");
  const [open, setOpen] = useState<string | undefined>();
  const [detail, setDetail] = useState<{ fake: string; state: unknown; initial: unknown } | undefined>();
  const [results, setResults] = useState<ResultsPanel | null>(null);
  const since = useRef(0);
  const current = useRef(world);
  current.current = world;

  useEffect(() => setWorld(props.world), [props.world]);
  useEffect(() => {
    since.current = 0;
    setCalls([]);
    setOpen(undefined);
    setDetail(undefined);
  }, [world]);

  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      try {
        const list = await get<{ worlds: WorldInfo[] }>("/_inspect/worlds.json");
        if (stopped) return;
        setWorlds(list.worlds);
        const asked = current.current ?? list.worlds[0]?.id;
        if (asked === undefined) return;
        if (!list.worlds.some((w) => w.id === asked)) throw new Gone(asked);
        const next = await get<WorldData>(`/_inspect/world.json?world=${encodeURIComponent(asked)}&since=${since.current}`);
        // An answer for a world the page left meanwhile is dropped.
        if (stopped || asked !== (current.current ?? list.worlds[0]?.id)) return;
        const fresh = next.calls.filter((c) => c.seq > since.current);
        if (fresh.length > 0) {
          since.current = Math.max(since.current, ...fresh.map((c) => c.seq));
          // The newest calls only: a long-running serve must not grow the page without bound.
          setCalls((old) => [...old, ...fresh].slice(-MAX_CALLS));
        }
        setData(next);
        if (open !== undefined) setDetail(await get(`/_inspect/state.json?world=${encodeURIComponent(asked)}&fake=${encodeURIComponent(open)}`));
        setStatus("live");
      } catch (error) {
        if (stopped) return;
        if (error instanceof Gone && current.current !== undefined) {
          // The session was deleted: show the served world, once, and say why.
          setNotice(`world "${current.current}" is gone (its session was deleted): showing the served world`);
          // Its address is replaced too, so a reload does not ask for the deleted world again.
          history.replaceState(null, "", `${location.pathname}${href({ page: "live" })}`);
          setWorld(undefined);
          return;
        }
        setStatus(String((error as Error).message ?? error));
      }
    };
    void poll();
    const timer = setInterval(poll, 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [world, open]);

  useEffect(() => {
    const load = () =>
      get<{ results: ResultsPanel | null }>("/_inspect/results.json")
        .then((r) => setResults(r.results))
        .catch(() => undefined);
    void load();
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, []);

  const shown = world ?? worlds[0]?.id;
  return (
    <div class="page" data-page="live">
      <div class="toolbar">
        <label>
          world{" "}
          <select id="world" value={shown} onChange={(e) => location.assign(href({ page: "live", world: (e.target as HTMLSelectElement).value }))}>
            {worlds.map((w) => (
              <option value={w.id}>{w.id === "default" ? "the served world" : `session ${w.id}`}</option>
            ))}
          </select>
        </label>
        <span class="muted" id="meta">{data ? `scenario ${data.scenario} · clock ${data.clock}` : ""}</span>
        <span class="muted" id="status">{status}</span>
      </div>
      {notice ? <p id="notice" class="notice">{notice}</p> : null}
      <section class="card">
        <h2>
          Calls{" "}
          <span class="muted" id="count">
            {since.current > calls.length ? `(the last ${calls.length} of ${since.current})` : `(${calls.length})`}
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
      <div class="grid">
        <section class="card" id="state">
          <h2>State against the start</h2>
          {(data?.fakes ?? []).map((fake) => (
            <div data-fake={fake.id}>
              <h3>
                {`${fake.id} (${fake.kind})`}{" "}
                <button type="button" onClick={() => setOpen(open === fake.id ? undefined : fake.id)}>
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
        {results ? (
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
        ) : null}
        <section class="card">
          <h2>Stubs</h2>
          <Table id="stubs">
            <tbody>
              {(data?.stubs ?? []).map((s) => (
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
      </div>
      {detail && open !== undefined ? (
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
      ) : null}
    </div>
  );
}
