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

/**
 * Whether text for `stream` may carry colours and other terminal escapes: only on a terminal, and
 * not when `NO_COLOR` is set (https://no-color.org).
 */
export const escapesWanted = (stream: { readonly isTTY?: boolean | undefined }): boolean =>
  stream.isTTY === true && (process.env.NO_COLOR ?? "") === ""

let progressWidth = 0

/**
 * A progress line for a person watching: on a terminal's standard error it replaces the one before
 * (an empty line clears it); elsewhere (a pipe, a log, CI) nothing is written.
 */
export const terminalProgress = (line: string): Effect.Effect<void> =>
  Effect.sync(() => {
    if (!process.stderr.isTTY || (line === "" && progressWidth === 0)) return
    // Without escapes, spaces cover what is left of a longer line before.
    const text = escapesWanted(process.stderr) ? `\r\x1b[2K${line}` : `\r${line.padEnd(progressWidth)}\r${line}`
    progressWidth = line.length
    process.stderr.write(text)
  })

// Colours and styles, as the command-line library writes its help and its usage errors.
const ansiEscape = /\x1b\[[0-9;]*[A-Za-z]/g
// What the library writes under an option of its own accord; each option says it better.
const genericHelp =
  /\n {2}(?:A user-defined piece of text\.|A file\.|A file or directory\.|An integer\.|A true or false value\.)\n\n/g

const plainText = (text: string, escapes: boolean): string => {
  const withoutGeneric = text.includes("\n  A ") ? text.replace(genericHelp, "\n") : text
  return escapes ? withoutGeneric : withoutGeneric.replace(ansiEscape, "")
}

/**
 * The console the CLI runs with: what it prints to a pipe or a file, or with `NO_COLOR` set, is
 * plain text; help texts leave out the library's generic line under each option.
 */
export const cliConsole = (base: Console.Console): Console.Console => {
  const out = (args: ReadonlyArray<unknown>) =>
    args.map((arg) => (typeof arg === "string" ? plainText(arg, escapesWanted(process.stdout)) : arg))
  const err = (args: ReadonlyArray<unknown>) =>
    args.map((arg) => (typeof arg === "string" ? plainText(arg, escapesWanted(process.stderr)) : arg))
  return {
    ...base,
    log: (...args) => base.log(...out(args)),
    info: (...args) => base.info(...out(args)),
    error: (...args) => base.error(...err(args)),
    warn: (...args) => base.warn(...err(args)),
    unsafe: {
      ...base.unsafe,
      log: (...args) => base.unsafe.log(...out(args)),
      info: (...args) => base.unsafe.info(...out(args)),
      error: (...args) => base.unsafe.error(...err(args)),
      warn: (...args) => base.unsafe.warn(...err(args))
    }
  }
}
