/**
 * The inspector's page: one HTML document with its script inline, no dependencies. It polls
 * `/_inspect/world.json` once a second and appends new calls to the timeline. Everything an agent
 * sent is shown with `textContent`, never parsed as HTML.
 */
export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>eval-simulate inspector</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2430; background: #f6f7f9; }
  header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; background: #1d2430; color: #fff; }
  header h1 { font-size: 1rem; margin: 0; }
  main { display: grid; grid-template-columns: 3fr 2fr; gap: 1rem; padding: 1rem; }
  section { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: .6rem .8rem; overflow: auto; }
  h2 { font-size: .95rem; margin: .2rem 0 .6rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .25rem .4rem; border-bottom: 1px solid #eef0f3; vertical-align: top; }
  td.value { font-family: ui-monospace, monospace; font-size: 12px; max-width: 28rem; white-space: pre-wrap; word-break: break-all; }
  .ok { color: #137333; } .error { color: #b3261e; } .muted { color: #6b7280; }
  .badge { border-radius: 3px; padding: 0 .35rem; font-size: 12px; background: #eef0f3; }
  .badge.changed { background: #fde7c8; } .added { color: #137333; } .removed { color: #b3261e; } .updated { color: #8a5a00; }
  pre { font-size: 12px; background: #f6f7f9; padding: .5rem; overflow: auto; max-height: 24rem; }
  .pair { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; }
</style>
</head>
<body>
<header><h1>eval-simulate inspector</h1>
  <label>world <select id="world"></select></label>
  <span id="meta" class="muted"></span>
  <span id="status" class="muted"></span>
</header>
<main>
  <section><h2>Calls <span id="count" class="muted"></span></h2>
    <table id="calls"><thead><tr><th>#</th><th>time</th><th>fake</th><th>tool / operation</th><th>status</th><th>ms</th><th>stub</th><th>arguments</th><th>answer</th></tr></thead><tbody></tbody></table>
  </section>
  <div>
    <section><h2>State against the start</h2><div id="state"></div><div id="detail"></div></section>
    <section id="results-section" hidden><h2>Eval results <span id="results-meta" class="muted"></span></h2><table id="results"><thead><tr><th>case</th><th>model</th><th>verdict</th><th>passed</th><th>pass rate</th><th>pass^k</th><th>not run</th></tr></thead><tbody></tbody></table></section>
    <section><h2>Stubs</h2><table id="stubs"><thead><tr><th>stub</th><th>fake</th><th>target</th><th>uses</th></tr></thead><tbody></tbody></table></section>
  </div>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
let world = new URLSearchParams(location.search).get("world") || undefined;
let since = 0;
let count = 0;

async function get(path) {
  const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) throw new Error(path + " answered " + response.status);
  return response.json();
}

async function loadWorlds() {
  const { worlds } = await get("/_inspect/worlds.json");
  const select = $("world");
  select.replaceChildren(...worlds.map((w) => { const o = el("option", w.id === "default" ? "the served world" : "session " + w.id); o.value = w.id; return o; }));
  if (!world || !worlds.some((w) => w.id === world)) world = worlds[0] && worlds[0].id;
  select.value = world;
}

/** A tool result's text blocks, as the agent read them; anything else as it was recorded. */
function answerText(output) {
  try {
    const result = JSON.parse(output);
    if (result && Array.isArray(result.content)) return result.content.map((block) => block.type === "text" ? block.text : "[" + block.type + "]").join("\\n");
  } catch {}
  return output;
}

function addCall(call) {
  const row = el("tr");
  row.dataset.seq = call.seq;
  const failed = call.status !== "ok" && !(typeof call.status === "number" && call.status < 400);
  row.append(el("td", call.seq), el("td", call.startedAt.slice(11, 23)), el("td", call.fake), el("td", call.name),
    el("td", call.status, failed ? "error" : "ok"), el("td", call.durationMs.toFixed(1)), el("td", call.stub || ""),
    el("td", call.input, "value"), el("td", call.error ? call.error + "\\n" + answerText(call.output) : answerText(call.output), "value"));
  $("calls").tBodies[0].append(row);
  count++;
  $("count").textContent = "(" + count + ")";
}

function showState(fakes) {
  const box = $("state");
  box.replaceChildren();
  for (const fake of fakes) {
    const table = el("table");
    table.dataset.fake = fake.id;
    const head = el("tr"); head.append(el("th", fake.id + " (" + fake.kind + ")"), el("th", ""));
    const button = el("button", "show state"); button.onclick = () => showDetail(fake.id); head.children[1].append(button);
    table.append(head);
    for (const entity of fake.entities) {
      const row = el("tr");
      row.dataset.entity = entity.entity;
      const cell = el("td");
      cell.append(el("span", entity.changed ? "changed" : "unchanged", "badge" + (entity.changed ? " changed" : "")));
      for (const kind of ["added", "removed", "updated"]) {
        if (entity[kind] && entity[kind].length) cell.append(" ", el("span", kind + ": " + entity[kind].join(", "), kind));
      }
      if (entity.more) cell.append(" ", el("span", "+" + entity.more + " more", "muted"));
      row.append(el("td", entity.entity), cell);
      table.append(row);
    }
    box.append(table);
  }
}

async function showDetail(fake) {
  const { state, initial } = await get("/_inspect/state.json?world=" + encodeURIComponent(world) + "&fake=" + encodeURIComponent(fake));
  const pair = el("div", undefined, "pair");
  const side = (title, value) => { const d = el("div"); d.append(el("h2", title), el("pre", JSON.stringify(value, null, 2))); return d; };
  pair.append(side(fake + " at the start", initial), side(fake + " now", state));
  $("detail").replaceChildren(pair);
}

function showStubs(stubs) {
  $("stubs").tBodies[0].replaceChildren(...stubs.map((s) => { const r = el("tr"); r.append(el("td", s.id), el("td", s.fake), el("td", s.target), el("td", s.uses, s.uses ? "" : "muted")); return r; }));
}

async function poll() {
  try {
    const asked = world;
    const data = await get("/_inspect/world.json?world=" + encodeURIComponent(asked) + "&since=" + since);
    // Two polls can be in flight (the timer's and a world change's): an answer for another world
    // is dropped, and a call already listed is not listed twice.
    if (asked !== world) return;
    $("meta").textContent = "scenario " + data.scenario + " · clock " + data.clock;
    for (const call of data.calls) { if (call.seq <= since) continue; addCall(call); since = Math.max(since, call.seq); }
    showState(data.fakes);
    showStubs(data.stubs);
    $("status").textContent = "live";
  } catch (error) {
    $("status").textContent = String(error.message || error);
  }
}

const percent = (value) => value === null || value === undefined ? "–" : Math.round(value * 100) + "%";

async function pollResults() {
  try {
    const { results } = await get("/_inspect/results.json");
    if (!results) return;
    $("results-section").hidden = false;
    $("results-meta").textContent = results.verdict + " · " + results.trials.passed + "/" + results.trials.total + " trials passed";
    $("results").tBodies[0].replaceChildren(...results.cases.map((c) => {
      const row = el("tr");
      row.dataset.case = c.case;
      row.append(el("td", c.case), el("td", c.model), el("td", c.verdict, c.verdict === "pass" ? "ok" : c.verdict === "fail" ? "error" : "muted"),
        el("td", c.passed + "/" + c.judged), el("td", percent(c.passRate) + " (needs " + percent(c.threshold) + ")"), el("td", percent(c.passHatK) + " (k=" + c.k + ")"), el("td", c.notRun));
      return row;
    }));
  } catch {}
}

$("world").onchange = (event) => {
  world = event.target.value; since = 0; count = 0;
  $("calls").tBodies[0].replaceChildren(); $("detail").replaceChildren();
  poll();
};
loadWorlds().then(poll).catch((error) => { $("status").textContent = String(error.message || error); });
setInterval(poll, 1000);
pollResults();
setInterval(pollResults, 5000);
</script>
</body>
</html>
`;
