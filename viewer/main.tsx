/**
 * The viewer: one page app over hash routes. `data-mode="runs"` reads the runs embedded in the
 * page (`eval-simulate view`); `data-mode="live"` polls the inspector (`serve --inspect`). Every
 * value from a results file or a world is rendered as text by preact, never as markup.
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { CasePage } from "./case-page.js";
import { ComparePage } from "./compare-page.js";
import { LivePage } from "./live-page.js";
import { href, parseRoute, type Route } from "./route.js";
import { RunPage } from "./run-page.js";
import { SelectionPage } from "./selection-page.js";
import "./style.css";
import { TrialPage } from "./trial-page.js";
import type { ViewData } from "./types.js";

const live = document.body.dataset.mode === "live";

function readData(): ViewData | undefined {
  const script = document.getElementById("view-data");
  return script?.textContent ? (JSON.parse(script.textContent) as ViewData) : undefined;
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash, live));
  useEffect(() => {
    const changed = () => {
      setRoute(parseRoute(location.hash, live));
      window.scrollTo(0, 0);
    };
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return route;
}

function Page(props: { route: Route; data?: ViewData }) {
  const { route, data } = props;
  // `?world=` is the inspector's older address of a world; the hash names it now.
  if (route.page === "live") return <LivePage world={route.world ?? new URLSearchParams(location.search).get("world") ?? undefined} />;
  if (!data || data.runs.length === 0) return <p class="page">No runs in this page.</p>;
  if (route.page === "compare") return data.comparison ? <ComparePage comparison={data.comparison} /> : <p class="page">Give two runs to compare them.</p>;
  const run = data.runs[route.run];
  if (!run) return <p class="page">{`No run ${route.run}.`}</p>;
  switch (route.page) {
    case "case":
      return <CasePage run={run} index={route.run} case={route.case} />;
    case "trial":
      return <TrialPage run={run} index={route.run} trial={route.trial} commit={route.commit} />;
    case "selection":
      return <SelectionPage run={run} index={route.run} />;
    default:
      return <RunPage run={run} index={route.run} />;
  }
}

function App() {
  const route = useRoute();
  const [data] = useState(readData);
  return (
    <>
      <header class="top">
        <strong>{live ? "eval-simulate inspector" : "eval-simulate"}</strong>
        {data?.runs.map((run, i) => (
          <a href={href({ page: "run", run: i })} class={"run" in route && route.run === i ? "current" : ""}>
            {`${data.runs.length > 1 ? `run ${i + 1}: ` : ""}${run.label.split(/[\\/]/).pop()}`}
          </a>
        ))}
        {data?.comparison ? <a href={href({ page: "compare" })}>compare</a> : null}
        {data?.runs.map((run, i) => (run.selection ? <a href={href({ page: "selection", run: i })}>{`tool selection${data.runs.length > 1 ? ` ${i + 1}` : ""}`}</a> : null))}
      </header>
      <main>
        <Page route={route} data={data} />
      </main>
    </>
  );
}

const app = document.getElementById("app");
if (app) render(<App />, app);
