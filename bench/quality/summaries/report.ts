/**
 * How the summary evaluations end: the report on standard output and, when asked, in a file; and a
 * failure as its stack on standard error with a non-zero exit status.
 */
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, resolve } from "node:path"

/** Prints `report`, and writes it to `output` too when given. */
export const publishReport = async (report: string, output: string | undefined): Promise<void> => {
  process.stdout.write(report)
  if (output === undefined) return
  await mkdir(dirname(resolve(output)), { recursive: true })
  await writeFile(resolve(output), report)
  process.stderr.write(`report written to ${output}\n`)
}

/** Runs an evaluation's `main`, turning a failure into its stack and exit status 1. */
export const runEvaluation = (main: () => Promise<void>): void => {
  void main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
    process.exitCode = 1
  })
}
