/**
 * The `--format` words: one word, one kind of output, on every command. Each command offers the
 * ones its output has; `text` is always there and the default.
 */

const FORMATS = {
  text: "lines for a person",
  json: "one JSON document",
  markdown: "Markdown, for a pull request or a job summary",
  junit: "JUnit XML, for a CI system's test report",
  github: "GitHub Actions workflow annotations",
} as const;

/** A `--format` word. */
export type Format = keyof typeof FORMATS;

/** Every word, with what it prints: the CLI reference's glossary of formats. */
export const FORMAT_WORDS: Readonly<Record<Format, string>> = FORMATS;

const shown = (format: Format) => (format === "junit" ? "junit (JUnit XML)" : format === "github" ? "github (workflow annotations)" : format);

/**
 * A command's `--format` argument: these words, `text` the default, described the same way
 * everywhere.
 *
 * @example const args = { format: formatArg("How to print the verdict", ["text", "json", "junit", "github"]) };
 */
export function formatArg(what: string, formats: readonly ["text", ...Format[]]) {
  const words = formats.map(shown);
  return {
    type: "enum",
    options: [...formats] as string[],
    default: "text",
    description: `${what}: ${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`,
  } as const;
}
