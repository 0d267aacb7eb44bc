// DocumentStore and CompanyStore on SQL. Metadata and body live in two tables written in one
// transaction; list queries read only the metadata table.
import { SqlClient } from "@effect/sql"
import type { Dates, DocType, Ids } from "@filings/domain"
import type { CompanyStore, DocumentStore } from "@filings/storage"
import { Array as Arr, Effect, Option } from "effect"
import { jsonb } from "./jsonb.js"
import { failsAs, writeFailsAs } from "./storageErrors.js"

export interface MetadataRow {
  readonly publication_id: string
  readonly ticker: string
  readonly company_name: string
  readonly cik: string
  readonly doc_type: string
  readonly title: string
  readonly filing_date: string
  readonly period: string
  readonly sec_url: string
  readonly word_count: number
  readonly items: ReadonlyArray<string>
}

interface DocumentRow extends MetadataRow {
  readonly body: string
  readonly exhibits: ReadonlyArray<DocumentStore.StoredExhibit>
}

interface SectionRow {
  readonly name: string
  readonly item: string | null
  readonly content: string
  readonly word_count: number
  readonly page_start: number
  readonly page_end: number
}

const toSection = (row: SectionRow): DocumentStore.StoredSection => ({
  title: row.name,
  ...(row.item === null ? {} : { item: row.item }),
  content: row.content,
  wordCount: row.word_count,
  pageStart: row.page_start,
  pageEnd: row.page_end
})

const sectionColumns = "name, item, content, word_count, page_start, page_end"

interface ChunkRow {
  readonly chunk_id: string
  readonly section: string | null
  readonly text: string
}

const toChunk = (row: ChunkRow): DocumentStore.StoredChunk => ({
  id: row.chunk_id,
  text: row.text,
  ...(row.section === null ? {} : { section: row.section })
})

/** Rows per INSERT of chunks: well under PostgreSQL's limit of bind parameters per statement. */
const chunkRowsPerInsert = 1_000

/**
 * The rows of a document's chunks: ranges of the body, in characters (code points, as SQL's
 * `substr` counts them), when the chunks joined with "\n" give the body; their own text otherwise.
 */
const chunkRows = (document: DocumentStore.StoredDocument) => {
  const isBodyCut = document.chunks.map((chunk) => chunk.text).join("\n") === document.body
  let start = 0
  return document.chunks.map((chunk, position) => {
    const length = isBodyCut ? Array.from(chunk.text).length : 0
    const row = {
      publication_id: document.publicationId,
      chunk_id: chunk.id,
      position,
      section: chunk.section ?? null,
      body_start: isBodyCut ? start : null,
      body_length: isBodyCut ? length : null,
      text: isBodyCut ? null : chunk.text
    }
    start += length + 1
    return row
  })
}

interface SectionHitRow {
  readonly section_name: string
  readonly section_item: string | null
  readonly section_content: string
  readonly section_word_count: number
  readonly section_page_start: number
  readonly section_page_end: number
}

// Rows were written from validated documents, so their values carry the domain's brands.
export const toMetadata = (row: MetadataRow): DocumentStore.DocumentMetadata => ({
  publicationId: row.publication_id as Ids.PublicationId,
  ticker: row.ticker as Ids.Ticker,
  companyName: row.company_name,
  cik: row.cik as Ids.Cik,
  docType: row.doc_type as DocType.DocType,
  title: row.title,
  filingDate: row.filing_date as Dates.IsoDate,
  period: row.period as Dates.Period,
  secUrl: row.sec_url,
  wordCount: row.word_count,
  items: row.items
})

export const makeDocumentStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const metadataColumns = sql`publication_id, ticker, company_name, cik, doc_type, title,
    filing_date::text AS filing_date, period, sec_url, word_count, items`

  const documentFilters = (
    query: Pick<DocumentStore.DocumentQuery, "tickers" | "docTypes" | "startDate" | "endDate">
  ) => [
    ...(query.tickers === undefined ? [] : [sql.in("ticker", query.tickers)]),
    ...(query.docTypes === undefined ? [] : [sql.in("doc_type", query.docTypes)]),
    ...(query.startDate === undefined ? [] : [sql`filing_date >= ${query.startDate}::date`]),
    ...(query.endDate === undefined ? [] : [sql`filing_date <= ${query.endDate}::date`])
  ]

  // A chunk's text: its own, or its range of the body.
  const chunkText = sql.literal("COALESCE(c.text, substr(b.body, c.body_start + 1, c.body_length))")

  const save = (document: DocumentStore.StoredDocument) =>
    sql.withTransaction(Effect.gen(function*() {
      const [written] = yield* sql<{ readonly inserted: boolean }>`
        INSERT INTO documents (publication_id, ticker, company_name, cik, doc_type, title, filing_date, period,
          sec_url, word_count, items)
        VALUES (${document.publicationId}, ${document.ticker}, ${document.companyName}, ${document.cik},
          ${document.docType}, ${document.title}, ${document.filingDate}, ${document.period}, ${document.secUrl},
          ${document.wordCount}, ${jsonb(document.items)}::jsonb)
        ON CONFLICT (publication_id) DO UPDATE SET
          ticker = excluded.ticker, company_name = excluded.company_name, cik = excluded.cik,
          doc_type = excluded.doc_type, title = excluded.title, filing_date = excluded.filing_date,
          period = excluded.period, sec_url = excluded.sec_url, word_count = excluded.word_count,
          items = excluded.items, updated_at = now()
        RETURNING (xmax = 0) AS inserted`
      yield* sql`
        INSERT INTO document_bodies (publication_id, body, exhibits)
        VALUES (${document.publicationId}, ${document.body}, ${jsonb(document.exhibits)}::jsonb)
        ON CONFLICT (publication_id) DO UPDATE SET body = excluded.body, exhibits = excluded.exhibits`
      yield* sql`DELETE FROM document_sections WHERE publication_id = ${document.publicationId}`
      if (document.sections.length > 0) {
        yield* sql`INSERT INTO document_sections ${
          sql.insert(document.sections.map((section, position) => ({
            publication_id: document.publicationId,
            position,
            name: section.title,
            item: section.item ?? null,
            content: section.content,
            word_count: section.wordCount,
            page_start: section.pageStart,
            page_end: section.pageEnd
          })))
        }`
      }
      yield* sql`DELETE FROM document_chunks WHERE publication_id = ${document.publicationId}`
      for (const rows of Arr.chunksOf(chunkRows(document), chunkRowsPerInsert)) {
        yield* sql`INSERT INTO document_chunks ${sql.insert(rows)}`
      }
      // xmax is 0 only on a row version this statement inserted; an update of a conflicting row sets it.
      return written?.inserted === true ? "created" as const : "updated" as const
    })).pipe(writeFailsAs("DocumentStore.save", `document ${document.publicationId}`))

  const findByPublicationId = (publicationId: Ids.PublicationId) =>
    Effect.gen(function*() {
      const [row] = yield* sql<DocumentRow>`
        SELECT ${metadataColumns}, b.body, b.exhibits
        FROM documents d JOIN document_bodies b USING (publication_id)
        WHERE publication_id = ${publicationId}`
      if (row === undefined) return Option.none()
      const sections = yield* sql<SectionRow>`
        SELECT ${sql.literal(sectionColumns)} FROM document_sections
        WHERE publication_id = ${publicationId} ORDER BY position`
      const chunks = yield* sql<ChunkRow>`
        SELECT c.chunk_id, c.section, ${chunkText} AS text
        FROM document_chunks c JOIN document_bodies b USING (publication_id)
        WHERE publication_id = ${publicationId} ORDER BY c.position`
      return Option.some<DocumentStore.StoredDocument>({
        ...toMetadata(row),
        body: row.body,
        sections: sections.map(toSection),
        exhibits: row.exhibits,
        chunks: chunks.map(toChunk)
      })
    }).pipe(failsAs("DocumentStore.findByPublicationId"))

  const findChunk = (publicationId: Ids.PublicationId, chunkId: string) =>
    sql<ChunkRow>`
      SELECT c.chunk_id, c.section, ${chunkText} AS text
      FROM document_chunks c JOIN document_bodies b USING (publication_id)
      WHERE publication_id = ${publicationId} AND c.chunk_id = ${chunkId}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toChunk)),
      failsAs("DocumentStore.findChunk")
    )

  const findMetadata = (publicationId: Ids.PublicationId) =>
    sql<MetadataRow>`SELECT ${metadataColumns} FROM documents WHERE publication_id = ${publicationId}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toMetadata)),
      failsAs("DocumentStore.findMetadata")
    )

  const list = (query: DocumentStore.DocumentQuery) =>
    Effect.gen(function*() {
      const filters = documentFilters(query)
      const where = filters.length === 0 ? sql.literal("TRUE") : sql.and(filters)
      const direction = sql.literal(query.order === "asc" ? "ASC" : "DESC")
      // One statement gives the page and the number of all matches ...
      const rows = yield* sql<MetadataRow & { readonly total: number }>`
        SELECT ${metadataColumns}, count(*) OVER ()::int AS total FROM documents WHERE ${where}
        ORDER BY filing_date ${direction}, publication_id ${direction}
        LIMIT ${query.limit} OFFSET ${query.offset}`
      if (rows[0] !== undefined) return { documents: rows.map(toMetadata), total: rows[0].total }
      // ... except past the last page, where there is no row to carry the count.
      const [counted] = query.offset === 0
        ? [{ total: 0 }]
        : yield* sql<{ readonly total: number }>`SELECT count(*)::int AS total FROM documents WHERE ${where}`
      return { documents: [], total: counted?.total ?? 0 }
    }).pipe(failsAs("DocumentStore.list"))

  const searchSections = (query: DocumentStore.SectionQuery) =>
    Effect.gen(function*() {
      const { items, names } = query.match
      if (items.length === 0 && names.length === 0) return { results: [], total: 0 }
      const wanted = sql.or([
        ...items.map(({ docType, item }) => sql`(d.doc_type = ${docType} AND s.item = ${item})`),
        ...(names.length === 0 ? [] : [sql`lower(s.name) IN ${sql.in(names.map((name) => name.toLowerCase()))}`])
      ])
      const where = sql.and([...documentFilters(query), wanted])
      // Both tables have a word count: the section's columns are read under names of their own.
      const rows = yield* sql<MetadataRow & SectionHitRow & { readonly total: number }>`
        SELECT d.publication_id, d.ticker, d.company_name, d.cik, d.doc_type, d.title,
          d.filing_date::text AS filing_date, d.period, d.sec_url, d.word_count, d.items,
          s.name AS section_name, s.item AS section_item, s.content AS section_content,
          s.word_count AS section_word_count, s.page_start AS section_page_start, s.page_end AS section_page_end,
          count(*) OVER ()::int AS total
        FROM document_sections s JOIN documents d USING (publication_id)
        WHERE ${where}
        ORDER BY d.filing_date DESC, d.publication_id DESC, s.position
        LIMIT ${query.limit} OFFSET ${query.offset}`
      if (rows[0] === undefined && query.offset > 0) {
        const [counted] = yield* sql<{ readonly total: number }>`
          SELECT count(*)::int AS total FROM document_sections s JOIN documents d USING (publication_id) WHERE ${where}`
        return { results: [], total: counted?.total ?? 0 }
      }
      return {
        results: rows.map((row) => ({
          document: toMetadata(row),
          section: toSection({
            name: row.section_name,
            item: row.section_item,
            content: row.section_content,
            word_count: row.section_word_count,
            page_start: row.section_page_start,
            page_end: row.section_page_end
          })
        })),
        total: rows[0]?.total ?? 0
      }
    }).pipe(failsAs("DocumentStore.searchSections"))

  const service: DocumentStore.Service = { save, findByPublicationId, findChunk, findMetadata, list, searchSections }
  return service
})

interface CompanyRow {
  readonly cik: string
  readonly ticker: string
  readonly name: string
  readonly as_of: string | null
}

const toCompany = (row: CompanyRow): CompanyStore.Company => ({
  cik: row.cik as Ids.Cik,
  ticker: row.ticker as Ids.Ticker,
  name: row.name,
  ...(row.as_of === null ? {} : { asOf: row.as_of })
})

export const makeCompanyStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const companyColumns = sql.unsafe("cik, ticker, name, as_of::text AS as_of")
  const service: CompanyStore.Service = {
    upsert: (company) =>
      // The same rule as `CompanyStore.supersedes`, in one statement so concurrent ingestions agree.
      sql`
        INSERT INTO companies (cik, ticker, name, as_of)
        VALUES (${company.cik}, ${company.ticker}, ${company.name}, ${company.asOf ?? null}::date)
        ON CONFLICT (cik) DO UPDATE SET ticker = excluded.ticker, name = excluded.name, as_of = excluded.as_of,
          updated_at = now()
        WHERE companies.as_of IS NULL OR excluded.as_of >= companies.as_of`.pipe(
        Effect.asVoid,
        failsAs("CompanyStore.upsert")
      ),
    findByCik: (cik) =>
      sql<CompanyRow>`SELECT ${companyColumns} FROM companies WHERE cik = ${cik}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCompany)),
        failsAs("CompanyStore.findByCik")
      ),
    findByTicker: (ticker) =>
      sql<CompanyRow>`
        SELECT ${companyColumns} FROM companies WHERE ticker = ${ticker} ORDER BY updated_at DESC LIMIT 1`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toCompany)),
        failsAs("CompanyStore.findByTicker")
      )
  }
  return service
})
