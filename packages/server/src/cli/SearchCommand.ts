/**
 * `filings search QUERY`: full-text search over the stored passages, as `GET /v1/search` answers
 * it, through a running server or on the database directly (see `OperatorSelection`). Each result
 * names its document, pages and section, its snippet, and the citation (`publication_id/chunk_id`)
 * that `GET /v1/documents/{id}/chunks/{chunk_id}` reads.
 */
import { Args, Command, Options } from "@effect/cli"
import { Search } from "@filings/domain"
import { Effect, Option, Schema } from "effect"
import { fromParseError } from "./CliFailure.js"
import { Operator } from "./Operator.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const optionalText = (name: string, pseudoName: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudoName), Options.withDescription(description), Options.optional)

const human = (results: Search.SearchResults): string => {
  if (results.results.length === 0) return `No passage matches (total ${results.total}).`
  const shown = results.results.map((result, index) => {
    const pages = result.pageStart === result.pageEnd
      ? `p. ${result.pageStart}`
      : `pp. ${result.pageStart}-${result.pageEnd}`
    const where = [result.ticker, result.docType, result.period, result.filingDate, pages, result.section]
      .filter((part) => part !== null && part !== "")
      .join(" · ")
    return [
      `${results.offset + index + 1}. ${where}`,
      `   ${result.snippet}`,
      `   ${result.publicationId}/${result.chunkId}  score ${result.score.toFixed(2)}`
    ].join("\n")
  })
  const last = results.offset + results.results.length
  return [...shown, "", `${results.offset + 1}-${last} of ${results.total}`].join("\n")
}

export const searchCommand = Command.make(
  "search",
  {
    query: Args.text({ name: "QUERY" }).pipe(
      Args.withDescription(
        "Words (stemmed: acquired finds acquisition), \"quoted phrases\" a passage must hold, -excluded words, " +
          "OR between two. Example: filings search 'capital expenditure 2018' --tickers MMM"
      )
    ),
    tickers: optionalText("tickers", "TICKERS", "Only these companies, comma-separated. Example: --tickers AAPL,MSFT"),
    docTypes: optionalText("doc-types", "TYPES", "Only these forms, comma-separated. Example: --doc-types 10-K,10-Q"),
    section: optionalText("section", "SECTION", "Only this section, by name, item or alias. Example: --section 1A"),
    limit: Options.integer("limit").pipe(Options.withDescription("Results to show, 1 to 100"), Options.withDefault(10)),
    offset: Options.integer("offset").pipe(Options.withDescription("Results to skip"), Options.withDefault(0)),
    json: jsonOption
  },
  ({ docTypes, json, limit, offset, query, section, tickers }) =>
    Effect.gen(function*() {
      // The schema the server checks its query with, so both refuse the same input alike.
      const params = yield* Schema.decodeUnknown(Search.SearchParams)({
        q: query,
        ...Option.match(tickers, { onNone: () => ({}), onSome: (value) => ({ tickers: value }) }),
        ...Option.match(docTypes, { onNone: () => ({}), onSome: (value) => ({ doc_types: value }) }),
        ...Option.match(section, { onNone: () => ({}), onSome: (value) => ({ section: value }) }),
        limit: String(limit),
        offset: String(offset)
      }).pipe(Effect.mapError(fromParseError))
      const results = yield* (yield* Operator).search(params)
      yield* Output.result(json, Schema.encodeSync(Search.SearchResults)(results), () => human(results))
    })
).pipe(Command.withDescription("Search every stored passage; results best first, each citing its chunk"))
