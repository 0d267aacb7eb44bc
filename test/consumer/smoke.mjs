// A plain JavaScript program on the published libraries, run by the consumer test in a project
// outside the workspace: parses a 10-K, extracts its metrics, summarises it and verifies a
// webhook signature through the Promise doors, then prints what it found as one JSON line.
// Usage: node smoke.mjs <10-K file> <webhook secret> <signature of the body below>
import { extractFiling } from "@filings/extractor"
import { summarize } from "@filings/feed-summarizer"
import { parseFiling, Parser } from "@filings/filings-parser"
import { WebhookSignature } from "@filings/webhook-signer"
import { readFile } from "node:fs/promises"
import { basename } from "node:path"

const [file, secret, signature] = process.argv.slice(2)
const bytes = await readFile(file)

const parsed = await parseFiling(bytes, { fileName: basename(file) })
const extraction = await extractFiling(bytes, { parsed, publicationId: "0000320193-24-000123" })
const { summary } = await summarize({ source: "0000320193-24-000123", docType: "10-K", chunks: parsed.chunks })

const body = JSON.stringify({ event: "filing.new", data: { revenue: extraction.metrics.revenue?.value } })
await WebhookSignature.verify(secret, new TextEncoder().encode(body), signature)
const forged = await WebhookSignature.verify(secret, `${body} `, signature).then(() => undefined, (error) => error)

const unreadable = await parseFiling(new Uint8Array()).then(() => undefined, (error) => error)
const effect = JSON.parse(await readFile("node_modules/effect/package.json", "utf8"))

console.log(JSON.stringify({
  effectVersion: effect.version,
  form: parsed.form,
  sectionItems: parsed.sections.map((section) => section.item).filter((item) => item !== undefined),
  revenue: extraction.metrics.revenue,
  netIncome: extraction.metrics.net_income?.value,
  summaryModel: summary.model,
  highlights: summary.highlights.length,
  citedChunks: summary.highlights.every((highlight) =>
    highlight.citations.every((citation) => parsed.chunks.some((chunk) => chunk.id === citation.chunkId))
  ),
  signedBody: body,
  forgedRefused: forged instanceof WebhookSignature.SignatureMismatchError,
  unreadable: {
    isUnreadableDocument: unreadable instanceof Parser.UnreadableDocument,
    tag: unreadable?._tag,
    reason: unreadable?.reason
  }
}))
