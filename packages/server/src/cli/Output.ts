/**
 * How CLI commands print results: plain lines for people, or one JSON document with `--json` for
 * scripts. Everything goes through Effect's Console, so tests can capture it.
 */
import { Console, Effect } from "effect"

export const json = (value: unknown): Effect.Effect<void> => Console.log(JSON.stringify(value, null, 2))

/** One JSON document on one line, for streams of events that scripts read line by line. */
export const jsonLine = (value: unknown): Effect.Effect<void> => Console.log(JSON.stringify(value))

export const lines = (...text: ReadonlyArray<string>): Effect.Effect<void> => Console.log(text.join("\n"))

/** Prints `value` as JSON with `--json`, otherwise the human form. */
export const result = (asJson: boolean, value: unknown, human: () => string): Effect.Effect<void> =>
  asJson ? json(value) : Effect.suspend(() => lines(human()))

/** A fixed-width table of text columns. */
export const table = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length))
  )
  const format = (row: ReadonlyArray<string>) =>
    row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ").trimEnd()
  return [format(headers), ...rows.map(format)].join("\n")
}

/**
 * A progress line on stderr, so stdout keeps only the result (and stays JSON with `--json`). On a
 * terminal each line replaces the one before; elsewhere (a log, CI) every line is kept.
 */
export const progress = (line: string): Effect.Effect<void> =>
  Effect.sync(() => {
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${line}`)
    else process.stderr.write(`${line}\n`)
  })
