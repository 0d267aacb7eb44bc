// DocumentStore and CompanyStore on SQL. Metadata and body live in two tables written in one
// transaction; list queries read only the metadata table.
import { SqlClient } from "@effect/sql"
import type { Ids } from "@filings/domain"
import { CompanyStore, DocumentStore } from "@filings/storage"
import { Effect, Option, Schema } from "effect"
import { jsonb } from "./jsonb.js"
import { Counted, firstRowAs, hitsPage, inDocumentOrder, pageOf, readTotal, rowsAs } from "./sqlRows.js"
import { analyzePassage, applyFrequencyChanges, FrequencyChanges, storedFrequencies } from "./sqlSearchWrites.js"
import { failsAs, writeFailsAs } from "./storageErrors.js"

/** A document with its body: the metadata's columns, the body, and the exhibits' JSON (stored camelCase). */
const DocumentRow = Schema.Struct({
  ...DocumentStore.DocumentMetadata.fields,
  body: Schema.String,
  exhibits: Schema.Array(Schema.typeSchema(DocumentStore.StoredExhibit))
})

const sectionColumns = "name AS title, item, content, word_count, page_start, page_end"

// The section's columns as one JSON object, for a search that reads it beside its document's
// columns (both have a word count).
const sectionObject = `jsonb_build_object('title', s.name, 'item', s.item, 'content', s.content,
  'word_count', s.word_count, 'page_start', s.page_start, 'page_end', s.page_end)`

/** A page of a document list: each document's metadata with the number of every match. */
const readListPage = rowsAs(Counted(DocumentStore.DocumentMetadata.fields))
const readChunks = rowsAs(DocumentStore.StoredChunk)
const readDocumentRow = firstRowAs(DocumentRow)
const readMetadataRow = firstRowAs(DocumentStore.DocumentMetadata)
const readMetadataRows = rowsAs(DocumentStore.DocumentMetadata)
const readCompany = firstRowAs(CompanyStore.Company)

/**
 * The rows of a document's chunks: ranges of the body, in characters (code points, as SQL's
 * `substr` counts them), when the chunks joined with "\n" give the body; their own text otherwise.
 * Each with its pages and its search terms, which are counted into `changes`.
 */
const chunkRows = (document: DocumentStore.StoredDocument, changes: FrequencyChanges) => {
  const isBodyCut = document.chunks.map((chunk) => chunk.text).join("\n") === document.body
  let start = 0
  return document.chunks.map((chunk, position) => {
    const length = isBodyCut ? Array.from(chunk.text).length : 0
    const analyzed = analyzePassage({ ...contextOf(document), section: chunk.section }, chunk.text)
    changes.add(analyzed, 1)
    const row = {
      chunk_id: chunk.id,
      position,
      section: chunk.section ?? null,
      body_start: isBodyCut ? start : null,
      body_length: isBodyCut ? length : null,
      text: isBodyCut ? null : chunk.text,
      page_start: chunk.pageStart,
      page_end: chunk.pageEnd,
      terms: analyzed.vector,
      term_count: analyzed.termCount
    }
    start += length + 1
    return row
  })
}

const contextOf = (document: DocumentStore.StoredDocument) => ({
  ticker: document.ticker,
  companyName: document.companyName,
  docType: document.docType
})

export const makeDocumentStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const metadataColumns = sql`publication_id, ticker, company_name, cik, doc_type, title,
    filing_date::text AS filing_date, period, sec_url, word_count, items`

  // A chunk's text: its own, or its range of the body.
  const chunkText = sql.literal("COALESCE(c.text, substr(b.body, c.body_start + 1, c.body_length))")

  const findDocumentRow = (publicationId: Ids.PublicationId) =>
    sql`
      SELECT ${metadataColumns}, b.body, b.exhibits
      FROM documents d JOIN document_bodies b USING (publication_id)
      WHERE publication_id = ${publicationId}`.pipe(readDocumentRow)
  const findSections = inDocumentOrder(sql, DocumentStore.StoredSection, {
    table: "document_sections",
    columns: sectionColumns
  })
  const findChunks = (publicationId: Ids.PublicationId, chunkId?: string) =>
    sql`
      SELECT c.chunk_id AS id, c.section, ${chunkText} AS text, c.page_start, c.page_end
      FROM document_chunks c JOIN document_bodies b USING (publication_id)
      WHERE publication_id = ${publicationId}${chunkId === undefined ? sql`` : sql` AND c.chunk_id = ${chunkId}`}
      ORDER BY c.position`.pipe(readChunks)
  const sectionHits = hitsPage(sql, DocumentStore.StoredSection, {
    table: "document_sections",
    alias: "s",
    hit: sectionObject
  })
  const findMetadataRow = (publicationId: Ids.PublicationId) =>
    sql`SELECT ${metadataColumns} FROM documents WHERE publication_id = ${publicationId}`.pipe(readMetadataRow)

  const documentFilters = (
    query: DocumentStore.DocumentFilters
  ) => [
    ...(query.tickers === undefined ? [] : [sql.in("ticker", query.tickers)]),
    ...(query.docTypes === undefined ? [] : [sql.in("doc_type", query.docTypes)]),
    ...(query.startDate === undefined ? [] : [sql`filing_date >= ${query.startDate}::date`]),
    ...(query.endDate === undefined ? [] : [sql`filing_date <= ${query.endDate}::date`])
  ]

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
      // The search index's counts: the new passages in, the ones they replace out.
      const changes = new FrequencyChanges()
      if (written?.inserted !== true) changes.remove(yield* storedFrequencies(sql, document.publicationId))
      yield* sql`DELETE FROM document_chunks WHERE publication_id = ${document.publicationId}`
      const rows = chunkRows(document, changes)
      if (rows.length > 0) {
        yield* sql`
          INSERT INTO document_chunks (publication_id, chunk_id, position, section, body_start, body_length, text,
            page_start, page_end, terms, term_count)
          SELECT ${document.publicationId}, r.chunk_id, r.position, r.section, r.body_start, r.body_length, r.text,
            r.page_start, r.page_end, r.terms::tsvector, r.term_count
          FROM jsonb_to_recordset(${jsonb(rows)}::jsonb) AS r(chunk_id text, position int, section text,
            body_start int, body_length int, text text, page_start int, page_end int, terms text, term_count int)`
      }
      yield* applyFrequencyChanges(sql, changes)
      // xmax is 0 only on a row version this statement inserted; an update of a conflicting row sets it.
      return written?.inserted === true ? "created" as const : "updated" as const
    })).pipe(writeFailsAs("DocumentStore.save", `document ${document.publicationId}`))

  const findByPublicationId = (publicationId: Ids.PublicationId) =>
    Effect.gen(function*() {
      const document = yield* findDocumentRow(publicationId)
      if (Option.isNone(document)) return Option.none()
      const sections = yield* findSections(publicationId)
      const chunks = yield* findChunks(publicationId)
      return Option.some<DocumentStore.StoredDocument>({ ...document.value, sections, chunks })
    }).pipe(failsAs("DocumentStore.findByPublicationId"))

  const findChunk = (publicationId: Ids.PublicationId, chunkId: string) =>
    findChunks(publicationId, chunkId).pipe(
      Effect.map((chunks) => Option.fromNullable(chunks[0])),
      failsAs("DocumentStore.findChunk")
    )

  const findMetadata = (publicationId: Ids.PublicationId) =>
    findMetadataRow(publicationId).pipe(failsAs("DocumentStore.findMetadata"))

  const list = (query: DocumentStore.DocumentQuery) =>
    Effect.gen(function*() {
      const filters = documentFilters(query)
      const where = filters.length === 0 ? sql.literal("TRUE") : sql.and(filters)
      const direction = sql.literal(query.order === "asc" ? "ASC" : "DESC")
      // One statement gives the page and the number of all matches ...
      const rows = yield* sql`
        SELECT ${metadataColumns}, count(*) OVER ()::int AS total FROM documents WHERE ${where}
        ORDER BY filing_date ${direction}, publication_id ${direction}
        LIMIT ${query.limit} OFFSET ${query.offset}`.pipe(readListPage)
      // ... except past the last page, where there is no row to carry the count.
      const page = yield* pageOf(
        rows,
        query.offset,
        sql`SELECT count(*)::int AS total FROM documents WHERE ${where}`.pipe(readTotal)
      )
      return { documents: page.rows, total: page.total }
    }).pipe(failsAs("DocumentStore.list"))

  // Ids compare in the "C" collation, by bytes, whatever the database's default: the order the
  // server merges pages in and the other stores keep (`DocumentStore.compareNewestFirst`).
  const companyDocuments = (query: DocumentStore.CompanyDocumentsQuery) => {
    const { after } = query
    const filters = [
      ...documentFilters({ ...query, tickers: [query.ticker] }),
      // The filing date alone bounds the (ticker, filing_date) index scan; the id decides within the date.
      ...(after === undefined ? [] : [
        sql`filing_date <= ${after.filingDate}::date`,
        sql`(filing_date < ${after.filingDate}::date OR publication_id COLLATE "C" < ${after.publicationId}::text)`
      ])
    ]
    return sql`
      SELECT ${metadataColumns} FROM documents WHERE ${sql.and(filters)}
      ORDER BY filing_date DESC, publication_id COLLATE "C" DESC
      LIMIT ${Math.max(0, Math.floor(query.limit))}`.pipe(readMetadataRows, failsAs("DocumentStore.companyDocuments"))
  }

  const searchSections = (query: DocumentStore.SectionQuery) =>
    Effect.gen(function*() {
      const { items, names } = query.match
      if (items.length === 0 && names.length === 0) return { results: [], total: 0 }
      const wanted = sql.or([
        ...items.map(({ docType, item }) => sql`(d.doc_type = ${docType} AND s.item = ${item})`),
        ...(names.length === 0 ? [] : [sql`lower(s.name) IN ${sql.in(names.map((name) => name.toLowerCase()))}`])
      ])
      const page = yield* sectionHits({
        where: sql.and([...documentFilters(query), wanted]),
        limit: query.limit,
        offset: query.offset
      })
      return { results: page.hits.map(({ document, hit }) => ({ document, section: hit })), total: page.total }
    }).pipe(failsAs("DocumentStore.searchSections"))

  const service: DocumentStore.Service = {
    save,
    findByPublicationId,
    findChunk,
    findMetadata,
    list,
    searchSections,
    companyDocuments
  }
  return service
})

export const makeCompanyStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const companyColumns = sql.unsafe("cik, ticker, name, as_of::text AS as_of")
  const findCompany = (key: { readonly cik: Ids.Cik } | { readonly ticker: Ids.Ticker }) =>
    ("cik" in key
      ? sql`SELECT ${companyColumns} FROM companies WHERE cik = ${key.cik}`
      : sql`SELECT ${companyColumns} FROM companies WHERE ticker = ${key.ticker} ORDER BY updated_at DESC LIMIT 1`)
      .pipe(readCompany)
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
    findByCik: (cik) => findCompany({ cik }).pipe(failsAs("CompanyStore.findByCik")),
    findByTicker: (ticker) => findCompany({ ticker }).pipe(failsAs("CompanyStore.findByTicker"))
  }
  return service
})
