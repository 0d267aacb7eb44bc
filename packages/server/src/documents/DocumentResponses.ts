/**
 * Stored documents in their API shapes: the list item, the single document for each `format`, and
 * one exhibit.
 */
import { Document } from "@filings/domain"
import type { DocumentStore } from "@filings/storage"
import { Struct } from "effect"

// Stored documents were validated when they were written, and the HTTP layer checks every response
// against its schema as it encodes it; validating again while building would only cost time.
const trusted = { disableValidation: true } as const

// The metadata a list item serves: every field of the stored metadata but the word count and the 8-K items.
const listedKeys = Object.keys(Document.DocumentMetadata.omit("wordCount", "items").fields) as ReadonlyArray<
  Exclude<keyof DocumentStore.DocumentMetadata, "wordCount" | "items">
>
const listedFields = (document: DocumentStore.DocumentMetadata) => Struct.pick(document, ...listedKeys)

export const toListItem = (document: DocumentStore.DocumentMetadata): Document.DocumentListItem =>
  new Document.DocumentListItem(
    { ...listedFields(document), url: Document.documentPath(document.publicationId) },
    trusted
  )

export const toExhibit = (exhibit: DocumentStore.StoredExhibit): Document.DocumentExhibit =>
  new Document.DocumentExhibit(exhibit)

export const toSection = (section: DocumentStore.StoredSection): Document.DocumentSection =>
  new Document.DocumentSection(
    { title: section.title, content: section.content, pageStart: section.pageStart },
    trusted
  )

/**
 * The single-document response. `body` is present unless the format is `metadata` (the spec omits
 * it only there); `sections` only for `format=sections`; `exhibits` only when asked for.
 */
export const toDocument = (
  document: DocumentStore.DocumentMetadata & Partial<DocumentStore.StoredDocument>,
  format: Document.DocumentFormat,
  includeExhibits: boolean
): Document.Document =>
  new Document.Document({
    ...listedFields(document),
    wordCount: document.wordCount,
    ...(format !== "metadata" && document.body !== undefined ? { body: document.body } : {}),
    ...(format === "sections" && document.sections !== undefined ? { sections: document.sections.map(toSection) } : {}),
    ...(includeExhibits && document.exhibits !== undefined ? { exhibits: document.exhibits.map(toExhibit) } : {})
  }, trusted)
