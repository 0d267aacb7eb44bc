/**
 * `filings ingest PATH...`: parses local filings (HTML or inline XBRL documents, full EDGAR
 * submissions `.txt`, PDFs, transcripts) into Markdown and stores them. A folder stands for the
 * files in it; `--manifest` names files with their metadata. Each file's result is printed as it
 * finishes (with an `n/N` progress line on a terminal's standard error) and a summary at the end. A
 * file that cannot be read or parsed, or whose metadata contradicts the options, is reported and
 * skipped; the others are still stored, and the command exits with status 1.
 */
import { Args, Command, Options } from "@effect/cli"
import { Admin, DocType } from "@filings/domain"
import { Effect, Either, Option, Schema } from "effect"
import { CliFailure, fromParseError } from "./CliFailure.js"
import * as IngestBatch from "./IngestBatch.js"
import { Operator } from "./Operator.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const text = (name: string, pseudoName: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudoName), Options.withDescription(description), Options.optional)

const metadataOptions = {
  ticker: text(
    "ticker",
    "TICKER",
    "The company's ticker symbol, for files that do not say it (a transcript, a release, an old filing). " +
      "A file that names another ticker is refused. Example: --ticker AAPL"
  ),
  cik: text(
    "cik",
    "CIK",
    "The company's central index key at the SEC, with or without leading zeros. A file filed by another " +
      "company is refused. Example: --cik 320193"
  ),
  companyName: text(
    "company-name",
    "NAME",
    "The company's name, for a transcript or release of a company not stored yet. Example: --company-name \"Apple Inc.\""
  ),
  form: Options.text("form").pipe(
    Options.withAlias("type"),
    Options.withPseudoName("TYPE"),
    Options.withDescription(
      `The document type, when the file does not say it: ${DocType.DocumentTypes.join(", ")}. ` +
        "Example: --type EARNINGS_CALL"
    ),
    Options.optional
  ),
  accession: text(
    "accession",
    "NUMBER",
    "The filing's accession number, for one bare document (a full .txt submission says it). " +
      "Example: --accession 0000320193-24-000123"
  ),
  filingDate: text(
    "filing-date",
    "DATE",
    "The filing date (for a transcript, the call's date), YYYY-MM-DD. Example: --filing-date 2024-11-01"
  )
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

const pathsArgument = Args.path({ name: "PATH" }).pipe(
  Args.withDescription(
    "A filing to store, or a folder whose files are all stored (by name, hidden files left out). " +
      "Example: filings ingest filings/ aapl-10k.htm"
  ),
  Args.repeated
)

const manifestOption = Options.file("manifest").pipe(
  Options.withPseudoName("FILE.csv"),
  Options.withDescription(
    `A CSV file naming files with their metadata, one a line, under the header ${
      IngestBatch.manifestColumns.join(",")
    }; files are relative to the manifest's folder. A bare .htm needs accession and filing_date. ` +
      "Every missing or invalid field is reported before anything is stored. Example: --manifest filings.csv"
  ),
  Options.optional
)

type Outcome = { readonly file: string; readonly outcome: Either.Either<Admin.IngestResult, CliFailure> }

const resultLine = ({ file, outcome }: Outcome): string =>
  Either.match(outcome, {
    onLeft: (error) => `skipped ${file}: ${error.message}`,
    onRight: (result) =>
      `${result.status} ${result.publication_id} ${result.ticker} ${result.doc_type} ${result.filing_date} ` +
      `(${result.word_count} words) from ${file}`
  })

export const ingestCommand = Command.make(
  "ingest",
  { paths: pathsArgument, manifest: manifestOption, ...metadataOptions, json: jsonOption },
  ({ json, manifest, paths, ...options }) =>
    Effect.gen(function*() {
      const metadata = yield* decodeMetadata(options)
      const named = yield* IngestBatch.expandPaths(paths)
      const listed = Option.isSome(manifest) ? yield* IngestBatch.readManifest(manifest.value) : []
      // A manifest row's values go before the options'.
      const batch = [
        ...named.map((file) => ({ file, metadata })),
        ...listed.map((entry) => ({ file: entry.file, metadata: { ...metadata, ...entry.metadata } }))
      ]
      if (batch.length === 0) {
        return yield* new CliFailure({ message: "name the files to store, a folder, or --manifest FILE.csv" })
      }
      if (batch.length > 1 && metadata.accession !== undefined) {
        return yield* new CliFailure({ message: "--accession names one filing, so give it with one file only" })
      }
      const operator = yield* Operator
      const outcomes: Array<Outcome> = []
      for (const [index, entry] of batch.entries()) {
        yield* Output.terminalProgress(`${index + 1}/${batch.length} ${entry.file}`)
        const outcome = {
          file: entry.file,
          outcome: yield* Effect.either(operator.ingestFile(entry.file, entry.metadata))
        }
        outcomes.push(outcome)
        if (!json) yield* Output.terminalProgress("").pipe(Effect.zipRight(Output.lines(resultLine(outcome))))
      }
      yield* Output.terminalProgress("")
      const failed = outcomes.filter(({ outcome }) => Either.isLeft(outcome)).length
      const summary = `${outcomes.length - failed} stored, ${failed} skipped (via ${operator.description})`
      if (json) {
        yield* Output.json({
          stored: outcomes.length - failed,
          failed,
          results: outcomes.map(({ file, outcome }) =>
            Either.match(outcome, {
              onLeft: (error) => ({ file, error: error.message }),
              onRight: (result) => ({ file, ...result })
            })
          )
        })
      } else yield* Output.lines(summary)
      if (failed > 0) {
        return yield* new CliFailure({ message: `${failed} of ${outcomes.length} files could not be ingested` })
      }
    })
).pipe(Command.withDescription(
  "Parse local filings into Markdown and store them. Examples: filings ingest aapl-10q.txt; " +
    "filings ingest filings/; filings ingest --manifest filings.csv; " +
    "filings ingest call.txt --type EARNINGS_CALL --ticker AAPL --filing-date 2024-10-31"
))
