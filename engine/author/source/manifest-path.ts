import type { PathSegment } from "./source-document.js";

/**
 * A path in the manifest as users read it: `servers.notes.tools.create-note`,
 * `scenarios.blocked.stubs[0].tool`.
 */
export function formatPath(path: readonly PathSegment[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[A-Za-z0-9_$-]+$/.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text || "(root)";
}

/** An ajv instancePath (`/servers/notes/tools/a~1b`) as path segments; array indexes as numbers. */
export function pointerToPath(pointer: string, value: unknown): PathSegment[] {
  if (!pointer) return [];
  const path: PathSegment[] = [];
  let current: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      path.push(Number(segment));
      current = current[Number(segment)];
    } else {
      path.push(segment);
      current = current && typeof current === "object" ? (current as Record<string, unknown>)[segment] : undefined;
    }
  }
  return path;
}
