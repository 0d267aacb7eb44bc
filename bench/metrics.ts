/**
 * Times `extractMetrics` on corpus filings against a bare htmlparser2 pass over the same text (the
 * floor for any streaming reader). Run: `node --import tsx bench/metrics.ts`.
 */
import { Effect } from "effect"
import { Parser } from "htmlparser2"
import { existsSync, readFileSync } from "node:fs"
import { extractMetrics } from "../packages/extractor/src/Metrics.js"

const corpus = new URL("../../shared/corpus/", import.meta.url)
const files = ["10-K/aapl-10k-fy2024.htm", "10-Q/aapl-10q-2025-03-29.htm", "10-K/nvda-10k-fy2024.htm"]
const rounds = 20

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

const time = (run: () => void): number => {
  const samples: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const start = performance.now()
    run()
    samples.push(performance.now() - start)
  }
  return median(samples)
}

if (!existsSync(corpus)) {
  console.log(`corpus not found at ${corpus.pathname}: nothing to time`)
} else {
  for (const file of files) {
    const html = readFileSync(new URL(file, corpus), "utf8")
    const bare = time(() => new Parser({}, { recognizeSelfClosing: true }).end(html))
    const metrics = time(() => Effect.runSync(extractMetrics({ inlineXbrl: html })))
    console.log(
      `${file}: ${(html.length / 1e6).toFixed(2)} MB, bare htmlparser2 pass ${bare.toFixed(1)} ms, extractMetrics ${
        metrics.toFixed(1)
      } ms (median of ${rounds})`
    )
  }
}
