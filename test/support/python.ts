import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./examples.js";

/**
 * The Python that runs the Python verify: `EVAL_SIMULATE_PYTHON` (which `.ci/run` points at
 * Debian's python3 with Debian's pytest), or `python3`. A missing interpreter fails the test
 * that needs it: the parity checks are never skipped.
 */
export const PYTHON = process.env.EVAL_SIMULATE_PYTHON || "python3";

/** The Python package's folder. */
export const PYTHON_DIR = join(ROOT, "python");

/** Runs Python to completion in the package's folder, with the package importable. */
export function runPython(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // PYTEST_ADDOPTS cleared: .ci/run's JUnit report is the Python suite's, not a recipe run's.
    const child = spawn(PYTHON, args, {
      cwd: PYTHON_DIR,
      env: { ...process.env, PYTHONPATH: PYTHON_DIR, PYTHONDONTWRITEBYTECODE: "1", PYTEST_ADDOPTS: "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (error) =>
      reject(new Error(`cannot run ${PYTHON} (set EVAL_SIMULATE_PYTHON, or install Debian's python3-pytest as .ci/run does): ${error.message}`)),
    );
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs Python and parses its output as JSON, failing with its stderr when it fails. */
export async function pythonJson(args: string[]): Promise<any> {
  const { code, stdout, stderr } = await runPython(args);
  if (code !== 0) throw new Error(`${PYTHON} ${args.join(" ")} exited ${code}:\n${stderr}${stdout}`);
  return JSON.parse(stdout);
}
