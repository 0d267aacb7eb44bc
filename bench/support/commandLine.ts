/**
 * What a benchmark program reads from its command line, how it reports its progress on standard
 * error while it runs, and where its report goes: a file, and standard output.
 */
import { mkdir, writeFile } from "node:fs/promises"
import { dirname } from "node:path"

/** The whole number `--<name>` gives (`fallback` without it); fails on anything else or below `least`. */
export const wholeNumber = (name: string, text: string | undefined, fallback: number, least = 1): number => {
  const value = text === undefined ? fallback : Number(text)
  if (!Number.isInteger(value) || value < least) {
    throw new Error(`--${name} must be a whole number of at least ${least}`)
  }
  return value
}

/**
 * The lines of a report that say how to run it again: `command`, on the PostgreSQL server the
 * benchmark measures beside PGlite.
 */
export const commandLines = (command: string): ReadonlyArray<string> => [
  `Command: \`FILINGS_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test ${command}\``,
  "(after `npx tsc -b`; without the variable, PGlite only)."
]

/** Writes the report to `outputFile` (making its folder) and prints it on standard output. */
export const publishReport = async (outputFile: string, text: string): Promise<void> => {
  await mkdir(dirname(outputFile), { recursive: true })
  await writeFile(outputFile, text)
  process.stdout.write(`${text}\n`)
}

/** Writes progress lines on standard error, each with the seconds since `startedAt` (`performance.now()`). */
export const progressReporter = (startedAt = performance.now()) => (line: string): void => {
  process.stderr.write(`[${((performance.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${line}\n`)
}
