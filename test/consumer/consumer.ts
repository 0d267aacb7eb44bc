/**
 * A TypeScript project that depends on the published libraries, type-checked by the consumer test
 * with `moduleResolution` `nodenext` and `bundler` against the packed tarballs: the Effect API and
 * the Promise doors, each library's public namespaces, and the types being real rather than `any`.
 */
import * as Domain from "@filings/domain"
import * as Edgar from "@filings/edgar"
import { extractFiling, type ExtractFilingOptions, Extractor } from "@filings/extractor"
import { extractFiling as extractFilingFromSubpath } from "@filings/extractor/promise"
import { FeedSummarizer, summarize, type SummaryInput, SummaryModel } from "@filings/feed-summarizer"
import { summarize as summarizeFromSubpath } from "@filings/feed-summarizer/promise"
import { type ParsedDocument, parseFiling, Parser, SgmlSubmission } from "@filings/filings-parser"
import { parseFiling as parseFilingFromSubpath } from "@filings/filings-parser/promise"
import * as Storage from "@filings/storage"
import * as StorageSql from "@filings/storage-sql"
import { WebhookDelivery, WebhookSignature } from "@filings/webhook-signer"
import { Effect } from "effect"

/** The libraries' namespaces, so each package's declarations are loaded and checked. */
export const libraries = { Domain, Edgar, Storage, StorageSql }

export const samePromiseDoors = [
  parseFiling === parseFilingFromSubpath,
  extractFiling === extractFilingFromSubpath,
  summarize === summarizeFromSubpath
]

/** The Effect API with the consumer's own `effect`: one Effect type across all the libraries. */
export const parseAndSummarize = (bytes: Uint8Array) =>
  Effect.gen(function*() {
    const parsed = yield* Parser.parse({ bytes, fileName: "report.htm" })
    const extraction = yield* Extractor.extract({ bytes, parsed, publicationId: "0000000000-00-000000" })
    const input: SummaryInput = { source: "0000000000-00-000000", docType: "10-K", chunks: parsed.chunks }
    const { summary } = yield* FeedSummarizer.summarize(input).pipe(Effect.provide(SummaryModel.extractiveLayer))
    return { revenue: extraction.metrics.revenue?.value, highlights: summary.highlights.length }
  })

export const typedProgram: Effect.Effect<
  { readonly revenue: number | undefined; readonly highlights: number },
  Parser.UnreadableDocument | SgmlSubmission.MalformedSubmission
> = parseAndSummarize(new Uint8Array())

/** The Promise doors, and the typed errors they reject with. */
export const viaPromises = async (bytes: Uint8Array | string, secret: string, signature: string | null) => {
  try {
    const parsed: ParsedDocument.ParsedDocument = await parseFiling(bytes, { fileName: "report.htm" })
    const options: ExtractFilingOptions = { parsed, publicationId: "0000000000-00-000000" }
    const { metrics } = await extractFiling(bytes, options)
    const outcome = await summarize({ source: "0000000000-00-000000", docType: "10-K", chunks: parsed.chunks }, {
      timeout: "5 seconds"
    })
    await WebhookSignature.verify(secret, JSON.stringify({ revenue: metrics.revenue?.value }), signature)
    // @ts-expect-error the word count is a number: the libraries' types are real, not `any`
    const wordCount: string = parsed.wordCount
    return { wordCount, revenue: metrics.revenue?.value, model: outcome.summary.model }
  } catch (error) {
    if (error instanceof Parser.UnreadableDocument) return { unreadable: error.reason }
    if (error instanceof SgmlSubmission.MalformedSubmission) return { malformed: error.reason }
    if (error instanceof WebhookSignature.WebhookSignatureError) return { refused: WebhookDelivery.signatureHeader }
    throw error
  }
}
