/**
 * `filings summarize FILE`: the feed item of one local document, without a server or a database:
 * its highlights with the chunks they cite (and those chunks' text, so a reader can check each
 * highlight against its source), categories, sentiment and the model that wrote it. It uses the
 * model the server would (`FILINGS_SUMMARY_MODEL_URL`, else the extractive one).
 */
import { Args, Command, Options } from "@effect/cli"
import { DocType } from "@filings/domain"
import { Effect, Option } from "effect"
import { basename } from "node:path"
import { summaryModelLayer } from "../Composition.js"
import { isFeedDocType, summarizeDocument } from "../feed/FeedWriter.js"
import { eightKItems, storedChunks } from "../ingest/StoredForms.js"
import { CliFailure } from "./CliFailure.js"
import * as Output from "./Output.js"
import { readAndParse } from "./ReadFiling.js"
import { jsonOption } from "./SharedOptions.js"

export const summarizeCommand = Command.make(
  "summarize",
  {
    file: Args.file({ name: "FILE", exists: "yes" }),
    type: Options.choice("type", DocType.FeedDocumentTypes).pipe(
      Options.withDescription(
        "the document's type, when the file does not say it (EARNINGS_CALL, PRESS_RELEASE, 8-K, ...)"
      ),
      Options.optional
    ),
    ticker: Options.text("ticker").pipe(
      Options.withDescription("the company's ticker, for the item"),
      Options.optional
    ),
    json: jsonOption
  },
  ({ file, json, ticker, type }) =>
    Effect.gen(function*() {
      const { parsed } = yield* readAndParse(file, type)

      const docType = Option.getOrUndefined(type) ?? parsed.header?.form ?? parsed.cover?.documentType ?? parsed.form
      if (docType === undefined || !isFeedDocType(docType)) {
        return yield* new CliFailure({
          message: `${file}: ${
            docType === undefined ? "the file does not say its type" : `the feed does not carry ${docType}`
          }; give --type ${DocType.FeedDocumentTypes.join("|")}`
        })
      }
      const publicationId = parsed.header?.accessionNumber ?? basename(file)
      const companyName = parsed.header?.companyName ?? parsed.cover?.registrantName ?? ""
      const chunks = storedChunks(parsed)
      const title = parsed.title ?? (companyName === "" ? basename(file) : `${companyName} ${docType}`)
      const outcome = yield* summarizeDocument({
        publicationId,
        docType,
        title,
        companyName,
        items: docType === "8-K" ? eightKItems(parsed) : [],
        chunks
      }).pipe(Effect.provide(summaryModelLayer))
      const chunkById = new Map(chunks.map((chunk) => [chunk.id, chunk]))
      const { summary } = outcome

      const item = {
        ticker: Option.getOrNull(ticker) ?? parsed.cover?.tradingSymbol ?? null,
        company_name: companyName,
        title,
        doc_type: docType,
        categories: summary.categories,
        sentiment: summary.sentiment,
        model: summary.model,
        highlights: summary.highlights.map((highlight) => ({
          text: highlight.text,
          citations: highlight.citations.map((citation) => ({
            source: citation.source,
            chunk_id: citation.chunkId,
            section: chunkById.get(citation.chunkId)?.section ?? null,
            text: chunkById.get(citation.chunkId)?.text ?? null
          }))
        })),
        ...(outcome.fallbackReason === undefined ? {} : { fallback_reason: outcome.fallbackReason }),
        corrections: outcome.corrections
      }
      if (json) return yield* Output.json(item)
      return yield* Output.lines([
        `${item.title} (${item.doc_type})`,
        `categories: ${item.categories.length === 0 ? "none" : item.categories.join(", ")}`,
        `sentiment: ${item.sentiment}; model: ${item.model}`,
        ...item.highlights.map((highlight) =>
          `- ${highlight.text} [${highlight.citations.map((citation) => citation.chunk_id).join(", ")}]`
        )
      ].join("\n"))
    })
).pipe(Command.withDescription("Summarise a document into its feed item, without storing it"))
