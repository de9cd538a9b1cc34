import type { ErrorObject, ValidateFunction } from "ajv";
import { type Diagnostic, type DiagnosticCode, DIAGNOSTIC_CODES, suggestion } from "../source/index.js";
import { formatPath, pointerToPath } from "../source/index.js";
import { publishedValidator } from "./published-validator.js";
import type { PathSegment, SourceDocument } from "../source/index.js";

/** The manifest's validator: precompiled at build time, or compiled from the published schema once per process. */
const manifestValidator = (): ValidateFunction => publishedValidator("manifest");

/**
 * Checks a parsed manifest against eval-simulate.schema.json (or another document against its
 * own compiled schema: an evals file) and reports each problem at its
 * line and column. Where a value may take several shapes, only the errors of the shape the
 * value was meant to have are kept, so a user reads one clear message, not one per shape.
 */
export function checkAgainstSchema(source: SourceDocument, validate: ValidateFunction = manifestValidator()): Diagnostic[] {
  if (validate(source.value)) return [];
  const kept = keepIntendedBranches(validate.errors ?? [], source.value);
  // "must be 1" says all that "must be number" says: keep the more specific one.
  const specific = new Set(kept.filter((e) => e.keyword === "const" || e.keyword === "enum").map((e) => e.instancePath));
  const errors = kept.filter((e) => !(e.keyword === "type" && specific.has(e.instancePath)));
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const error of errors) {
    const diagnostic = toDiagnostic(error, source);
    const key = `${diagnostic.line}:${diagnostic.column}:${diagnostic.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      diagnostics.push(diagnostic);
    }
  }
  return diagnostics;
}

/** Of an `anyOf`'s branch errors, keeps those of the branch whose type fits the value. */
function keepIntendedBranches(errors: ErrorObject[], _value: unknown): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === "anyOf").sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  let kept = errors;
  for (const union of unions) {
    const prefix = `${union.schemaPath}/`;
    const branches = new Map<number, ErrorObject[]>();
    // Pattern properties and array items share one schema path across instances: only this
    // union's own instance (and what lies below it) belongs to it.
    const mine = (e: ErrorObject) => e.instancePath === union.instancePath || e.instancePath.startsWith(`${union.instancePath}/`);
    for (const e of kept) {
      if (!e.schemaPath.startsWith(prefix) || !mine(e)) continue;
      const n = Number(e.schemaPath.slice(prefix.length).split("/")[0]);
      branches.set(n, [...(branches.get(n) ?? []), e]);
    }
    const fitting = [...branches.values()].filter((list) => !list.some((e) => e.keyword === "type" && e.instancePath === union.instancePath));
    const drop = new Set<ErrorObject>([union, ...[...branches.values()].flat()]);
    kept = kept.filter((e) => !drop.has(e));
    const constants = (union.schema as Array<{ const?: unknown }>).map((s) => s.const);
    if (constants.every((c) => c !== undefined) && fitting.length === branches.size) {
      kept.push({ ...union, keyword: "enum", params: { allowedValues: constants } });
    } else if (fitting.length > 0) {
      kept.push(...fitting.sort((a, b) => a.length - b.length)[0]);
    } else {
      const types = (union.schema as Array<{ type?: string }>).map((s) => s.type ?? "a value").join(" or ");
      kept.push({ ...union, keyword: "type", message: `must be ${types}` });
    }
  }
  return kept;
}

function toDiagnostic(error: ErrorObject, source: SourceDocument): Diagnostic {
  const path = pointerToPath(error.instancePath, source.value);
  const at = (code: DiagnosticCode, where: PathSegment[], message: string, key = false, hint?: string): Diagnostic => {
    const position = key && where.length > 0 ? source.keyPositionOf(where) : source.positionOf(where);
    return {
      code,
      severity: "error",
      message,
      hint: hint ?? DIAGNOSTIC_CODES[code],
      file: source.file,
      ...position,
      path: formatPath(where),
    };
  };
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
  const where = formatPath(path);
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const keyPath = [...path, key];
      const pattern = Object.keys((parent.patternProperties ?? {}) as object)[0];
      if (pattern) {
        const what = pattern.includes("-") ? "id" : "name";
        return at(
          "E_INVALID_ID",
          keyPath,
          `"${key}" is not a valid ${what} in ${where}: it must match ${pattern}`,
          true,
          what === "id" ? DIAGNOSTIC_CODES.E_INVALID_ID : "Names start with a letter or _ and hold letters, digits and _.",
        );
      }
      const known = Object.keys((parent.properties ?? {}) as object);
      return at(
        "E_UNKNOWN_KEY",
        keyPath,
        `unknown key "${key}" in ${where}.${suggestion(key, known)}`,
        true,
        known.length ? `Keys allowed here: ${known.join(", ")}.` : undefined,
      );
    }
    case "required": {
      const key = (error.params as { missingProperty: string }).missingProperty;
      return at("E_MISSING_KEY", path, `${where} is missing the required key "${key}"`, true);
    }
    case "enum": {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map(String);
      const actual = String(error.data);
      return at("E_SCHEMA", path, `${where} must be one of: ${allowed.join(", ")}.${suggestion(actual, allowed)}`);
    }
    case "const":
      return at("E_SCHEMA", path, `${where} must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`);
    default:
      return at("E_SCHEMA", path, `${where} ${error.message ?? "is invalid"}`);
  }
}
