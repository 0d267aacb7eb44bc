/**
 * What the browser test does with a filing, written once and run twice: in Node by the test and in
 * headless Chromium from the esbuild bundle (the page, and the parse alone in a Web Worker). It
 * parses the filing, extracts its metrics, tables, exhibits and signatures, and signs and verifies
 * a webhook body; the results are plain data, so the two runs can be compared value for value.
 */
import { Extractor } from "@filings/extractor"
import { Parser } from "@filings/filings-parser"
import { WebhookSignature } from "@filings/webhook-signer"
import { Effect } from "effect"
import { type ParseSummary, sha256, summarizeParse } from "./browserParse.js"

export { parseOutcome } from "./browserParse.js"

export interface ScenarioResult {
  readonly parse: ParseSummary
  readonly metrics: Record<string, { readonly value: number; readonly period: string; readonly source: string }>
  readonly tables: ReadonlyArray<{ readonly id: string; readonly tableType: string }>
  readonly exhibitNumbers: ReadonlyArray<string>
  readonly signerNames: ReadonlyArray<string>
  /** SHA-256 of the whole extraction as JSON. */
  readonly extractionDigest: string
  readonly webhook: {
    readonly signature: string
    readonly verified: boolean
    /** How a body changed by one byte was refused: the error's name and code. */
    readonly tampered: string
  }
}

const webhookSecret = "whsec_browser-test-secret"

/** Parses, extracts, and signs and verifies a webhook body that names the filing. */
export const runScenario = async (bytes: Uint8Array): Promise<ScenarioResult> => {
  const parsed = await Effect.runPromise(Parser.parse({ bytes }))
  const extraction = await Effect.runPromise(
    Extractor.extract({ bytes, parsed, publicationId: "0000000000-00-000000" })
  )
  const body = JSON.stringify({ type: "filing.parsed", form: parsed.form, word_count: parsed.wordCount })
  const signature = await WebhookSignature.sign(webhookSecret, body)
  const verified = await WebhookSignature.verify(webhookSecret, new TextEncoder().encode(body), signature).then(
    () => true,
    () => false
  )
  const tampered = await WebhookSignature.verify(webhookSecret, `${body} `, signature).then(
    () => "accepted",
    (error: unknown) =>
      error instanceof WebhookSignature.WebhookSignatureError ? `${error.name} ${error.code}` : String(error)
  )
  const metrics: Record<string, { value: number; period: string; source: string }> = {}
  for (const [name, metric] of Object.entries(extraction.metrics)) {
    if (metric !== undefined) metrics[name] = { value: metric.value, period: metric.period, source: metric.source }
  }
  return {
    parse: await summarizeParse(parsed),
    metrics,
    tables: extraction.tables.map((table) => ({ id: table.id, tableType: table.tableType })),
    exhibitNumbers: extraction.exhibits.map((exhibit) => exhibit.number),
    signerNames: extraction.signatures?.signers.map((signer) => signer.name) ?? [],
    extractionDigest: await sha256(extraction),
    webhook: { signature, verified, tampered }
  }
}
