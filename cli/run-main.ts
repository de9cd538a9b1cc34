/**
 * The bin's own `runMain`: citty's, except that a usage error citty finds itself (a value outside
 * a `--format`'s words, a missing argument, an unknown command) exits 2 like every usage error
 * the commands find, with its message on stderr and nothing on stdout, where results go.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: citty's commands differ in their argument definitions; this runs any of them.
import { type CommandDef, renderUsage, runCommand, showUsage } from "citty";
import { EXIT } from "./exit-codes.js";

async function subCommand(root: CommandDef<any>, name: string | undefined): Promise<CommandDef<any> | undefined> {
  const commands = typeof root.subCommands === "function" ? await root.subCommands() : await root.subCommands;
  const found = name === undefined ? undefined : commands?.[name];
  return typeof found === "function" ? await found() : await found;
}

/**
 * Runs `rawArgs` (the words after the bin's name) through `root`: `--help`/`-h` prints the
 * command's usage, `--version` the version; a citty usage error exits 2.
 *
 * @example await runCliMain(evalSimulate, process.argv.slice(2));
 */
export async function runCliMain(root: CommandDef<any>, rawArgs: string[]): Promise<void> {
  // The root takes no flags: its first word that is not one names the command.
  const name = rawArgs.find((arg) => !arg.startsWith("-"));
  if (rawArgs.includes("--help") || rawArgs.includes("-h")) {
    const command = await subCommand(root, name);
    await showUsage(command ?? root, command ? root : undefined);
    return;
  }
  if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
    const meta = typeof root.meta === "function" ? await root.meta() : await root.meta;
    process.stdout.write(`${meta?.version}\n`);
    return;
  }
  try {
    await runCommand(root, { rawArgs });
  } catch (error) {
    if ((error as Error)?.name !== "CLIError") throw error;
    const code = (error as { code?: string }).code;
    if (code === "E_NO_COMMAND") process.stderr.write(`${await renderUsage(root)}\n\n`);
    const command = code === "E_UNKNOWN_COMMAND" || name === undefined ? "eval-simulate" : `eval-simulate ${name}`;
    process.stderr.write(`${command}: ${(error as Error).message} (see --help)\n`);
    process.exitCode = EXIT.usage;
  }
}
