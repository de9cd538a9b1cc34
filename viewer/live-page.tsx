/**
 * `serve --inspect`: each world as it runs. Polls the inspector's JSON once a second: the world
 * list (so sessions created after the page opened appear), the chosen world's new calls, its
 * diff against the start and, when open, one fake's whole state (refreshed with every poll). A
 * world that is gone (a deleted session) sends the page back to the served world once, instead
 * of asking for it again every second. An eval run's results show each case's failing assertions.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { href } from "./route.js";
import { Gone, get, type LiveCall, MAX_CALLS, type ResultsPanel, type WorldData, type WorldInfo } from "./live-data.js";
import { CallsPanel, ResultsTable, StateDetail, StatePanel, StubsPanel } from "./live-panels.js";

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
      <CallsPanel calls={calls} seen={since.current} />
      <div class="grid">
        <StatePanel fakes={data?.fakes ?? []} open={open} toggle={(fake) => setOpen(open === fake ? undefined : fake)} />
        {results ? (
          <ResultsTable results={results} />
        ) : null}
        <StubsPanel stubs={data?.stubs ?? []} />
      </div>
      {detail && open !== undefined ? (
        <StateDetail detail={detail} />
      ) : null}
    </div>
  );
}
