/**
 * Where a filing's tagged numbers are: the inline XBRL of its primary document, an XBRL instance
 * (`EX-101.INS`), the label linkbase (`EX-101.LAB`), or, for 1997 to 2001, an EX-27 financial data
 * schedule. A full submission is split once (or taken split); a bare document is decoded.
 */
import { Parser, SgmlSubmission, XbrlFacts } from "@filings/filings-parser"
import { Effect, Either, Option } from "effect"

/** The filing's structured data, each part absent when the filing has none. */
export interface StructuredData {
  readonly inlineXbrl?: string | undefined
  readonly instanceXml?: string | undefined
  /** The label linkbase of a full submission. */
  readonly labelLinkbase?: string | undefined
  /** The EX-27 financial data schedule of a filing from 1997-2001. */
  readonly financialDataSchedule?: string | undefined
}

export const findStructuredData = (
  bytes: Uint8Array,
  split: SgmlSubmission.Submission | undefined
): Effect.Effect<StructuredData> =>
  Effect.gen(function*() {
    if (split !== undefined || SgmlSubmission.looksLikeSubmission(bytes)) {
      const submission = split === undefined
        ? yield* Effect.either(SgmlSubmission.parseBytes(bytes))
        : Either.right(split)
      if (Either.isLeft(submission)) return {}
      const { documents } = submission.right
      const primary = Option.getOrUndefined(SgmlSubmission.primaryDocument(submission.right))
      const ofType = (type: RegExp) => documents.find((document) => type.test(document.type.trim()))?.body
      return {
        inlineXbrl: primary !== undefined && XbrlFacts.holdsInlineXbrl(primary.body) ? primary.body : undefined,
        instanceXml: ofType(/^EX-101\.INS$/i),
        labelLinkbase: ofType(/^EX-101\.LAB$/i),
        financialDataSchedule: ofType(/^EX-27(?:\.\d+)?$/i)
      }
    }
    const decoded = yield* Effect.either(Parser.decodeBytes(bytes))
    if (Either.isLeft(decoded)) return {}
    return XbrlFacts.holdsInlineXbrl(decoded.right.text) ? { inlineXbrl: decoded.right.text } : {}
  })
