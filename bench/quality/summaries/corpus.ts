/**
 * Reads an ECTSum split in place (the data stays outside the repository): transcripts in
 * `ects/<TICKER>_<quarter>_<year>.txt`, one sentence per line, and expert summaries under the same
 * name in `gt_summaries/`, one bullet per line.
 */
import { existsSync } from "node:fs"
import { readdir, readFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { repositoryRoot } from "../../support/processes.js"

/** The validation split beside the repository; the test split is kept for independent evaluation. */
export const ectsumValidationDir = join(repositoryRoot, "..", "shared", "corpus", "ectsum-val")

export interface EarningsCall {
  /** The file name shared by the transcript and its summary, e.g. `ABM_q1_2021.txt`. */
  readonly name: string
  readonly ticker: string
  readonly sentences: ReadonlyArray<string>
  readonly goldBullets: ReadonlyArray<string>
}

export type CorpusRead =
  | { readonly _tag: "Found"; readonly calls: ReadonlyArray<EarningsCall> }
  | { readonly _tag: "Absent"; readonly reason: string }

const nonEmptyLines = (text: string): Array<string> =>
  text.split("\n").map((line) => line.trim()).filter((line) => line.length > 0)

/** `ABM_q1_2021.txt` → `ABM`; the quarter and year are the last two parts, whatever the ticker holds. */
const tickerOf = (name: string): string => name.replace(/\.txt$/, "").split("_").slice(0, -2).join("_")

/**
 * Every transcript with its summary, sorted by name; `Absent` when the split is not there. A
 * transcript without its summary is an error rather than a skip: scores over part of a split would
 * pass for scores over all of it.
 */
export const readEctsum = async (dir: string): Promise<CorpusRead> => {
  const transcripts = join(dir, "ects")
  const summaries = join(dir, "gt_summaries")
  if (!existsSync(transcripts) || !existsSync(summaries)) {
    const shown = relative(repositoryRoot, dir)
    return { _tag: "Absent", reason: `no ECTSum split at ${shown} (expected ects/ and gt_summaries/ there)` }
  }
  const names = (await readdir(transcripts)).filter((name) => name.endsWith(".txt")).sort()
  if (names.length === 0) {
    return { _tag: "Absent", reason: `no transcripts in ${relative(repositoryRoot, transcripts)}` }
  }
  const calls: Array<EarningsCall> = []
  for (const name of names) {
    const summary = join(summaries, name)
    if (!existsSync(summary)) {
      throw new Error(`the transcript ${name} has no gold summary in ${relative(repositoryRoot, summaries)}`)
    }
    calls.push({
      name,
      ticker: tickerOf(name),
      sentences: nonEmptyLines(await readFile(join(transcripts, name), "utf8")),
      goldBullets: nonEmptyLines(await readFile(summary, "utf8"))
    })
  }
  return { _tag: "Found", calls }
}
