/**
 * The whole extraction of a filing: its metrics (from the company's own XBRL, inline or in an
 * instance document of the submission), its classified tables, its exhibit references and its
 * signatures. What cannot be read is left out with a warning, never guessed.
 */
import { FilingsParser, type ParsedDocument, SgmlSubmission } from "@filings/filings-parser"
import { Effect, Either, Option } from "effect"
import * as Exhibits from "./Exhibits.js"
import type { MetricValue } from "./Extraction.js"
import * as Metrics from "./Metrics.js"
import * as Signatures from "./Signatures.js"
import * as Tables from "./Tables.js"

export interface ExtractInput {
  /** The file as ingested: a full submission, or the primary document itself. */
  readonly bytes: Uint8Array
  /** What `Parser.parse` made of the same bytes. */
  readonly parsed: ParsedDocument.ParsedDocument
  /** The accession number the document is served under, for exhibit URLs. */
  readonly publicationId: string
}

export interface ExtractionOutput {
  readonly metrics: Partial<Record<Metrics.MetricName, MetricValue>>
  readonly tables: ReadonlyArray<Tables.Table>
  readonly exhibits: ReadonlyArray<Exhibits.ExhibitReference>
  readonly signatures?: Signatures.Signatures | undefined
  readonly warnings: ReadonlyArray<string>
}

const inlineXbrlMark = /<ix:(?:header|nonFraction|nonNumeric)\b/i

const isSubmission = (bytes: Uint8Array): boolean =>
  /<SEC-DOCUMENT>|<SEC-HEADER>|<IMS-DOCUMENT>/i.test(new TextDecoder("latin1").decode(bytes.subarray(0, 4096)))

/** Where the filing's XBRL is: the primary document when it is inline XBRL, or the instance document. */
const findXbrl = (bytes: Uint8Array) =>
  Effect.gen(function*() {
    if (isSubmission(bytes)) {
      const submission = yield* Effect.either(SgmlSubmission.parseBytes(bytes))
      if (Either.isLeft(submission)) return {}
      const primary = Option.getOrUndefined(SgmlSubmission.primaryDocument(submission.right))
      const instance = submission.right.documents.find((document) => /^EX-101\.INS$/i.test(document.type.trim()))
      return {
        ...(primary !== undefined && inlineXbrlMark.test(primary.body) ? { inlineXbrl: primary.body } : {}),
        ...(instance === undefined ? {} : { instanceXml: instance.body })
      }
    }
    const decoded = yield* Effect.either(FilingsParser.decodeBytes(bytes))
    if (Either.isLeft(decoded)) return {}
    return inlineXbrlMark.test(decoded.right.text) ? { inlineXbrl: decoded.right.text } : {}
  })

export const extract: (input: ExtractInput) => Effect.Effect<ExtractionOutput> = Effect.fn("Extractor.extract")(
  function*(input: ExtractInput) {
    const xbrl = yield* findXbrl(input.bytes)
    const metrics = xbrl.inlineXbrl === undefined && xbrl.instanceXml === undefined
      ? { metrics: {}, warnings: ["the filing has no XBRL: no metrics were read"] }
      : yield* Metrics.extractMetrics(xbrl).pipe(
        Effect.catchAll((error) => Effect.succeed({ metrics: {}, warnings: [`no metrics: ${error.message}`] }))
      )
    const tables = Tables.extractTables(input.parsed)
    const signatures = Signatures.extractSignatures(input.parsed)
    return {
      metrics: metrics.metrics,
      tables: tables.tables,
      exhibits: Exhibits.extractExhibits(input.parsed, input.publicationId),
      ...(signatures.signatures === undefined ? {} : { signatures: signatures.signatures }),
      warnings: [...metrics.warnings, ...tables.warnings, ...signatures.warnings]
    }
  }
)
