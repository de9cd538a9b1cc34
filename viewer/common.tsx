/** Pieces every page uses: a status badge, a long value that wraps and scrolls in its cell, a stat. */
import type { ComponentChildren } from "preact";
import { jsonText } from "./format.js";

/** A verdict or status as a coloured word. */
export function Badge(props: { status: string }) {
  const tone = /^(pass|passed|ok|improved|fine)$/.test(props.status)
    ? "good"
    : /^(fail|failed|error|regressed|remediate)$/.test(props.status)
      ? "bad"
      : "neutral";
  return <span class={`badge ${tone}`}>{props.status.replace(/_/g, " ")}</span>;
}

/** A value of any length: wrapped, and scrolled inside its own box past a few lines. */
export function Long(props: { value: unknown; class?: string }) {
  return <pre class={`long ${props.class ?? ""}`}>{jsonText(props.value)}</pre>;
}

export function Stat(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="stat">
      <div class="stat-label">{props.label}</div>
      <div class="stat-value">{props.children}</div>
    </div>
  );
}

/** A table that scrolls sideways inside its card rather than widening the page. */
export function Table(props: { children: ComponentChildren; class?: string; id?: string }) {
  return (
    <div class="table-wrap">
      <table class={props.class} id={props.id}>
        {props.children}
      </table>
    </div>
  );
}
