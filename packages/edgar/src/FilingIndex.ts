/**
 * A filing's folder in the EDGAR archive: where it lives (`/Archives/edgar/data/<cik>/<accession>/`),
 * its complete submission text file, and the list of files EDGAR serves as the folder's `index.json`.
 *
 * The path helpers take validated identifiers (the branded `Ids.Cik` and `AccessionNumber`) instead of
 * any string, so they are total: a malformed number is caught once, where it enters the program
 * (`parseAccessionNumber`, `Ids.normalizeCik` or the readers of this package, which return both
 * brands), and a path can never be built from it.
 *
 * @module
 */
import type { Ids } from "@filings/domain"
import { Effect, Option, Schema } from "effect"
import { decodeJsonResponse, type UnreadableResponse } from "./EdgarResponseError.js"

/**
 * An accession number exactly as EDGAR writes it, `0000320193-24-000123`: the filer agent's CIK, the
 * year and a sequence. Unlike `Ids.PublicationId` it never carries an exhibit suffix, since it names a
 * folder of the archive.
 */
export const AccessionNumber = Schema.String.pipe(
  Schema.pattern(/^\d{10}-\d{2}-\d{6}$/, {
    message: (issue) =>
      `must be an accession number of the form 0000000000-00-000000, got ${JSON.stringify(issue.actual)}`
  }),
  Schema.brand("AccessionNumber"),
  Schema.annotations({ identifier: "AccessionNumber", description: "EDGAR accession number, 0000320193-24-000123" })
)
export type AccessionNumber = typeof AccessionNumber.Type

/**
 * Reads an accession number written with dashes (`0000320193-24-000123`) or, as in archive folder
 * names, without them (`000032019324000123`).
 */
export const parseAccessionNumber = (text: string): Option.Option<AccessionNumber> => {
  const trimmed = text.trim()
  const dashed = /^\d{18}$/.test(trimmed)
    ? `${trimmed.slice(0, 10)}-${trimmed.slice(10, 12)}-${trimmed.slice(12)}`
    : trimmed
  return Schema.is(AccessionNumber)(dashed) ? Option.some(dashed) : Option.none()
}

// The archive names a company's folder by its CIK without the leading zeros.
const cikFolder = (cik: Ids.Cik): string => cik.replace(/^0+(?=\d)/, "")

/** `/Archives/edgar/data/320193/000032019324000123/`: the folder of one filing. */
export const archiveFolderPath = (cik: Ids.Cik, accessionNumber: AccessionNumber): string =>
  `/Archives/edgar/data/${cikFolder(cik)}/${accessionNumber.replaceAll("-", "")}/`

/** The complete submission text file: every document of the filing in one SGML file. */
export const submissionTextPath = (cik: Ids.Cik, accessionNumber: AccessionNumber): string =>
  `${archiveFolderPath(cik, accessionNumber)}${accessionNumber}.txt`

/** The folder's list of files as JSON. */
export const indexJsonPath = (cik: Ids.Cik, accessionNumber: AccessionNumber): string =>
  `${archiveFolderPath(cik, accessionNumber)}index.json`

/** One file of a filing's folder. */
export interface IndexFile {
  readonly name: string
  /** In bytes; EDGAR leaves it blank for the index pages and the submission text file it generates. */
  readonly size?: number | undefined
  /** As EDGAR writes it, `2024-01-19 16:21:45`: US Eastern time without an offset. */
  readonly lastModified?: string | undefined
}

const IndexJson = Schema.Struct({
  directory: Schema.Struct({ item: Schema.Array(Schema.Unknown) })
})

// Items are read one by one so that one odd row does not cost the whole listing.
const IndexItem = Schema.Struct({
  name: Schema.NonEmptyString,
  size: Schema.optional(Schema.Union(Schema.String, Schema.Number, Schema.Null)),
  "last-modified": Schema.optional(Schema.Union(Schema.String, Schema.Null))
})
const decodeIndexItem = Schema.decodeUnknownOption(IndexItem)

const sizeOf = (size: string | number | null | undefined): number | undefined => {
  if (typeof size === "number") return Number.isSafeInteger(size) && size >= 0 ? size : undefined
  return typeof size === "string" && /^\d{1,15}$/.test(size.trim()) ? Number(size.trim()) : undefined
}

/** A folder's files, and what was skipped on the way. */
export interface FilingIndex {
  /** In EDGAR's order. */
  readonly files: ReadonlyArray<IndexFile>
  /** One line per item skipped, as data: the listing is still usable. */
  readonly warnings: ReadonlyArray<string>
}

const decodeIndexJson = decodeJsonResponse("the filing index", IndexJson)

/** An item as a reader of the warnings can recognise it, cut short when long. */
const describeItem = (item: unknown): string => {
  const text = JSON.stringify(item) ?? String(item)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

/**
 * Reads a filing folder's `index.json` into its files, in EDGAR's order. An item without a name is
 * skipped with a warning; JSON of another shape (or an HTML error page) fails with `UnreadableResponse`.
 */
export const readFilingIndex = (json: string): Effect.Effect<FilingIndex, UnreadableResponse> =>
  Effect.suspend(() =>
    Effect.map(decodeIndexJson(json), (index) => {
      const files: Array<IndexFile> = []
      const warnings: Array<string> = []
      index.directory.item.forEach((item, position) => {
        const file = decodeIndexItem(item)
        if (Option.isNone(file)) {
          warnings.push(`item ${position + 1} skipped: it has no name (${describeItem(item)})`)
          return
        }
        const size = sizeOf(file.value.size)
        const lastModified = file.value["last-modified"]?.trim()
        files.push({
          name: file.value.name,
          ...(size === undefined ? {} : { size }),
          ...(lastModified ? { lastModified } : {})
        })
      })
      return { files, warnings }
    })
  )
