/**
 * `filings ingest FILE...`: parses local filings (HTML or inline XBRL documents, or full EDGAR
 * submissions `.txt`) into Markdown and stores them. A file that cannot be read or parsed is
 * reported and skipped; the others are still stored, and the command exits with status 1.
 */
import { Args, Command, Options } from "@effect/cli"
import { Admin } from "@filings/domain"
import { Effect, Either, Option, Schema } from "effect"
import { CliFailure, fromParseError } from "./CliFailure.js"
import { Operator } from "./Operator.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const text = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)

const metadataOptions = {
  ticker: text("ticker", "ticker symbol, when the file does not say it"),
  cik: text("cik", "central index key of the company"),
  companyName: text("company-name", "company name"),
  form: Options.text("form").pipe(
    Options.withAlias("type"),
    Options.withDescription("document type: 10-K, 10-Q, 8-K, S-1, 6-K, 20-F, DEF 14A or EARNINGS_CALL (also --type)"),
    Options.optional
  ),
  accession: text("accession", "accession number, 0000000000-00-000000 (one file only)"),
  filingDate: text("filing-date", "filing date, YYYY-MM-DD")
}

type MetadataOptions = { readonly [K in keyof typeof metadataOptions]: Option.Option<string> }

/** Checks the options with the schema the server uses, so both reject the same input the same way. */
const decodeMetadata = (options: MetadataOptions) =>
  Schema.decodeUnknown(Admin.IngestMetadata)({
    ...Option.match(options.ticker, { onNone: () => ({}), onSome: (ticker) => ({ ticker }) }),
    ...Option.match(options.cik, { onNone: () => ({}), onSome: (cik) => ({ cik }) }),
    ...Option.match(options.companyName, { onNone: () => ({}), onSome: (company_name) => ({ company_name }) }),
    ...Option.match(options.form, { onNone: () => ({}), onSome: (form) => ({ form }) }),
    ...Option.match(options.accession, { onNone: () => ({}), onSome: (accession) => ({ accession }) }),
    ...Option.match(options.filingDate, { onNone: () => ({}), onSome: (filing_date) => ({ filing_date }) })
  }).pipe(Effect.mapError(fromParseError))

export const ingestCommand = Command.make(
  "ingest",
  {
    files: Args.file({ name: "FILE" }).pipe(Args.atLeast(1)),
    ...metadataOptions,
    json: jsonOption
  },
  ({ files, json, ...options }) =>
    Effect.gen(function*() {
      const metadata = yield* decodeMetadata(options)
      if (files.length > 1 && metadata.accession !== undefined) {
        return yield* new CliFailure({ message: "--accession names one filing, so give it with one file only" })
      }
      const operator = yield* Operator
      const outcomes = yield* Effect.forEach(files, (file) =>
        Effect.either(operator.ingestFile(file, metadata)).pipe(
          Effect.map((outcome) => ({ file, outcome }))
        ))
      const failed = outcomes.filter(({ outcome }) => Either.isLeft(outcome)).length
      yield* Output.result(
        json,
        {
          stored: outcomes.length - failed,
          failed,
          results: outcomes.map(({ file, outcome }) =>
            Either.match(outcome, {
              onLeft: (error) => ({ file, error: error.message }),
              onRight: (result) => ({ file, ...result })
            })
          )
        },
        () =>
          [
            ...outcomes.map(({ file, outcome }) =>
              Either.match(outcome, {
                onLeft: (error) => `skipped ${file}: ${error.message}`,
                onRight: (result) =>
                  `${result.status} ${result.publication_id} ${result.ticker} ${result.doc_type} ${result.filing_date} ` +
                  `(${result.word_count} words) from ${file}`
              })
            ),
            `${outcomes.length - failed} stored, ${failed} skipped (via ${operator.description})`
          ].join("\n")
      )
      if (failed > 0) {
        return yield* new CliFailure({ message: `${failed} of ${outcomes.length} files could not be ingested` })
      }
    })
).pipe(Command.withDescription("Parse local filings into Markdown and store them"))
