/**
 * Which names hold secrets. A name is read as words, whatever its case or separators
 * (`accessToken`, `access-token`, `ACCESS_TOKEN`, `client.secret` are the same words), and
 * judged by its last word, the thing it names: `githubToken` is a token, `token_type` and
 * `tokenizer` are not; `X-Auth` is, `author` and `authority` are not.
 */

/** Where a name was found: a parameter (query or form) also counts `key`, `sig` and `signature`. */
export type NameContext = "field" | "param";

/** Decides which names are secrets, by where they were found. */
export interface SecretNames {
  /** A JSON field, header or quoted key whose value is a secret. */
  field(name: string): boolean;
  /** A query or form parameter (`?key=…`, `sig=…`): the fields' names and the parameter-only ones. */
  param(name: string): boolean;
  /** A name found in free text before `:`: the fields' names except the ones prose uses (`Session:`, `Auth:`). */
  prose(name: string): boolean;
  /** Whether a secret name's value is a count rather than a secret: `max_tokens: 256`. */
  counts(name: string): boolean;
}

/** Any name with one of these words anywhere is a secret: `password_confirmation`, `mysql_pwd`. */
const ANYWHERE = new Set(["password", "passwords", "passwd", "pwd", "passphrase", "passcode"]);
/**
 * A name whose words, run together, end like one of these is a secret: `accessToken`,
 * `client.secret`, `aws_secret_access_key`, `x-api-key`, `Set-Cookie`, `apikey`.
 */
const ENDINGS = [
  "token",
  "tokens",
  "secret",
  "secrets",
  "password",
  "passwords",
  "passwd",
  "passphrase",
  "apikey",
  "apikeys",
  "accesskey",
  "secretkey",
  "privatekey",
  "signingkey",
  "encryptionkey",
  "masterkey",
  "sessionid",
  "sessionkey",
  "credential",
  "credentials",
  "cookie",
  "cookies",
  "authorization",
  "bearer",
  "jwt",
];
/**
 * Last words that are secrets as whole words only (`X-Auth`, not `oauth`; `X-Session`, not
 * `possession`; `cardPin`, not `spin`; `X-OTP`, not `hotpot`).
 */
const LAST_WORDS = new Set(["auth", "session", "creds", "pin", "otp", "totp", "hotp"]);
/** Last words prose uses for other things (`Session: Keynote`): redacted only where the structure says it is a name. */
const WEAK = new Set(["auth", "session"]);
/** A secret kept in a generic holder: `SecretString`, `token_value`, `jwtData`, `pin_code`, `otpCode`. */
const HOLDERS = new Set(["value", "string", "binary", "data", "text", "code"]);
const HELD = new Set(["secret", "token", "jwt", "password", "credential", "credentials", "pin", "otp", "totp", "hotp"]);
/** A token after one of these is a pagination cursor, not a credential: `nextPageToken`, `NextToken`, `continuation_token`. */
const CURSORS = new Set(["page", "next", "prev", "previous", "continuation", "sync", "cursor", "pagination", "resume"]);
/** Query and form parameters that are secrets there (`?key=AIza…`, `&sig=…`) but ordinary field names. */
const PARAM_ONLY = new Set(["key", "sig", "signature"]);

/**
 * A name's words, lowercased: separators (`-`, `_`, `.`, spaces) and case changes split it,
 * and a run of capitals is one word (`APIKey` → `api`, `key`).
 *
 * @example wordsOf("X-Amz-Security-Token") // ["x", "amz", "security", "token"]
 */
export function wordsOf(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((word) => word.toLowerCase());
}

/**
 * The secret names: the defaults and the manifest's `redact` names (matched in any case or
 * separator style, and as the end of a longer name).
 *
 * @example const names = secretNames(["accessCode"]); names.field("X-Api-Key") // true
 */
export function secretNames(extra: readonly string[] = []): SecretNames {
  const extras = extra.map((name) => wordsOf(name).join("")).filter((name) => name.length > 0);
  const cache = new Map<string, boolean>();
  const judge = (name: string): boolean => {
    const words = wordsOf(name);
    if (words.length === 0) return false;
    const all = words.join("");
    const last = words[words.length - 1];
    if (words.some((word) => ANYWHERE.has(word))) return true;
    if ((last === "token" || last === "tokens") && words.length > 1 && CURSORS.has(words[words.length - 2])) return false;
    if (ENDINGS.some((ending) => all.endsWith(ending))) return true;
    if (LAST_WORDS.has(last)) return true;
    if (words.length > 1 && HOLDERS.has(last) && HELD.has(words[words.length - 2])) return true;
    // The manifest's names match whole trailing words: `accessCode` also covers `userAccessCode`.
    return words.some((_, start) => extras.includes(words.slice(start).join("")));
  };
  const field = (name: string): boolean => {
    // Names repeat (every call has the same fields): judge each once, up to a bound.
    let known = cache.get(name);
    if (known === undefined) {
      known = name.length <= 200 && judge(name);
      if (cache.size < 10_000) cache.set(name, known);
    }
    return known;
  };
  return {
    field,
    param: (name) => field(name) || PARAM_ONLY.has(name.toLowerCase()),
    prose: (name) => field(name) && !WEAK.has(wordsOf(name).at(-1) ?? ""),
    counts: (name) => wordsOf(name).at(-1) === "tokens",
  };
}
