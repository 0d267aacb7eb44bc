/**
 * Parser benchmark: the parser's full path (`Parser.parse`: bytes to `ParsedDocument`) against turndown (with its GFM plugin), the plain
 * unified pipeline (rehype-parse -> rehype-remark -> remark-gfm -> remark-stringify) and a bare
 * htmlparser2 tokenizer pass, side by side in one process, on the 10-K HTML files of the shared
 * corpus (`../shared/corpus/10-K/*.htm`, read in place). Per file, each engine in turn runs
 * `--warmup` times (the two slow baselines once), then `--iterations` measured times (the slow
 * baselines `--slow-iterations` times), back to back so each runs with its heap in steady state.
 * Peak RSS of the full path is measured per file in a fresh child process (`support/parserRss.ts`).
 *
 *   npx tsc -b && node --import tsx bench/parser.ts [--iterations 5] [--slow-iterations 3]
 *     [--warmup 3] [--output bench/results/parser-latest.md]
 *
 * Targets (the parser issue): full path at least 2x faster than turndown and 5x faster than the
 * unified pipeline (median per file over the corpus), within 4x of the bare tokenizer, and peak
 * RSS under 300 MB on the largest file.
 */
import { Parser } from "htmlparser2"
import { execFile } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { cpus, release } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs, promisify } from "node:util"
import rehypeParse from "rehype-parse"
import rehypeRemark from "rehype-remark"
import remarkGfm from "remark-gfm"
import remarkStringify from "remark-stringify"
import TurndownService from "turndown"
import { gfm } from "turndown-plugin-gfm"
import { unified } from "unified"
import { fullPathName, runFullPath } from "./support/parserPath.js"

const repositoryRoot = fileURLToPath(new URL("../", import.meta.url))
const corpusDirectory = resolve(repositoryRoot, "../shared/corpus/10-K")

const { values: argv } = parseArgs({
  options: {
    iterations: { type: "string" },
    "slow-iterations": { type: "string" },
    warmup: { type: "string" },
    output: { type: "string" }
  },
  strict: true
})

const count = (value: string | undefined, fallback: number, minimum: number): number => {
  if (value === undefined) return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < minimum) {
    process.stderr.write(`expected an integer >= ${minimum}, got ${value}\n`)
    process.exit(2)
  }
  return parsed
}

const iterations = count(argv.iterations, 5, 1)
const slowIterations = count(argv["slow-iterations"], 3, 1)
const warmup = count(argv.warmup, 3, 0)
const output = resolve(repositoryRoot, argv.output ?? "bench/results/parser-latest.md")

if (!existsSync(corpusDirectory)) {
  process.stderr.write(
    `The shared corpus is not at ${corpusDirectory}.\n` +
      "This benchmark reads the 10-K HTML files of ../shared/corpus/10-K/ (relative to the repository) in place.\n"
  )
  process.exit(1)
}
const files = readdirSync(corpusDirectory).filter((name) => name.endsWith(".htm")).sort()
if (files.length === 0) {
  process.stderr.write(`No .htm files in ${corpusDirectory}.\n`)
  process.exit(1)
}

// --- Engines ------------------------------------------------------------------------------------

const turndownService = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" })
turndownService.use(gfm)
/** The little of the DOM that the check below reads (the workspace has no DOM typings). */
interface DomElement {
  readonly nodeName: string
  readonly children: ArrayLike<DomElement>
}
const rowGroups: ReadonlySet<string> = new Set(["THEAD", "TBODY", "TFOOT"])
/** What `HTMLTableElement.rows` holds: the table's own rows, not those of tables nested in it. */
const hasOwnRows = (table: DomElement): boolean =>
  Array.from(table.children).some((child) =>
    child.nodeName === "TR" ||
    (rowGroups.has(child.nodeName) && Array.from(child.children).some((row) => row.nodeName === "TR"))
  )
// turndown-plugin-gfm 1.0.2 crashes on a table without rows (`isHeadingRow(undefined)`), which
// EDGAR HTML has. turndown tries the rule added last first, so this one, added after the plugin,
// keeps such a table's content before the plugin's table rule looks at it.
turndownService.addRule("tableWithoutRows", {
  filter: (node) => node.nodeName === "TABLE" && !hasOwnRows(node),
  replacement: (content) => content
})

const unifiedPipeline = unified().use(rehypeParse).use(rehypeRemark).use(remarkGfm).use(remarkStringify).freeze()

const parserOptions = { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true } as const

/** One corpus file, as bytes (what the parser's full path takes) and as text (what the others take). */
interface Input {
  readonly bytes: Uint8Array
  readonly html: string
}

interface Engine {
  readonly name: string
  readonly slow: boolean
  readonly run: (input: Input) => number
}

const engines: ReadonlyArray<Engine> = [
  { name: "filings", slow: false, run: ({ bytes }) => runFullPath(bytes) },
  { name: "turndown", slow: true, run: ({ html }) => turndownService.turndown(html).length },
  { name: "unified", slow: true, run: ({ html }) => String(unifiedPipeline.processSync(html).value).length },
  {
    name: "tokenizer",
    slow: false,
    // The callbacks any consumer of the tokenizer needs (with `onopentag` htmlparser2 also collects
    // each element's attributes), doing nothing but count.
    run: ({ html }) => {
      let events = 0
      const count = () => {
        events++
      }
      new Parser({ onopentag: count, onclosetag: count, ontext: count }, parserOptions).parseComplete(html)
      return events
    }
  }
]

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const execFileAsync = promisify(execFile)

interface PeakMemory {
  readonly beforeMb: number
  readonly peakMb: number
}

const peakMemory = async (path: string): Promise<PeakMemory> => {
  const { stdout } = await execFileAsync(
    process.execPath,
    ["--import", "tsx", join(repositoryRoot, "bench/support/parserRss.ts"), path],
    { cwd: repositoryRoot, timeout: 300_000, maxBuffer: 1024 * 1024 }
  )
  const parsed: unknown = JSON.parse(stdout)
  if (
    typeof parsed !== "object" || parsed === null || !("beforeMb" in parsed) || !("peakMb" in parsed) ||
    typeof parsed.beforeMb !== "number" || typeof parsed.peakMb !== "number"
  ) {
    throw new Error(`unexpected output from parserRss.ts: ${stdout}`)
  }
  return { beforeMb: parsed.beforeMb, peakMb: parsed.peakMb }
}

// --- Runs ---------------------------------------------------------------------------------------

interface FileResult {
  readonly file: string
  readonly megabytes: number
  /** Median CPU milliseconds (user + system, all threads of the process) per engine name. */
  readonly medians: Readonly<Record<string, number>>
  /** Median wall-clock milliseconds per engine name. */
  readonly wallMedians: Readonly<Record<string, number>>
  readonly memory: PeakMemory
}

const results: Array<FileResult> = []
for (const file of files) {
  const path = join(corpusDirectory, file)
  const bytes = readFileSync(path)
  const input: Input = { bytes, html: new TextDecoder().decode(bytes) }
  const megabytes = statSync(path).size / 1024 / 1024
  const samples = new Map<string, Array<number>>()
  const wallSamples = new Map<string, Array<number>>()
  for (const engine of engines) {
    // Each engine runs back to back, so it is measured with its code optimised and not evicted by
    // another engine's hundreds of megabytes of garbage.
    const measured: Array<number> = []
    const wall: Array<number> = []
    const runs = (engine.slow ? 1 : warmup) + (engine.slow ? slowIterations : iterations)
    for (let run = 0; run < runs; run++) {
      const cpuStart = process.cpuUsage()
      const start = performance.now()
      engine.run(input)
      const elapsed = performance.now() - start
      const cpu = process.cpuUsage(cpuStart)
      if (run >= (engine.slow ? 1 : warmup)) {
        measured.push((cpu.user + cpu.system) / 1000)
        wall.push(elapsed)
      }
    }
    samples.set(engine.name, measured)
    wallSamples.set(engine.name, wall)
  }
  const medians = Object.fromEntries(engines.map((engine) => [engine.name, median(samples.get(engine.name) ?? [])]))
  const wallMedians = Object.fromEntries(
    engines.map((engine) => [engine.name, median(wallSamples.get(engine.name) ?? [])])
  )
  const memory = await peakMemory(path)
  results.push({ file, megabytes, medians, wallMedians, memory })
  process.stderr.write(
    `${file}: ${engines.map((engine) => `${engine.name} ${medians[engine.name]?.toFixed(1)} ms`).join(", ")}\n`
  )
}

// --- Report -------------------------------------------------------------------------------------

const ms = (result: FileResult, engine: string): number => result.medians[engine] ?? Number.NaN
const fixed = (value: number, digits = 1) => value.toFixed(digits)
const ratio = (value: number) => `${value.toFixed(2)}x`

const header = [
  "| File | MB | Filings CPU ms | wall ms | MB/s (CPU) | turndown ms | turndown / Filings | unified ms | unified / Filings | " +
  "tokenizer ms | Filings / tokenizer | peak RSS MB |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
]
const rows = results.map((result) => {
  const ours = ms(result, "filings")
  return `| ${result.file} | ${fixed(result.megabytes, 2)} | ${fixed(ours)} | ${
    fixed(result.wallMedians["filings"] ?? 0)
  } | ` +
    `${fixed(result.megabytes / (ours / 1000), 1)} | ` +
    `${fixed(ms(result, "turndown"))} | ${ratio(ms(result, "turndown") / ours)} | ${fixed(ms(result, "unified"))} | ` +
    `${ratio(ms(result, "unified") / ours)} | ${fixed(ms(result, "tokenizer"))} | ` +
    `${ratio(ours / ms(result, "tokenizer"))} | ${fixed(result.memory.peakMb, 0)} |`
})

const corpusMedian = (engine: string) => median(results.map((result) => ms(result, engine)))
const ours = corpusMedian("filings")
const turndownRatio = corpusMedian("turndown") / ours
const unifiedRatio = corpusMedian("unified") / ours
const tokenizerRatio = ours / corpusMedian("tokenizer")
const largest = results.reduce((a, b) => (b.megabytes > a.megabytes ? b : a))
const worstTokenizerRatio = Math.max(...results.map((result) => ms(result, "filings") / ms(result, "tokenizer")))
const verdict = (ok: boolean) => (ok ? "met" : "**missed**")

const summary = [
  "| Target | Measured (median per file over the corpus) | |",
  "| --- | --- | --- |",
  `| at least 2x faster than turndown + GFM | ${ratio(turndownRatio)} (${fixed(corpusMedian("turndown"))} ms vs ${
    fixed(ours)
  } ms) | ${verdict(turndownRatio >= 2)} |`,
  `| at least 5x faster than the unified pipeline | ${ratio(unifiedRatio)} (${fixed(corpusMedian("unified"))} ms vs ${
    fixed(ours)
  } ms) | ${verdict(unifiedRatio >= 5)} |`,
  `| within 4x of a bare htmlparser2 pass | ${ratio(tokenizerRatio)} (${fixed(ours)} ms vs ${
    fixed(corpusMedian("tokenizer"))
  } ms; worst file ${ratio(worstTokenizerRatio)}) | ${verdict(tokenizerRatio <= 4)} |`,
  `| peak RSS under 300 MB on the largest file | ${fixed(largest.memory.peakMb, 0)} MB (${largest.file}, ${
    fixed(largest.megabytes, 1)
  } MB; ${fixed(largest.memory.beforeMb, 0)} MB before parsing) | ${verdict(largest.memory.peakMb < 300)} |`
]

const cpu = cpus()[0]?.model ?? "unknown CPU"
const report = [
  "# Parser benchmark",
  "",
  `Command: \`node --import tsx bench/parser.ts\` (after \`npx tsc -b\`). Run at ${
    new Date().toISOString()
  } on ${cpu} ` +
  `(${cpus().length} cores), Node ${process.version}, ${release()}. Corpus: ${
    relative(repositoryRoot, corpusDirectory)
  } (${files.length} files).`,
  "",
  `Full path: \`${fullPathName}\` (from the bytes: decoding, blocks, Markdown, sections, chunks; the others start from the decoded text). Per file and engine, in one process: ${warmup} warm-up run(s) (turndown and ` +
  `unified: 1), then the median of ${iterations} runs (turndown and unified: ${slowIterations}). turndown is turndown 7 with ` +
  "turndown-plugin-gfm, parsing with its bundled domino DOM; unified is rehype-parse -> rehype-remark -> remark-gfm -> " +
  "remark-stringify with default options; the tokenizer is htmlparser2's `Parser` with the parser's options and no-op " +
  "(counting) `onopentag`, `onclosetag` and `ontext` callbacks. No garbage collection is forced between runs (forcing one shrinks the heap " +
  "and makes the next run pay to grow it again, which weighs most on the fastest engines). Times are CPU time " +
  "(`process.cpuUsage`, user + system, which includes V8's garbage-collector threads): the benchmark machine is " +
  "shared, and wall time there measures the neighbours as much as the code (Filings' wall-clock median is shown " +
  "too). Peak RSS is the child process's `maxRSS` (getrusage) after converting the " +
  "file once in a fresh Node process (Node and tsx included).",
  "",
  ...summary,
  "",
  ...header,
  ...rows,
  ""
].join("\n")

await mkdir(dirname(output), { recursive: true })
await writeFile(output, report)
process.stdout.write(`${report}\nWritten to ${relative(repositoryRoot, output)}\n`)
