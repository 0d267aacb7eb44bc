/**
 * What a benchmark program reads from its command line, and how it reports its progress on
 * standard error while it runs (its report goes to standard output or a file).
 */

/** The whole number `--<name>` gives (`fallback` without it); fails on anything else or below `least`. */
export const wholeNumber = (name: string, text: string | undefined, fallback: number, least = 1): number => {
  const value = text === undefined ? fallback : Number(text)
  if (!Number.isInteger(value) || value < least) {
    throw new Error(`--${name} must be a whole number of at least ${least}`)
  }
  return value
}

/** Writes progress lines on standard error, each with the seconds since `startedAt` (`performance.now()`). */
export const progressReporter = (startedAt = performance.now()) => (line: string): void => {
  process.stderr.write(`[${((performance.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${line}\n`)
}
