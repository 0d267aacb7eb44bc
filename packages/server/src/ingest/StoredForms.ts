/**
 * How parsed documents and extractions are written to storage: the regulator's archive address of
 * a document, its sections, exhibits, chunks and 8-K items, and the extractor's output in the
 * extraction store's shape.
 */
import { type Blocks, Dates, Document, type Ids } from "@filings/domain"
import type { Extractor } from "@filings/extractor"
import { type ParsedDocument, SectionQuery } from "@filings/filings-parser"
import type { DocumentStore, ExtractionStore } from "@filings/storage"
import { Effect, Schema, Struct } from "effect"
import { DocumentSink, type StoreRequest } from "./DocumentSink.js"

export const secUrl = (cik: Ids.Cik, accession: Ids.PublicationId, primaryFileName: string): string =>
  `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, "")}/${
    encodeURIComponent(primaryFileName)
  }`

/** The filing's index page in the regulator's archive (`.../<accession>-index.htm`), which lists its documents. */
export const filingIndexUrl = (cik: Ids.Cik, accession: Ids.PublicationId): string =>
  `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, "")}/${accession}-index.htm`

/**
 * A filing's address in the regulator's archive: its primary document when its submission names it,
 * else its index page. Never the name of the file that was ingested, which may be anyone's.
 */
export const filingSecUrl = (cik: Ids.Cik, accession: Ids.PublicationId, primaryFileName: string | undefined): string =>
  primaryFileName === undefined ? filingIndexUrl(cik, accession) : secUrl(cik, accession, primaryFileName)

const isIsoDate = Schema.is(Dates.IsoDate)

/**
 * The extractor's output as the extraction store keeps it: the same shapes, the metrics keyed by
 * name. A value the stored form does not take is left out rather than stored: an `asOf` that is
 * not a calendar date.
 */
export const toStoredExtraction = (extraction: Extractor.ExtractionOutput): ExtractionStore.StoredExtraction => ({
  metrics: Object.entries(extraction.metrics).flatMap(([name, metric]) => {
    if (metric === undefined) return []
    const { asOf, ...value } = metric
    return [{ name, ...value, ...(asOf !== undefined && isIsoDate(asOf) ? { asOf } : {}) }]
  }),
  tables: extraction.tables,
  exhibits: extraction.exhibits,
  ...(extraction.signatures !== undefined ? { signatures: extraction.signatures } : {}),
  warnings: extraction.warnings
})

// The parser's sections and exhibits are the stored ones with their parse detail (an exhibit's
// blocks): the store keeps the fields of the domain schemas they are built from, and no more.
const sectionKeys = Struct.keys(Document.LabeledSection.fields)
const exhibitKeys = Struct.keys(Document.Exhibit.fields)

/** The parser's sections as the document store keeps them: with their block ranges, which `Document.sectionBlocks` reads. */
export const storedSections = (parsed: ParsedDocument.ParsedDocument): ReadonlyArray<DocumentStore.StoredSection> =>
  parsed.sections.map((section) => Struct.pick(section, ...sectionKeys))

/** The parser's exhibits as the document store keeps them: without their blocks, file name and word count. */
export const storedExhibits = (parsed: ParsedDocument.ParsedDocument): ReadonlyArray<DocumentStore.StoredExhibit> =>
  parsed.exhibits.map((exhibit) => Struct.pick(exhibit, ...exhibitKeys))

/**
 * A block as a stored chunk keeps it: without the ids of the XBRL facts it tags, which locate facts
 * at ingest; a chunk's readers (chat, the summarizer) do not read them.
 */
const storedBlock = (block: Blocks.Block): Blocks.Block => {
  switch (block.kind) {
    case "heading":
    case "paragraph": {
      if (block.factIds === undefined) return block
      const { factIds: _factIds, ...rest } = block
      return rest
    }
    case "list":
      return block.items.some((item) => item.factIds !== undefined)
        ? { ...block, items: block.items.map(({ factIds: _factIds, ...item }) => item) }
        : block
    case "table": {
      if (block.cellFacts === undefined) return block
      const { cellFacts: _cellFacts, ...rest } = block
      return rest
    }
    default:
      return block
  }
}

/** The parser's chunks as the document store keeps them, each with its blocks: what feed highlights cite. */
export const storedChunks = (parsed: ParsedDocument.ParsedDocument): ReadonlyArray<DocumentStore.StoredChunk> =>
  parsed.chunks.map((chunk) => ({
    id: chunk.id,
    text: chunk.text,
    ...(chunk.section === undefined ? {} : { section: chunk.section }),
    pageStart: chunk.pageStart,
    pageEnd: chunk.pageEnd,
    blocks: parsed.blocks.slice(chunk.blockRange.start, chunk.blockRange.end).map(storedBlock)
  }))

/** What a stored document keeps of its parse: the Markdown body, its size, sections and chunks. */
export const storedContent = (parsed: ParsedDocument.ParsedDocument) => ({
  wordCount: parsed.wordCount,
  body: parsed.markdown,
  sections: storedSections(parsed),
  chunks: storedChunks(parsed)
})

/** The items an 8-K reports, `Item 2.02` style: from the header's list, else from the sections found. */
export const eightKItems = (parsed: ParsedDocument.ParsedDocument): ReadonlyArray<string> => {
  const fromHeader = (parsed.header?.items ?? []).flatMap((title) => {
    const number = SectionQuery.eightKItemForTitle(title)
    return number === undefined ? [] : [`Item ${number}`]
  })
  if (fromHeader.length > 0) return fromHeader
  return parsed.sections.flatMap((section) =>
    section.item !== undefined && /^\d\.\d{2}$/.test(section.item) ? [`Item ${section.item}`] : []
  )
}

/**
 * A document made of one of a filing's exhibits (a press release, a presentation): the filing's
 * company and date, its own period when it states one (a release of results) else the filing's,
 * the exhibit's own body, sections and chunks, its own archive address.
 */
export const exhibitDocument = (
  filing: DocumentStore.DocumentMetadata,
  exhibit: {
    readonly publicationId: Ids.PublicationId
    readonly docType: DocumentStore.DocumentMetadata["docType"]
    readonly title: string
    readonly fileName?: string | undefined
    readonly period?: Dates.Period | undefined
  },
  parsed: ParsedDocument.ParsedDocument
): DocumentStore.StoredDocument => ({
  publicationId: exhibit.publicationId,
  ticker: filing.ticker,
  companyName: filing.companyName,
  cik: filing.cik,
  docType: exhibit.docType,
  title: exhibit.title,
  filingDate: filing.filingDate,
  period: exhibit.period ?? filing.period,
  secUrl: exhibit.fileName === undefined ? filing.secUrl : secUrl(filing.cik, filing.publicationId, exhibit.fileName),
  items: [],
  exhibits: [],
  ...storedContent(parsed)
})

/**
 * Stores a document made of a filing's exhibit through the sink. Like an unreadable exhibit, one the
 * store refuses for its data is left out with a warning, and the filing itself is still stored:
 * whether it was stored.
 */
export const storeExhibitDocument = (
  filing: DocumentStore.DocumentMetadata,
  exhibitNumber: string,
  request: StoreRequest
) =>
  Effect.flatMap(DocumentSink, (sink) =>
    sink.store(request).pipe(
      Effect.as(true),
      Effect.catchTag("UnstorableValue", (refused) =>
        Effect.as(
          Effect.logWarning(`${filing.publicationId}: exhibit ${exhibitNumber} left out: ${refused.message}`),
          false
        ))
    ))
