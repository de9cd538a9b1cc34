/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

/**
 * Field and header names redacted by default, compared without case, dashes or underscores:
 * credentials an agent or a handler might pass through a fake.
 */
const DEFAULT_NAMES = [
  "authorization", "proxyauthorization", "cookie", "setcookie",
  "token", "accesstoken", "refreshtoken", "idtoken", "bearer", "sessionid", "sessiontoken",
  "password", "passwd", "passphrase", "secret", "clientsecret", "apikey", "xapikey", "privatekey",
];
/** A name ending in one of these is a secret too (`githubToken`, `db_password`, `stripeApiKey`). */
const SECRET_SUFFIXES = ["token", "secret", "password", "apikey"];

const normalise = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");

/**
 * Decides which names are secrets: the defaults, names ending like one, and the manifest's
 * `redact` list (case-insensitive).
 *
 * @example const isSecret = secretNames(["accessCode"]); isSecret("X-Api-Key") // true
 */
export function secretNames(extra: readonly string[] = []): (name: string) => boolean {
  const names = new Set([...DEFAULT_NAMES, ...extra.map(normalise)]);
  return (name) => {
    const n = normalise(name);
    return names.has(n) || SECRET_SUFFIXES.some((suffix) => n.endsWith(suffix));
  };
}

/**
 * A deep copy of a JSON value with every secret field's value replaced by `[REDACTED]`.
 * Secrets inside free text or URL paths are not found: keep credentials out of fixtures.
 *
 * @example redact({ user: "a", password: "p" }, secretNames()) // { user: "a", password: "[REDACTED]" }
 */
export function redact(value: unknown, isSecret: (name: string) => boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item, isSecret));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty keeps a "__proto__" key as data.
    Object.defineProperty(out, key, {
      value: isSecret(key) && item !== null && item !== undefined ? REDACTED : redact(item, isSecret),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * A tool result with its secrets redacted: its structured content, and each text item that is
 * a JSON document (most answers are) re-serialised redacted. Other text is left as it is.
 *
 * @example redactResult({ content: [{ type: "text", text: '{"token":"t"}' }] }, secretNames())
 */
export function redactResult(result: unknown, isSecret: (name: string) => boolean): unknown {
  const redacted = redact(result, isSecret) as { content?: Array<{ type?: string; text?: unknown }> } | undefined;
  for (const item of redacted?.content ?? []) {
    if (item?.type !== "text" || typeof item.text !== "string" || !/^\s*[[{]/.test(item.text)) continue;
    try {
      item.text = JSON.stringify(redact(JSON.parse(item.text), isSecret));
    } catch {
      // Not JSON after all: free text is not searched for secrets.
    }
  }
  return redacted;
}
