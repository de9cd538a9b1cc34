/**
 * The CLI reference, docs/cli.md, rendered from the commands' citty definitions: each command's
 * meta (name, description, aliases) and args (flags, types, defaults, aliases, descriptions),
 * read from the definitions themselves, so a command or flag added to `cli/` appears when the
 * file is regenerated (`npm run docs:cli`) and test/docs/cli-reference.test.ts fails until it is.
 */
import type { ArgDef, ArgsDef, CommandDef, CommandMeta, Resolvable } from "citty";
import { FORMAT_WORDS } from "../cli/formats.js";

/** One command of the tree, found by walking `subCommands` (resolving lazy ones). */
export interface CommandEntry {
  /** The words that run it after the binary: `["serve"]`, `["select", "run"]`. */
  path: string[];
  meta: CommandMeta;
  args: ArgsDef;
  /** Whether it has subcommands of its own (then it may also run on its own when it has `run`). */
  hasSubCommands: boolean;
}

async function resolve<T>(value: Resolvable<T> | undefined): Promise<T | undefined> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : await value;
}

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Every command under `root`, depth first in definition order, hidden ones left out as `--help`
 * leaves them out. The root itself is the first entry, with an empty path.
 *
 * @example (await commandTree(evalSimulate)).map((c) => c.path.join(" ")) // ["", "serve", "capture", …]
 */
export async function commandTree(root: CommandDef, path: string[] = []): Promise<CommandEntry[]> {
  const meta = (await resolve(root.meta)) ?? {};
  const args = (await resolve(root.args)) ?? {};
  const subCommands = (await resolve(root.subCommands)) ?? {};
  const entries: CommandEntry[] = [{ path, meta, args, hasSubCommands: Object.keys(subCommands).length > 0 }];
  for (const [name, sub] of Object.entries(subCommands)) {
    const command = await resolve(sub);
    if (!command) continue;
    const subMeta = (await resolve(command.meta)) ?? {};
    if (subMeta.hidden) continue;
    entries.push(...(await commandTree(command, [...path, name])));
  }
  return entries;
}

/**
 * Markdown-safe text for a table cell: code spans kept (their pipes escaped, as GFM tables need),
 * environment variables and flags set in code, and outside code the characters Markdown or HTML
 * would read (`<id>`, `*`, a leading `_`, `|`) escaped.
 */
export function cellText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part.replace(/\|/g, "\\|") : plainText(part)))
    .join("");
}

/** Variables and flags named in plain text, set in code so they read as what to type. */
const TYPED = /((?<![\w-])(?:EVAL_[A-Z0-9_]+\*?(?:=[^\s,;)]+)?|--[a-z][a-z0-9-]*))/;

function plainText(text: string): string {
  return text
    .split(TYPED)
    .map((piece, index) => {
      if (index % 2 === 1) return `\`${piece}\``;
      return piece
        .replace(/\\/g, "\\\\")
        .replace(/\|/g, "\\|")
        .replace(/\*/g, "\\*")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;")
        .replace(/(^|[^A-Za-z0-9])_|_(?=[^A-Za-z0-9]|$)/g, (match) => match.replace("_", "\\_"));
    })
    .join("");
}

const code = (text: string) => `\`${text.replace(/\|/g, "\\|")}\``;

function flagName(name: string): string {
  return name.length === 1 ? `-${name}` : `--${name}`;
}

function valuePart(def: ArgDef): string {
  if (def.type === "boolean") return "";
  if (def.type === "enum" && def.options?.length) return ` <${def.options.join("|")}>`;
  return ` <${def.valueHint ?? "value"}>`;
}

function positionalLabel(name: string, def: ArgDef): string {
  const hint = def.valueHint ?? name;
  return def.required !== false && def.default === undefined ? `<${hint}>` : `[${hint}]`;
}

function typeOf(def: ArgDef): string {
  if (def.type === "enum") return "one of";
  return def.type ?? "boolean";
}

function defaultOf(def: ArgDef): string {
  if (def.type === "positional" ? def.required !== false && def.default === undefined : def.required === true && def.default === undefined) return "required";
  return def.default === undefined ? "" : code(String(def.default));
}

function argumentRows(args: ArgsDef): string[] {
  const rows: string[] = [];
  for (const [name, def] of Object.entries(args)) {
    const aliases = def.type === "positional" ? [] : list((def as { alias?: string | string[] }).alias);
    const label =
      def.type === "positional"
        ? code(positionalLabel(name, def))
        : [code(`${flagName(name)}${valuePart(def)}`), ...aliases.map((alias) => code(`${flagName(alias)}${valuePart(def)}`))].join(", ");
    rows.push(`| ${label} | ${typeOf(def)} | ${defaultOf(def)} | ${cellText(def.description ?? "")} |`);
    const negative = def.type === "boolean" && (def.default === true || def.negativeDescription) && !/^no[-A-Z]/.test(name);
    if (negative) rows.push(`| ${code(`--no-${name}`)} | boolean | | ${cellText(def.negativeDescription ?? `Turn ${flagName(name)} off`)} |`);
  }
  return rows;
}

function usageLine(bin: string, entry: CommandEntry): string {
  const words = [bin, ...entry.path];
  const flags = Object.entries(entry.args).filter(([, def]) => def.type !== "positional");
  for (const [name, def] of Object.entries(entry.args)) if (def.type === "positional") words.push(positionalLabel(name, def));
  for (const [name, def] of flags) if (def.required === true && def.default === undefined) words.push(`${flagName(name)}${valuePart(def)}`);
  if (flags.some(([, def]) => def.required !== true || def.default !== undefined)) words.push("[options]");
  if (entry.hasSubCommands) words.push("<command>");
  return words.join(" ");
}

/** The heading's text, and the anchor GitHub gives it (lowercase, punctuation dropped, spaces to dashes). */
function heading(entry: CommandEntry): { text: string; anchor: string } {
  const name = entry.path.join(" ");
  return {
    text: code(name),
    anchor: name
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, "")
      .replace(/ /g, "-"),
  };
}

const HEADER = `<!-- Generated from the citty definitions in cli/ by \`npm run docs:cli\`; test/docs/cli-reference.test.ts fails when this file is stale. Edit the definitions, not this file. -->`;

const CONVENTIONS = [
  "Every command takes `--help` (`-h`). A flag takes its value as `--flag value` or `--flag=value`.",
  "Exit codes: **0** success, **1** what the command checked or ran failed, **2** a usage error (an",
  "unknown command or flag, a missing argument, a `--format` value the command does not print, a file",
  "that cannot be read), with its message on stderr, or, for `verify`, `eval`, `select` and `report`,",
  "a verdict that is not evaluated or PRELIMINARY; each command's description says which; `serve`",
  "exits 0 on SIGTERM and 130 on SIGINT. Where a flag names an `EVAL_SIMULATE_*` variable, the",
  "variable sets it when the flag is absent.",
  "",
  "A command that reads a manifest takes it as the positional after its own subject (`serve",
  "[fakes.yaml]`, `capture <id> [fakes.yaml]`, `observe <calls> [fakes.yaml]`, `replay <calls>",
  "[fakes.yaml]`), `./fakes.yaml` by default, or as `--manifest <file>`, which each of them accepts",
  "too: repeatable on `validate`; elsewhere a positional and a different `--manifest` exit 2. Old",
  "names (`eval --selection`, `--against`, `--against-url`, `--recording`) still work: each warns",
  "once on stderr, and the tables below mark them deprecated.",
].join("\n");

/**
 * The `--format` words: one output each, whichever command prints it, and the commands that
 * print each, read from their definitions so the table cannot drift from them.
 */
function formatsTable(commands: readonly CommandEntry[]): string[] {
  const rows = Object.entries(FORMAT_WORDS).map(([word, what]) => {
    const printers = commands.filter((entry) => {
      const format = entry.args.format;
      return format?.type === "enum" && format.options?.includes(word);
    });
    return `| ${code(word)}${word === "text" ? " (the default)" : ""} | ${what} | ${printers.map((entry) => code(entry.path.join(" "))).join(", ")} |`;
  });
  return [
    "`--format` takes one word for one kind of output, on every command that prints it:",
    "",
    "| `--format` | prints | commands |",
    "| --- | --- | --- |",
    ...rows,
  ];
}

/**
 * docs/cli.md for the command tree under `root`: a table of the commands, then a section per
 * command with its usage line, aliases and a table of its arguments.
 *
 * @example await renderCliReference(evalSimulate) // "# CLI reference\n…"
 */
export async function renderCliReference(root: CommandDef, bin = "eval-simulate"): Promise<string> {
  const [top, ...commands] = await commandTree(root);
  const out: string[] = ["# CLI reference", "", HEADER, ""];
  out.push(
    `\`${bin} <command> [options]\`${top.meta.description ? `: ${cellText(top.meta.description)}` : ""}`,
    "",
    CONVENTIONS,
    "",
    ...formatsTable(commands),
    "",
  );
  out.push("| command | what it does |", "| --- | --- |");
  for (const entry of commands) {
    const { text, anchor } = heading(entry);
    out.push(`| [${text}](#${anchor}) | ${cellText(entry.meta.description ?? "")} |`);
  }
  for (const entry of commands) {
    out.push("", `## ${heading(entry).text}`, "");
    if (entry.meta.description) out.push(cellText(entry.meta.description), "");
    out.push("```sh", usageLine(bin, entry), "```");
    const aliases = list(entry.meta.alias);
    if (aliases.length > 0) out.push("", `Also run as ${aliases.map((alias) => code([bin, ...entry.path.slice(0, -1), alias].join(" "))).join(", ")}.`);
    const rows = argumentRows(entry.args);
    if (rows.length > 0) out.push("", "| argument | type | default | description |", "| --- | --- | --- | --- |", ...rows);
    else if (!entry.hasSubCommands) out.push("", "It takes no arguments.");
  }
  return `${out.join("\n")}\n`;
}
