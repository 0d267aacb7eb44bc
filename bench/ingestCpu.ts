/**
 * Ingest CPU time per filing: real corpus filings (a 10-K, a 10-Q, and 8-Ks whose full submissions
 * furnish press releases) stored through the server's `Ingestion` (parse, metadata, the document,
 * its extraction, feed item, releases and events) into a fresh embedded PGlite database, measured
 * as the process's CPU time (user + system, `process.cpuUsage`: the database runs in the process, so
 * its work counts) around each filing's ingest. Several rounds, each on a fresh database (made
 * before the clock starts); the median per filing is reported.
 *
 * With `--baseline <ref>`, the same measurement runs on that git ref too, in the same process and
 * in turn with this checkout (each round alternates which goes first, so the load of a shared
 * machine falls on both alike): the ref is checked out in a temporary `git worktree`, its
 * `node_modules` linked to this checkout's (its own packages in `@filings/`), and built with
 * `npx tsc -b`. The report gives both medians and their ratio, and checks that both builds stored
 * the same documents (ids, titles, word counts), so that the ratio compares like with like.
 *
 *   node --import tsx bench/ingestCpu.ts [--baseline <ref>] [--rounds 5] [--warmup 1] [--keep-baseline]
 *     [--only NAME,NAME]   (only the filings whose names hold one of these, in the same order)
 *   npm run bench:ingest -- --baseline <ref>
 *
 * Needs the built packages (`npx tsc -b`) and the corpus at `../shared/corpus`.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { corpusDir, corpusMissing } from "../test/support/corpus.js"
import { type Filing, type IngestBuild, type IngestedFiling, loadIngestBuild } from "./support/ingestBuild.js"
import { repositoryRoot } from "./support/processes.js"

const { values: argv } = parseArgs({
  options: {
    baseline: { type: "string" },
    rounds: { type: "string" },
    warmup: { type: "string" },
    only: { type: "string" },
    "keep-baseline": { type: "boolean" }
  },
  strict: true
})
const rounds = Number(argv.rounds ?? 5)
const warmup = Number(argv.warmup ?? 1)
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(warmup) || warmup < 0) {
  throw new Error("--rounds is a whole number of at least 1, --warmup one of at least 0")
}

/** The filings measured: what each is, and what a caller gives for a bare document (no header). */
const filings: ReadonlyArray<Omit<Filing, "bytes">> = [
  {
    name: "10-K/aapl-10k-fy2024.htm",
    overrides: { accession: "0000320193-24-000123", filing_date: "2024-11-01" }
  },
  {
    name: "10-Q/aapl-10q-2025-03-29.htm",
    overrides: { accession: "0000320193-25-000057", filing_date: "2025-05-02" }
  },
  { name: "8-K/adbe-8k-2023-03-15-full-submission.txt", overrides: {} },
  { name: "8-K/mmm-8k-2024-03-08-full-submission.txt", overrides: {} },
  { name: "8-K/abvc-8k-2025-04-15-full-submission.txt", overrides: {} }
]

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const git = (cwd: string, ...args: Array<string>) =>
  execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim()

/**
 * `node_modules` for a checkout of another commit: every entry of this checkout's linked, but
 * `@filings/`, whose packages are the checkout's own (a link to this checkout's would measure it).
 */
const linkNodeModules = (checkout: string) => {
  const source = join(repositoryRoot, "node_modules")
  const target = join(checkout, "node_modules")
  mkdirSync(join(target, "@filings"), { recursive: true })
  for (const entry of readdirSync(source)) {
    if (entry !== "@filings") symlinkSync(join(source, entry), join(target, entry))
  }
  for (const name of readdirSync(join(checkout, "packages"))) {
    symlinkSync(join("..", "..", "packages", name), join(target, "@filings", name))
    // A package's own dependencies (versions the workspace root does not hold).
    const own = join(repositoryRoot, "packages", name, "node_modules")
    if (existsSync(own) && !existsSync(join(checkout, "packages", name, "node_modules"))) {
      symlinkSync(own, join(checkout, "packages", name, "node_modules"))
    }
  }
}

/** A built checkout of `ref` in a temporary worktree, reused when a kept one is there already. */
const checkoutOf = (ref: string): string => {
  const commit = git(repositoryRoot, "rev-parse", "--verify", `${ref}^{commit}`)
  const checkout = join(tmpdir(), `filings-bench-${commit.slice(0, 12)}`)
  if (!existsSync(checkout)) {
    process.stderr.write(`checking out ${ref} (${commit.slice(0, 12)}) in a temporary worktree\n`)
    git(repositoryRoot, "worktree", "add", "--quiet", "--detach", checkout, commit)
    linkNodeModules(checkout)
  }
  process.stderr.write(`building ${ref} (npx tsc -b)\n`)
  execFileSync("npx", ["tsc", "-b"], { cwd: checkout, stdio: "inherit" })
  return checkout
}

const removeCheckout = (checkout: string) => git(repositoryRoot, "worktree", "remove", "--force", checkout)

/** What a build stored, for comparing two: each filing's id, title and word count. */
const storedSummary = (ingested: ReadonlyArray<IngestedFiling>) =>
  JSON.stringify(ingested.map(({ documents }) => documents))

const main = async () => {
  if (corpusMissing) throw new Error("../shared/corpus is absent: nothing to ingest")
  const only = argv.only?.split(",").filter((name) => name !== "")
  const chosen = filings.filter((filing) => only === undefined || only.some((name) => filing.name.includes(name)))
  if (chosen.length === 0) throw new Error(`--only ${argv.only} names none of the filings`)
  const files: ReadonlyArray<Filing> = chosen.map((filing) => ({
    ...filing,
    bytes: new Uint8Array(readFileSync(join(corpusDir, filing.name)))
  }))
  const loadAtStart = loadavg()
  const checkout = argv.baseline === undefined ? undefined : checkoutOf(argv.baseline)
  try {
    const builds: Array<IngestBuild> = [await loadIngestBuild(repositoryRoot)]
    if (checkout !== undefined) builds.push(await loadIngestBuild(checkout))
    const times = builds.map(() => files.map((): Array<number> => []))
    const stored = builds.map((): string | undefined => undefined)
    for (let round = 0; round < warmup + rounds; round++) {
      // Alternate which build goes first, so neither always follows the other.
      const order = round % 2 === 0 ? builds.map((_, index) => index) : builds.map((_, index) => index).reverse()
      for (const index of order) {
        const ingested = await builds[index]!.ingestAll(files)
        stored[index] ??= storedSummary(ingested)
        if (round < warmup) continue
        ingested.forEach(({ cpuMillis }, file) => times[index]![file]!.push(cpuMillis))
      }
      process.stderr.write(`round ${round + 1} of ${warmup + rounds}${round < warmup ? " (warm-up)" : ""}\n`)
    }
    const [candidate, base] = builds
    const same = base === undefined || stored[0] === stored[1]
    const medians = times.map((perFile) => perFile.map(median))
    const totals = times.map((perFile) =>
      median(perFile[0]!.map((_, run) => perFile.reduce((sum, file) => sum + file[run]!, 0)))
    )
    const header = base === undefined
      ? ["| Filing | CPU ms (median) |", "| --- | ---: |"]
      : [
        `| Filing | ${base.commit} CPU ms | ${candidate!.commit} CPU ms | new / base |`,
        "| --- | ---: | ---: | ---: |"
      ]
    // With a baseline, the columns are base, then new.
    const row = (name: string, values: ReadonlyArray<number>) =>
      `| ${name} | ${values.map((value) => value.toFixed(0)).join(" | ")}${
        values.length === 2 ? ` | ${(values[1]! / values[0]!).toFixed(2)}` : ""
      } |`
    const columns = (values: ReadonlyArray<number>) => (base === undefined ? values : [values[1]!, values[0]!])
    const report = [
      "# Ingest CPU time per filing",
      "",
      `Command: \`node --import tsx bench/ingestCpu.ts${
        argv.baseline === undefined ? "" : ` --baseline ${argv.baseline}`
      } --rounds ${rounds} --warmup ${warmup}${argv.only === undefined ? "" : ` --only ${argv.only}`}\`. Run ${
        new Date().toISOString()
      } on ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores), load average ${
        loadAtStart.map((load) => load.toFixed(1)).join(", ")
      } at the start, Node ${process.version}. Each filing ingested into a fresh embedded PGlite database per round; CPU ms = user + system of the process around the ingest (its releases, extraction, feed items and events included), median of ${rounds} rounds after ${warmup} of warm-up.`,
      "",
      ...header,
      ...files.map((file, index) => row(file.name, columns(medians.map((perFile) => perFile[index]!)))),
      row(files.length === filings.length ? "**all five**" : `**all ${files.length}**`, columns(totals)),
      "",
      base === undefined
        ? ""
        : same
        ? "Both builds stored the same documents (ids, titles, word counts)."
        : "**The builds stored different documents**: the ratio does not compare like with like."
    ].join("\n")
    process.stdout.write(`${report}\n`)
    if (!same) process.exitCode = 1
  } finally {
    if (checkout !== undefined && argv["keep-baseline"] !== true) removeCheckout(checkout)
  }
}

await main()
