/**
 * Every value of a repeatable flag (`--header`, `--allow-origin`, `--manifest` of validate):
 * citty keeps only the last one given.
 *
 * @example repeatedFlag(["--header", "A: 1", "--header=B: 2"], "header") // ["A: 1", "B: 2"]
 */
export function repeatedFlag(rawArgs: readonly string[], flag: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length && rawArgs[i] !== "--"; i++) {
    if (rawArgs[i] === `--${flag}` && i + 1 < rawArgs.length) values.push(rawArgs[++i]);
    else if (rawArgs[i].startsWith(`--${flag}=`)) values.push(rawArgs[i].slice(flag.length + 3));
  }
  return values;
}
