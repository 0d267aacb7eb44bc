/**
 * Stored documents in their API shapes: the list item, the single document for each `format`, and
 * one exhibit.
 */
import { Document } from "@filings/domain"
import type { DocumentStore } from "@filings/storage"

// Stored documents were validated when they were written, and the HTTP layer checks every response
// against its schema as it encodes it; validating again while building would only cost time.
const trusted = { disableValidation: true } as const

const metadataFields = (document: DocumentStore.DocumentMetadata) => ({
  publication_id: document.publicationId,
  ticker: document.ticker,
  company_name: document.companyName,
  cik: document.cik,
  doc_type: document.docType,
  title: document.title,
  filing_date: document.filingDate,
  period: document.period,
  sec_url: document.secUrl
})

export const toListItem = (document: DocumentStore.DocumentMetadata): Document.DocumentListItem =>
  new Document.DocumentListItem(
    { ...metadataFields(document), url: Document.documentPath(document.publicationId) },
    trusted
  )

export const toExhibit = (exhibit: DocumentStore.StoredExhibit): Document.DocumentExhibit =>
  new Document.DocumentExhibit({
    exhibit_number: exhibit.exhibitNumber,
    title: exhibit.title,
    content: exhibit.content
  })

export const toSection = (section: DocumentStore.StoredSection): Document.DocumentSection =>
  new Document.DocumentSection(
    { title: section.title, content: section.content, page_start: section.pageStart },
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
    ...metadataFields(document),
    word_count: document.wordCount,
    ...(format !== "metadata" && document.body !== undefined ? { body: document.body } : {}),
    ...(format === "sections" && document.sections !== undefined ? { sections: document.sections.map(toSection) } : {}),
    ...(includeExhibits && document.exhibits !== undefined ? { exhibits: document.exhibits.map(toExhibit) } : {})
  }, trusted)
