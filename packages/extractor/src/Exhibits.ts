/**
 * Exhibit references of a filing: the exhibit index (Item 15 of a 10-K, Item 6 of a 10-Q,
 * Item 9.01 of an 8-K) joined with the exhibit documents of the submission, one per number,
 * ordered by number, each with the API path that serves it when the submission carries it.
 *
 * @module
 */
import { ExtractedValues } from "@filings/domain"
import type { ParsedDocument } from "@filings/filings-parser"
import { readExhibits } from "./internal/exhibits/readExhibits.js"

/**
 * An exhibit reference: number, description and the API path that serves it, or `null` when the
 * filing does not carry it. The one schema of `@filings/domain`'s `ExtractedValues.ExhibitReference`.
 */
export const ExhibitReference = ExtractedValues.ExhibitReference
export type ExhibitReference = ExtractedValues.ExhibitReference

/** The path that serves one exhibit of a publication. */
export const exhibitUrl = (publicationId: string, number: string): string =>
  `/v1/documents/${encodeURIComponent(publicationId)}?exhibit=${encodeURIComponent(number)}`

/**
 * The exhibit references of a parsed document published as `publicationId`. Without a publication
 * id no path can serve an exhibit, so every `url` is `null`.
 */
export const extractExhibits = (
  document: ParsedDocument.ParsedDocument,
  publicationId: string | undefined
): Array<ExhibitReference> => {
  // The exhibits stored with the filing are the submission's documents, under their own numbers.
  const carried = new Map(
    document.exhibits.map((exhibit) => [exhibit.exhibitNumber.toUpperCase(), exhibit.exhibitNumber])
  )
  return readExhibits(document).map(({ description, number }) => {
    const storedNumber = carried.get(number)
    return {
      number,
      description,
      url: storedNumber === undefined || publicationId === undefined ? null : exhibitUrl(publicationId, storedNumber)
    }
  })
}
