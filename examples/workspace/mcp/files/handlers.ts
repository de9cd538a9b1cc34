/**
 * The filesystem fake's handlers: one allowed directory, /workspace, held as two entities (files
 * with their text, and directories). Answers follow the real server's: its text in `content`,
 * [FILE]/[DIR] listings, git-style diffs from edit_file, and its error texts (access denied
 * outside /workspace, ENOENT for a missing path).
 */
import { defineHandlers } from "eval-simulate";
import type { ToolContext } from "eval-simulate";
// Generated from fakes.yaml by `eval-simulate types` (validate warns when it is stale).
import type { FilesFake, FilesState } from "../../fakes.js";

const ROOT = "/workspace";

type State = FilesState;
type File = State["files"][number];
type Context = ToolContext<State>;

/** An absolute, normalised path inside /workspace, or a tool error as the real server words it. */
function resolvePath(raw: string, { fail }: Context): string {
  const joined = raw.startsWith("/") ? raw : `${ROOT}/${raw}`;
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const path = `/${parts.join("/")}`;
  if (path !== ROOT && !path.startsWith(`${ROOT}/`)) fail(`Access denied - path outside allowed directories: ${path} not in ${ROOT}`);
  return path;
}

const isDirectory = (state: State, path: string) => path === ROOT || state.directories.includes(path);
const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";
const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);
const sizeOf = (file: File) => Buffer.byteLength(file.content, "utf8");

function fileAt(state: State, path: string, context: Context): File {
  const file = state.files.find((f) => f.path === path);
  if (!file)
    context.fail(isDirectory(state, path) ? `EISDIR: illegal operation on a directory, read '${path}'` : `ENOENT: no such file or directory, open '${path}'`);
  return file;
}

function directoryAt(state: State, path: string, context: Context): string {
  if (!isDirectory(state, path))
    context.fail(
      state.files.some((f) => f.path === path) ? `ENOTDIR: not a directory, scandir '${path}'` : `ENOENT: no such file or directory, scandir '${path}'`,
    );
  return path;
}

/** The direct children of a directory: directories and files, by name. */
function children(state: State, dir: string): Array<{ name: string; path: string; file?: File }> {
  const dirs = state.directories.filter((d) => parentOf(d) === dir).map((d) => ({ name: nameOf(d), path: d }));
  const files = state.files.filter((f) => parentOf(f.path) === dir).map((f) => ({ name: nameOf(f.path), path: f.path, file: f }));
  // By code point, as readdir gives them on the real server's disk (capitals first).
  return [...dirs, ...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A glob (`*`, `**`, `?`) as a regular expression over a path relative to the search root. */
function globRegex(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      source += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

function lines(text: string, head?: number, tail?: number): string {
  if (head !== undefined && tail !== undefined) throw new Error("Cannot specify both head and tail parameters simultaneously");
  const all = text.split("\n");
  if (head !== undefined) return all.slice(0, head).join("\n");
  if (tail !== undefined) return all.slice(-tail).join("\n");
  return text;
}

function readText(args: { path: string; head?: number; tail?: number }, context: Context) {
  if (args.head !== undefined && args.tail !== undefined) context.fail("Cannot specify both head and tail parameters simultaneously");
  return { content: lines(fileAt(context.state, resolvePath(args.path, context), context).content, args.head, args.tail) };
}

/** A unified diff of one file's change, as edit_file answers it. */
function diff(path: string, before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) endA--, endB--;
  const body = [...a.slice(start, endA).map((l) => `-${l}`), ...b.slice(start, endB).map((l) => `+${l}`)];
  return `\`\`\`diff\nIndex: ${path}\n===================================================================\n--- ${path}\toriginal\n+++ ${path}\tmodified\n@@ -${start + 1},${endA - start} +${start + 1},${endB - start} @@\n${body.join("\n")}\n\`\`\`\n\n`;
}

function tree(state: State, dir: string, exclude: RegExp[]): unknown[] {
  return children(state, dir)
    .filter((entry) => !exclude.some((re) => re.test(entry.path.slice(ROOT.length + 1)) || re.test(entry.name)))
    .map((entry) => (entry.file ? { name: entry.name, type: "file" } : { name: entry.name, type: "directory", children: tree(state, entry.path, exclude) }));
}

export default defineHandlers<FilesFake>({
  read_file: (args, context) => readText(args, context),
  read_text_file: (args, context) => readText(args, context),

  read_media_file: (args, context) => {
    const file = fileAt(context.state, resolvePath(args.path, context), context);
    const ext = nameOf(file.path).split(".").pop()?.toLowerCase() ?? "";
    const mimeType =
      ({ png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", mp3: "audio/mpeg", wav: "audio/wav" } as Record<string, string>)[ext] ??
      "application/octet-stream";
    const data = Buffer.from(file.content, "utf8").toString("base64");
    const type = mimeType.split("/")[0];
    return {
      content: [
        type === "image" || type === "audio" ? { type, data, mimeType } : { type: "resource", resource: { uri: `file://${file.path}`, mimeType, blob: data } },
      ],
    };
  },

  read_multiple_files: (args, context) => {
    const parts = args.paths.map((raw) => {
      const file = context.state.files.find((f) => f.path === resolvePath(raw, context));
      return file ? `${raw}:\n${file.content}\n` : `${raw}: Error - ENOENT: no such file or directory, open '${resolvePath(raw, context)}'`;
    });
    return { content: parts.join("\n---\n") };
  },

  write_file: (args, context) => {
    const path = resolvePath(args.path, context);
    if (isDirectory(context.state, path)) context.fail(`EISDIR: illegal operation on a directory, open '${path}'`);
    directoryAt(context.state, parentOf(path), context);
    const existing = context.state.files.find((f) => f.path === path);
    if (existing) Object.assign(existing, { content: args.content, modified: context.now });
    else context.state.files.push({ path, content: args.content, modified: context.now });
    return { content: `Successfully wrote to ${args.path}` };
  },

  edit_file: (args, context) => {
    const path = resolvePath(args.path, context);
    const file = fileAt(context.state, path, context);
    let text = file.content;
    for (const edit of args.edits) {
      if (!text.includes(edit.oldText)) context.fail(`Could not find exact match for edit:\n${edit.oldText}`);
      text = text.replace(edit.oldText, () => edit.newText);
    }
    const answer = diff(path, file.content, text);
    if (!args.dryRun) Object.assign(file, { content: text, modified: context.now });
    return { content: answer };
  },

  create_directory: (args, context) => {
    const path = resolvePath(args.path, context);
    if (context.state.files.some((f) => f.path === path)) context.fail(`EEXIST: file already exists, mkdir '${path}'`);
    // Like mkdir -p: every missing parent too.
    for (let dir = path; dir !== ROOT && !context.state.directories.includes(dir); dir = parentOf(dir)) context.state.directories.push(dir);
    context.state.directories.sort();
    return { content: `Successfully created directory ${args.path}` };
  },

  list_directory: (args, context) => {
    const dir = directoryAt(context.state, resolvePath(args.path, context), context);
    return {
      content: children(context.state, dir)
        .map((e) => `${e.file ? "[FILE]" : "[DIR]"} ${e.name}`)
        .join("\n"),
    };
  },

  list_directory_with_sizes: (args, context) => {
    const dir = directoryAt(context.state, resolvePath(args.path, context), context);
    const entries = children(context.state, dir).map((e) => ({ ...e, size: e.file ? sizeOf(e.file) : 0 }));
    if (args.sortBy === "size") entries.sort((a, b) => b.size - a.size);
    const width = Math.max(0, ...entries.map((e) => e.name.length));
    const rows = entries.map((e) => `${e.file ? "[FILE]" : "[DIR] "} ${e.name.padEnd(width)} ${e.file ? `${e.size} B`.padStart(10) : ""}`.trimEnd());
    const files = entries.filter((e) => e.file);
    const total = files.reduce((n, e) => n + e.size, 0);
    return { content: [...rows, "", `Total: ${files.length} files, ${entries.length - files.length} directories`, `Combined size: ${total} B`].join("\n") };
  },

  directory_tree: (args, context) => {
    const dir = directoryAt(context.state, resolvePath(args.path, context), context);
    return { content: JSON.stringify(tree(context.state, dir, (args.excludePatterns ?? []).map(globRegex)), null, 2) };
  },

  move_file: (args, context) => {
    const { state } = context;
    const from = resolvePath(args.source, context);
    const to = resolvePath(args.destination, context);
    if (state.files.some((f) => f.path === to) || isDirectory(state, to)) context.fail(`Destination already exists: ${to}`);
    directoryAt(state, parentOf(to), context);
    const file = state.files.find((f) => f.path === from);
    if (file) file.path = to;
    else if (state.directories.includes(from)) {
      // A directory moves with everything below it.
      const moved = (p: string) => (p === from || p.startsWith(`${from}/`) ? to + p.slice(from.length) : p);
      state.directories = state.directories.map(moved).sort();
      for (const f of state.files) f.path = moved(f.path);
    } else context.fail(`ENOENT: no such file or directory, rename '${from}' -> '${to}'`);
    return { content: `Successfully moved ${args.source} to ${args.destination}` };
  },

  search_files: (args, context) => {
    const dir = directoryAt(context.state, resolvePath(args.path, context), context);
    const pattern = globRegex(args.pattern);
    const exclude = (args.excludePatterns ?? []).map(globRegex);
    const all = [...context.state.directories, ...context.state.files.map((f) => f.path)].filter((p) => p.startsWith(`${dir}/`)).sort();
    const found = all.filter((p) => {
      const relative = p.slice(dir.length + 1);
      return pattern.test(relative) && !exclude.some((re) => re.test(relative));
    });
    return { content: found.length > 0 ? found.join("\n") : "No matches found" };
  },

  get_file_info: (args, context) => {
    const path = resolvePath(args.path, context);
    const file = context.state.files.find((f) => f.path === path);
    if (!file && !isDirectory(context.state, path)) context.fail(`ENOENT: no such file or directory, stat '${path}'`);
    const info = {
      size: file ? sizeOf(file) : 4096,
      created: file?.modified ?? "2026-09-01T00:00:00.000Z",
      modified: file?.modified ?? "2026-09-01T00:00:00.000Z",
      accessed: context.now,
      isDirectory: !file,
      isFile: Boolean(file),
      permissions: file ? "644" : "755",
    };
    return {
      content: Object.entries(info)
        .map(([key, value]) => `${key}: ${value}`)
        .join("\n"),
    };
  },

  list_allowed_directories: () => ({ content: `Allowed directories:\n${ROOT}` }),
});
