import { type CommandDef, runCommand } from "citty";
import { vi } from "vitest";

/** Runs a CLI command in-process and returns what it printed and the exit code it chose. */
export async function runInProcess(command: CommandDef<any>, rawArgs: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
  try {
    await runCommand(command, { rawArgs });
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout, stderr, code };
}
