/**
 * Plots drawn with uPlot (small, canvas, no dependencies): bars over named items (pass rate per
 * case, cost per case, per-tool F1, a score histogram) and lines (pass^k over k). Each sizes to
 * its container and redraws when it is resized, so a plot never makes the page wider.
 */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

const COLORS = ["#2563eb", "#d97706", "#059669", "#dc2626", "#7c3aed", "#0891b2", "#be185d", "#4d7c0f"];

function usePlot(make: (width: number) => uPlot.Options, data: uPlot.AlignedData, deps: unknown[]) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = () => Math.max(200, Math.floor(element.clientWidth));
    const plot = new uPlot(make(width()), data, element);
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: plot.height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, deps);
  return box;
}

/** Bars, one per label: `values` in the order of `labels`, shown with `format` in the legend. */
export function BarPlot(props: { title: string; labels: string[]; values: Array<number | null>; format?: (v: number) => string; max?: number; id?: string }) {
  const { labels, values } = props;
  const format = props.format ?? ((v: number) => String(v));
  const box = usePlot(
    (width) => ({
      width,
      height: 220,
      title: props.title,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: [0, props.max ?? (Math.max(0, ...values.map((v) => v ?? 0)) * 1.1 || 1)] } },
      padding: [8, 28, 0, 0],
      axes: [
        { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) && labels[t] !== undefined ? (labels[t].length > 14 ? `${labels[t].slice(0, 13)}…` : labels[t]) : "")), rotate: labels.length > 4 ? -30 : 0, size: labels.length > 4 ? 70 : 40, splits: () => labels.map((_, i) => i) },
        { values: (_u, ticks) => ticks.map((t) => format(t)), size: 72 },
      ],
      series: [
        { label: "item", value: (_u, v) => (v === null || labels[v] === undefined ? "–" : labels[v]) },
        { label: props.title, fill: "#2563eb99", stroke: "#2563eb", paths: uPlot.paths.bars?.({ size: [0.7, 60] }), points: { show: false }, value: (_u, v) => (v === null ? "–" : format(v)) },
      ],
    }),
    [labels.map((_, i) => i), values as number[]],
    [JSON.stringify(labels), JSON.stringify(values)],
  );
  return <div class="plot" ref={box} data-plot={props.id ?? props.title} />;
}

/** Lines over x = 1 … n: one series per name (pass^k curves). */
export function LinePlot(props: { title: string; series: Array<{ name: string; values: number[] }>; format?: (v: number) => string; xLabel?: string; id?: string }) {
  const n = Math.max(1, ...props.series.map((s) => s.values.length));
  const xs = Array.from({ length: n }, (_, i) => i + 1);
  const format = props.format ?? ((v: number) => String(v));
  const box = usePlot(
    (width) => ({
      width,
      height: 220,
      title: props.title,
      scales: { x: { time: false }, y: { range: [0, 1] } },
      axes: [{ label: props.xLabel, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : "")) }, { values: (_u, ticks) => ticks.map(format), size: 50 }],
      series: [
        { label: props.xLabel ?? "x" },
        ...props.series.map((s, i) => ({ label: s.name, stroke: COLORS[i % COLORS.length], width: 2, value: (_u: uPlot, v: number | null) => (v === null ? "–" : format(v)) })),
      ],
    }),
    [xs, ...props.series.map((s) => xs.map((_, i) => s.values[i] ?? null))] as uPlot.AlignedData,
    [JSON.stringify(props.series)],
  );
  return <div class="plot" ref={box} data-plot={props.id ?? props.title} />;
}
