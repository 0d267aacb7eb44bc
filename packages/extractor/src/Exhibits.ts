/**
 * Exhibit references of a filing: the exhibit index (Item 15 of a 10-K, Item 6 of a 10-Q,
 * Item 9.01 of an 8-K) joined with the exhibit documents of the submission, one per number,
 * ordered by number, each with the API path that serves it when the submission carries it.
 */
import type { ParsedDocument } from "@filings/filings-parser"
import { Schema } from "effect"
import { readExhibits } from "./internal/exhibits/readExhibits.js"

export const ExhibitReference = Schema.Struct({
  /** `3.1`, `10.1`, `31.1`, `101`. */
  number: Schema.String,
  /** The index's description without footnote marks or `Filed herewith`; else the document's title. */
  description: Schema.String,
  /**
   * `/v1/documents/<publication_id>?exhibit=<number>` when the exhibit's document is part of the
   * submission (and so stored with the filing); `null` for an exhibit the index lists but the
   * filing does not carry: one incorporated by reference, exhibit 104 (inside the primary
   * document), or any exhibit of a filing read from its primary document alone.
   */
  url: Schema.NullOr(Schema.String)
})
export type ExhibitReference = typeof ExhibitReference.Type

/** The path that serves one exhibit of a publication. */
export const exhibitUrl = (publicationId: string, number: string): string =>
  `/v1/documents/${encodeURIComponent(publicationId)}?exhibit=${encodeURIComponent(number)}`

/** The exhibit references of a parsed document published as `publicationId`. */
export const extractExhibits = (
  document: ParsedDocument.ParsedDocument,
  publicationId: string
): Array<ExhibitReference> => {
  // The exhibits stored with the filing are the submission's documents, under their own numbers.
  const carried = new Map(document.exhibits.map((exhibit) => [exhibit.number.toUpperCase(), exhibit.number]))
  return readExhibits(document).map(({ description, number }) => {
    const storedNumber = carried.get(number)
    return {
      number,
      description,
      url: storedNumber === undefined ? null : exhibitUrl(publicationId, storedNumber)
    }
  })
}
