// DocumentStore and CompanyStore on SQL. Metadata and body live in two tables written in one
// transaction; list queries read only the metadata table.
import { SqlClient } from "@effect/sql"
import { Ids } from "@filings/domain"
import { CompanyStore, DocumentStore } from "@filings/storage"
import { Clock, Effect, Option, Schema } from "effect"
import { jsonb } from "./jsonb.js"
import { Counted, firstRowAs, hitsPage, inDocumentOrder, pageOf, readTotal, rowsAs } from "./sqlRows.js"
import { analyzePassage, applyFrequencyChanges, FrequencyChanges, storedFrequencies } from "./sqlSearchWrites.js"
import { failsAs, writeFailsAs } from "./storageErrors.js"
import { ChunkRow, storedBlocks } from "./storedBlocks.js"
import { makeVersionedRows } from "./versionedRows.js"

/** A document with its body: the metadata's columns, the body, and the exhibits' JSON (stored camelCase). */
const DocumentRow = Schema.Struct({
  ...DocumentStore.DocumentMetadata.fields,
  body: Schema.String,
  exhibits: Schema.Array(Schema.typeSchema(DocumentStore.StoredExhibit))
})

// A section's block range as the object `StoredSection` reads; NULL for sections stored before it was kept.
const blockRange = (alias: string) =>
  `CASE WHEN ${alias}block_start IS NULL THEN NULL
    ELSE jsonb_build_object('start', ${alias}block_start, 'end', ${alias}block_end) END`

const sectionColumns = `name AS title, item, content, word_count, page_start, page_end, ${
  blockRange("")
} AS block_range`

// The section's columns as one JSON object, for a search that reads it beside its document's
// columns (both have a word count).
const sectionObject = `jsonb_build_object('title', s.name, 'item', s.item, 'content', s.content,
  'word_count', s.word_count, 'page_start', s.page_start, 'page_end', s.page_end, 'block_range', ${blockRange("s.")})`

/** A page of a document list: each document's key and row version with the number of every match. */
const readListPage = rowsAs(Counted({ key: Schema.String, version: Schema.String }))
/** Documents' metadata with their keys and row versions, to keep (see `versionedRows`). */
const readVersionedMetadata = rowsAs(Schema.Struct({
  ...DocumentStore.DocumentMetadata.fields,
  version: Schema.String
}))
const readChunks = rowsAs(ChunkRow)
const readDocumentRow = firstRowAs(DocumentRow)
const readMetadataRow = firstRowAs(DocumentStore.DocumentMetadata)
const readMetadataRows = rowsAs(DocumentStore.DocumentMetadata)
const readCompany = firstRowAs(CompanyStore.Company)
const readTickers = rowsAs(Schema.Struct({ ticker: Ids.Ticker }))
const readCompanyNames = rowsAs(Schema.Struct({
  ticker: Ids.Ticker,
  companyName: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("company_name"))
}))
const readTypeCounts = rowsAs(Schema.Struct({
  docType: DocumentStore.DocumentMetadata.fields.docType,
  count: Schema.Int,
  latest: Ids.PublicationId
}))

/** The rows of a document's chunks, each with its text, pages and search terms, which are counted into `changes`. */
const chunkRows = (document: DocumentStore.StoredDocument, changes: FrequencyChanges) =>
  document.chunks.map((chunk, position) => {
    const analyzed = analyzePassage({ ...contextOf(document), section: chunk.section }, chunk.text)
    changes.add(analyzed, 1)
    return {
      chunk_id: chunk.id,
      position,
      section: chunk.section ?? null,
      text: chunk.text,
      page_start: chunk.pageStart,
      page_end: chunk.pageEnd,
      blocks: chunk.blocks === undefined ? null : storedBlocks(chunk.blocks),
      terms: analyzed.vector,
      term_count: analyzed.termCount
    }
  })

const contextOf = (document: DocumentStore.StoredDocument) => ({
  ticker: document.ticker,
  companyName: document.companyName,
  docType: document.docType
})

export const makeDocumentStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const metadataColumns = sql`publication_id, ticker, company_name, cik, doc_type, title,
    filing_date::text AS filing_date, period, sec_url, word_count, items`

  const findDocumentRow = (publicationId: Ids.PublicationId) =>
    sql`
      SELECT ${metadataColumns}, b.body, b.exhibits
      FROM documents d JOIN document_bodies b USING (publication_id)
      WHERE publication_id = ${publicationId}`.pipe(readDocumentRow)
  const findSections = inDocumentOrder(sql, DocumentStore.StoredSection, {
    table: "document_sections",
    columns: sectionColumns
  })
  const findChunks = (publicationId: Ids.PublicationId, chunkId?: string, withBlocks = true) =>
    sql`
      SELECT c.chunk_id AS id, c.section, c.text, c.page_start, c.page_end${withBlocks ? sql`, c.blocks` : sql``}
      FROM document_chunks c
      WHERE publication_id = ${publicationId}${chunkId === undefined ? sql`` : sql` AND c.chunk_id = ${chunkId}`}
      ORDER BY c.position`.pipe(readChunks)
  const sectionHits = hitsPage(sql, DocumentStore.StoredSection, {
    table: "document_sections",
    alias: "s",
    hit: sectionObject
  })
  // The metadata of listed documents, decoded once per row version.
  const listedMetadata = makeVersionedRows<DocumentStore.DocumentMetadata>()
  const readMetadataOf = (publicationIds: ReadonlyArray<string>) =>
    sql`SELECT ${metadataColumns}, xmin::text AS version FROM documents WHERE ${
      sql.in("publication_id", publicationIds)
    }`
      .pipe(
        readVersionedMetadata,
        Effect.map((rows) => rows.map(({ version, ...row }) => ({ key: row.publicationId, version, row })))
      )

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
            page_end: section.pageEnd,
            block_start: section.blockRange?.start ?? null,
            block_end: section.blockRange?.end ?? null
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
          INSERT INTO document_chunks (publication_id, chunk_id, position, section, text, page_start, page_end, blocks,
            terms, term_count, filing_date)
          SELECT ${document.publicationId}, r.chunk_id, r.position, r.section, r.text, r.page_start, r.page_end,
            r.blocks, r.terms::tsvector, r.term_count, ${document.filingDate}::date
          FROM json_to_recordset(${jsonb(rows)}::json) AS r(chunk_id text, position int, section text, text text,
            page_start int, page_end int, blocks json, terms text, term_count int)`
      }
      yield* applyFrequencyChanges(sql, changes)
      // xmax is 0 only on a row version this statement inserted; an update of a conflicting row sets it.
      return written?.inserted === true ? "created" as const : "updated" as const
    })).pipe(writeFailsAs("DocumentStore.save", `document ${document.publicationId}`))

  const findByPublicationId = (publicationId: Ids.PublicationId, options?: { readonly withoutBlocks?: boolean }) =>
    Effect.gen(function*() {
      const document = yield* findDocumentRow(publicationId)
      if (Option.isNone(document)) return Option.none()
      const sections = yield* findSections(publicationId)
      const chunks = yield* findChunks(publicationId, undefined, options?.withoutBlocks !== true)
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
      // One statement gives the page's keys and row versions and the number of all matches ...
      const rows = yield* sql`
        SELECT publication_id AS key, xmin::text AS version, count(*) OVER ()::int AS total FROM documents
        WHERE ${where}
        ORDER BY filing_date ${direction}, publication_id ${direction}
        LIMIT ${query.limit} OFFSET ${query.offset}`.pipe(readListPage)
      // ... except past the last page, where there is no row to carry the count.
      const page = yield* pageOf(
        rows,
        query.offset,
        sql`SELECT count(*)::int AS total FROM documents WHERE ${where}`.pipe(readTotal)
      )
      // ... and the metadata of each comes from the kept rows where its version is current.
      const documents = yield* listedMetadata.rowsOf(page.rows, readMetadataOf)
      return { documents, total: page.total }
    }).pipe(failsAs("DocumentStore.list"))

  // Ids compare in the "C" collation, by bytes, whatever the database's default: the order the
  // server merges pages in and the other stores keep (`DocumentStore.compareNewestFirst`).
  const companyDocuments = (query: DocumentStore.CompanyDocumentsQuery) => {
    const { after, placeholder } = query
    const limit = Math.max(0, Math.floor(query.limit))
    const filters = [
      ...documentFilters(query),
      // The filing date alone bounds the index scan; the id decides within the date.
      ...(after === undefined ? [] : [
        sql`filing_date <= ${after.filingDate}::date`,
        sql`(filing_date < ${after.filingDate}::date OR publication_id COLLATE "C" < ${after.publicationId}::text)`
      ])
    ]
    // The company's own documents through the (cik, filing_date) index, and those under the
    // placeholder key by ticker, each newest first and limited on its own, then merged: one OR
    // over both would read all of the company's documents and sort them for every page.
    const owners = [
      ...(query.cik === undefined ? [] : [sql`cik = ${query.cik}`]),
      ...(placeholder === undefined || placeholder.tickers.length === 0
        ? []
        : [sql`cik = ${placeholder.cik} AND ${sql.in("ticker", placeholder.tickers)}`])
    ]
    if (owners.length === 0 || limit === 0) return Effect.succeed([])
    const branches = owners.map((owner) =>
      sql`(SELECT ${metadataColumns} FROM documents WHERE ${sql.and([owner, ...filters])}
        ORDER BY documents.filing_date DESC, publication_id COLLATE "C" DESC LIMIT ${limit})`
    )
    // filing_date is ISO text here, which orders as the date does.
    return sql`
      SELECT * FROM (${sql.join(" UNION ALL ", false)(branches)}) AS owned
      ORDER BY filing_date DESC, publication_id COLLATE "C" DESC
      LIMIT ${limit}`.pipe(readMetadataRows, failsAs("DocumentStore.companyDocuments"))
  }

  const companyTickers = (cik: Ids.Cik) =>
    sql`SELECT DISTINCT ticker COLLATE "C" AS ticker FROM documents WHERE cik = ${cik} ORDER BY 1`.pipe(
      readTickers,
      Effect.map((rows) => rows.map((row) => row.ticker)),
      failsAs("DocumentStore.companyTickers")
    )

  const companyNames = sql`
    SELECT DISTINCT ticker COLLATE "C" AS ticker, company_name COLLATE "C" AS company_name FROM documents
    ORDER BY 1, 2`.pipe(readCompanyNames, failsAs("DocumentStore.companyNames"))

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

  const countByType = (cik: Ids.Cik) =>
    sql`
      SELECT doc_type, count(*)::int AS count,
        (array_agg(publication_id ORDER BY filing_date DESC, publication_id DESC))[1] AS latest
      FROM documents WHERE cik = ${cik} GROUP BY doc_type ORDER BY doc_type COLLATE "C"`.pipe(
      readTypeCounts,
      failsAs("DocumentStore.countByType")
    )

  const service: DocumentStore.Service = {
    save,
    findByPublicationId,
    findChunk,
    findMetadata,
    list,
    searchSections,
    companyDocuments,
    companyTickers,
    companyNames,
    countByType
  }
  return service
})

/** A company's profile row: the company, its exchange, its listed tickers and its details when read. */
const ProfileRow = Schema.Struct({
  cik: CompanyStore.Company.fields.cik,
  ticker: CompanyStore.Company.fields.ticker,
  name: CompanyStore.Company.fields.name,
  asOf: CompanyStore.Company.fields.asOf,
  /** The tickers the cover lists (`companies.tickers`). */
  cover_tickers: Schema.optional(Schema.Array(Ids.Ticker)),
  exchange: Schema.optional(Schema.String),
  /** The listed tickers, in the list's order. */
  listed: Schema.Array(Ids.Ticker),
  /** Set once the details were saved. */
  details: Schema.optional(Schema.typeSchema(CompanyStore.CompanyDetails))
})
const readProfile = firstRowAs(ProfileRow)
const readSummaries = rowsAs(Counted(CompanyStore.CompanySummary.fields))
const readCiks = rowsAs(Schema.Struct({ cik: Ids.Cik }))
const readListingSaved = firstRowAs(Schema.Struct({ companies: Schema.Int, tickers: Schema.Int }))

/** The listing's rows, each ticker once (the first time), each company's first ticker its main one. */
const listingRows = (listed: ReadonlyArray<CompanyStore.ListedTicker>) => {
  const tickers: Array<{ ticker: string; cik: string; exchange: string | null; position: number }> = []
  const companies = new Map<
    string,
    { cik: string; ticker: string; name: string; exchange: string | null; position: number }
  >()
  const seen = new Set<string>()
  listed.forEach((entry, position) => {
    if (seen.has(entry.ticker)) return
    seen.add(entry.ticker)
    const exchange = entry.exchange ?? null
    tickers.push({ ticker: entry.ticker, cik: entry.cik, exchange, position })
    if (!companies.has(entry.cik)) {
      companies.set(entry.cik, { cik: entry.cik, ticker: entry.ticker, name: entry.name, exchange, position })
    }
  })
  return { tickers, companies: [...companies.values()] }
}

export const makeCompanyStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const matchColumns = sql.literal("c.cik, c.ticker, c.name, c.exchange")
  const companyColumnList = "c.cik, c.ticker, c.name, c.as_of::text AS as_of, c.tickers"
  const companyColumns = sql.literal(companyColumnList)
  const findByCik = (cik: Ids.Cik) =>
    sql`SELECT ${companyColumns} FROM companies c WHERE c.cik = ${cik}`.pipe(readCompany)

  // The company each ticker names (see `CompanyStore.Service.findByTicker`), one row per ticker
  // that names one, with `columns` of it as `c`: its primary ticker (the most recently updated
  // company's), else a cover's (the newest filing's), else the regulator's list's. Each branch is
  // one index read: the ticker index, the GIN index on `tickers`, the listing's key.
  const namedBy = (tickers: ReadonlyArray<Ids.Ticker>, columns: ReturnType<typeof sql.literal>) =>
    sql`
      SELECT DISTINCT ON (asked.position) asked.ticker AS asked, ${columns}
      FROM jsonb_array_elements_text(${jsonb(tickers)}::jsonb) WITH ORDINALITY AS asked(ticker, position)
      CROSS JOIN LATERAL (
        (SELECT c.cik, 0 AS how, c.updated_at AS newest FROM companies c WHERE c.ticker = asked.ticker)
        UNION ALL
        (SELECT c.cik, 1, c.as_of::timestamptz FROM companies c WHERE c.tickers @> ARRAY[asked.ticker])
        UNION ALL
        (SELECT l.cik, 2, NULL FROM company_listings l WHERE l.ticker = asked.ticker)
      ) AS found
      JOIN companies c ON c.cik = found.cik
      ORDER BY asked.position, found.how, found.newest DESC NULLS LAST`
  const findByTicker = (ticker: Ids.Ticker) => namedBy([ticker], companyColumns).pipe(readCompany)

  const readExpansions = rowsAs(Schema.Struct({
    asked: Ids.Ticker,
    ...CompanyStore.Company.fields,
    listed: Schema.Array(Ids.Ticker)
  }))
  const expansionColumns = sql.literal(
    `${companyColumnList},
    coalesce((SELECT jsonb_agg(l.ticker ORDER BY l.position) FROM company_listings l WHERE l.cik = c.cik), '[]')
      AS listed`
  )
  const aliasesOf = (tickers: ReadonlyArray<Ids.Ticker>) =>
    Effect.gen(function*() {
      if (tickers.length === 0) return new Map<Ids.Ticker, ReadonlyArray<Ids.Ticker>>()
      const rows = yield* namedBy(tickers, expansionColumns).pipe(readExpansions)
      const named = new Map(
        rows.map(({ asked, listed, ...company }) => [asked, CompanyStore.everyTicker(company, listed)])
      )
      return new Map(tickers.map((ticker) => [ticker, named.get(ticker) ?? [ticker]] as const))
    })

  const saveListing = (listed: ReadonlyArray<CompanyStore.ListedTicker>) => {
    const rows = listingRows(listed)
    return sql.withTransaction(Effect.gen(function*() {
      // The list is replaced whole: a ticker the regulator no longer lists is gone from it.
      yield* sql`DELETE FROM company_listings`
      yield* sql`
        INSERT INTO company_listings (ticker, cik, exchange, position)
        SELECT ticker, cik, exchange, position
        FROM jsonb_to_recordset(${jsonb(rows.tickers)}::jsonb) AS r(ticker text, cik text, exchange text, position int)`
      // A listing is undated: it names a company only until a filing does (`CompanyStore.supersedes`).
      yield* sql`
        INSERT INTO companies (cik, ticker, name, exchange, list_position)
        SELECT cik, ticker, name, exchange, position
        FROM jsonb_to_recordset(${jsonb(rows.companies)}::jsonb)
          AS r(cik text, ticker text, name text, exchange text, position int)
        ON CONFLICT (cik) DO UPDATE SET
          ticker = CASE WHEN companies.as_of IS NULL THEN excluded.ticker ELSE companies.ticker END,
          name = CASE WHEN companies.as_of IS NULL THEN excluded.name ELSE companies.name END,
          updated_at = CASE WHEN companies.as_of IS NULL AND
            (companies.ticker, companies.name) IS DISTINCT FROM (excluded.ticker, excluded.name)
            THEN now() ELSE companies.updated_at END,
          exchange = excluded.exchange,
          list_position = excluded.list_position
        -- A daily list barely changes: rows it does not change are not rewritten (nor their index entries).
        WHERE companies.exchange IS DISTINCT FROM excluded.exchange
          OR companies.list_position IS DISTINCT FROM excluded.list_position
          OR companies.as_of IS NULL AND (companies.ticker, companies.name) IS DISTINCT FROM (excluded.ticker, excluded.name)`
      yield* sql`
        UPDATE companies SET exchange = NULL, list_position = NULL
        WHERE list_position IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM company_listings l WHERE l.cik = companies.cik)`
      return yield* sql`SELECT ${rows.companies.length}::int AS companies, ${rows.tickers.length}::int AS tickers`.pipe(
        readListingSaved,
        Effect.map(Option.getOrElse(() => ({ companies: 0, tickers: 0 })))
      )
    }))
  }

  // The companies `q` matches with their columns, once per match, each with the rank of that match
  // (see `CompanyStore.MatchRank`). Each branch reads its companies by index and carries their
  // columns: joining the matched keys to `companies` afterwards was planned as a scan of the whole
  // table, the grouped keys being estimated at 200 whatever their number.
  const matchesOf = (q: string) => {
    const ticker = CompanyStore.tickerQuery(q)
    const cik = CompanyStore.cikQuery(q)
    const words = CompanyStore.nameWords(q)
    const wordArray = `{${words.map((word) => `"${word}"`).join(",")}}`
    const branches = [
      ...(ticker === undefined ? [] : [
        // Tickers begun by q (q itself included, ranked first), as a range of bytes: a ticker holds only
        // letters, digits, "." and "-", all below "~", so q + "~" bounds them.
        sql`SELECT ${matchColumns}, CASE WHEN c.ticker = ${ticker} THEN 0 ELSE 2 END AS rank FROM companies c
          WHERE c.ticker COLLATE "C" >= ${ticker} AND c.ticker COLLATE "C" < ${`${ticker}~`}`,
        sql`SELECT ${matchColumns}, CASE WHEN l.ticker = ${ticker} THEN 0 ELSE 2 END AS rank
          FROM company_listings l JOIN companies c ON c.cik = l.cik
          WHERE l.ticker COLLATE "C" >= ${ticker} AND l.ticker COLLATE "C" < ${`${ticker}~`}`,
        // Another class its cover lists, exactly.
        sql`SELECT ${matchColumns}, 0 AS rank FROM companies c WHERE c.tickers @> ARRAY[${ticker}::text]`
      ]),
      ...(cik === undefined ? [] : [sql`SELECT ${matchColumns}, 1 AS rank FROM companies c WHERE c.cik = ${cik}`]),
      ...(words.length === 0 ? [] : [
        // An array literal, not a subquery: the planner then weighs the GIN index against a scan. Words
        // are only ASCII letters and digits (see `CompanyStore.nameWords`); each is quoted all the
        // same, or the word "null" would be read as a NULL element.
        sql`SELECT ${matchColumns}, 3 AS rank FROM companies c WHERE c.name_prefixes @> ${wordArray}::text[]`,
        sql`SELECT ${matchColumns}, 4 AS rank FROM companies c WHERE c.former_name_prefixes @> ${wordArray}::text[]`
      ])
    ]
    return branches.length === 0 ? undefined : sql.join(" UNION ALL ", false)(branches)
  }

  const search = (query: CompanyStore.CompanySearch) =>
    Effect.gen(function*() {
      const q = query.q?.trim() ?? ""
      const onExchange = query.exchange === undefined
        ? sql.literal("TRUE")
        : sql`lower(c.exchange) = ${query.exchange.toLowerCase()}`
      if (q === "") {
        const rows = yield* sql`
          SELECT ${matchColumns}, count(*) OVER ()::int AS total FROM companies c WHERE ${onExchange}
          ORDER BY c.ticker COLLATE "C", c.cik LIMIT ${query.limit} OFFSET ${query.offset}`.pipe(readSummaries)
        const page = yield* pageOf(
          rows,
          query.offset,
          sql`SELECT count(*)::int AS total FROM companies c WHERE ${onExchange}`.pipe(readTotal)
        )
        return { companies: page.rows, total: page.total }
      }
      const matches = matchesOf(q)
      if (matches === undefined) return { companies: [], total: 0 }
      // Each company once, under its best rank.
      const best = sql`(SELECT DISTINCT ON (cik) * FROM (${matches}) m ORDER BY cik, rank) c`
      const rows = yield* sql`
        SELECT ${matchColumns}, count(*) OVER ()::int AS total FROM ${best} WHERE ${onExchange}
        ORDER BY c.rank, c.ticker COLLATE "C", c.cik LIMIT ${query.limit} OFFSET ${query.offset}`.pipe(readSummaries)
      const page = yield* pageOf(
        rows,
        query.offset,
        sql`SELECT count(*)::int AS total FROM ${best} WHERE ${onExchange}`.pipe(readTotal)
      )
      return { companies: page.rows, total: page.total }
    })

  const profileColumns = sql.literal(`c.cik, c.ticker, c.name, c.as_of::text AS as_of, c.tickers AS cover_tickers,
    c.exchange,
    coalesce((SELECT jsonb_agg(l.ticker ORDER BY l.position) FROM company_listings l WHERE l.cik = c.cik), '[]')
      AS listed,
    CASE WHEN c.details_at IS NOT NULL THEN jsonb_strip_nulls(jsonb_build_object('sic', c.sic,
      'sicDescription', c.sic_description, 'stateOfIncorporation', c.state_of_incorporation,
      'fiscalYearEnd', c.fiscal_year_end, 'formerNames', coalesce(c.former_names, '[]'))) END AS details`)

  const findProfile = (ticker: Ids.Ticker) =>
    Effect.gen(function*() {
      const found = yield* namedBy([ticker], profileColumns).pipe(readProfile)
      return Option.map(
        found,
        ({ cover_tickers, details, exchange, listed, ...named }): CompanyStore.CompanyProfile => {
          const company = { ...named, ...(cover_tickers === undefined ? {} : { tickers: cover_tickers }) }
          return {
            company,
            ...(exchange === undefined ? {} : { exchange }),
            tickers: CompanyStore.everyTicker(company, listed),
            ...(details === undefined ? {} : { details })
          }
        }
      )
    })

  const saveDetails = (cik: Ids.Cik, details: CompanyStore.CompanyDetails) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      yield* sql`
        UPDATE companies SET sic = ${details.sic ?? null}, sic_description = ${details.sicDescription ?? null},
          state_of_incorporation = ${details.stateOfIncorporation ?? null},
          fiscal_year_end = ${details.fiscalYearEnd ?? null}, former_names = ${jsonb(details.formerNames)}::jsonb,
          details_at = ${new Date(now)}
        WHERE cik = ${cik}`
    })

  const detailsBacklog = (query: CompanyStore.DetailsBacklogQuery) =>
    Effect.map(
      sql`
        SELECT cik FROM companies
        WHERE details_at IS NULL${query.readBefore === undefined ? sql`` : sql` OR details_at < ${query.readBefore}`}
        ORDER BY details_at NULLS FIRST,
          ticker IN (SELECT jsonb_array_elements_text(${jsonb(query.preferred)}::jsonb)) DESC,
          as_of IS NOT NULL DESC, list_position NULLS LAST, cik
        LIMIT ${query.limit}`.pipe(readCiks),
      (rows) => rows.map((row) => row.cik)
    )

  const service: CompanyStore.Service = {
    upsert: (company) =>
      // The same rule as `CompanyStore.supersedes`, in one statement so concurrent ingestions agree.
      // Without tickers of its own, a record keeps the stored ones of the same primary ticker.
      sql`
        INSERT INTO companies (cik, ticker, name, as_of, tickers)
        VALUES (${company.cik}, ${company.ticker}, ${company.name}, ${company.asOf ?? null}::date,
          ${
        company.tickers === undefined
          ? sql`NULL`
          : sql`ARRAY(SELECT jsonb_array_elements_text(${jsonb(company.tickers)}::jsonb))`
      })
        ON CONFLICT (cik) DO UPDATE SET ticker = excluded.ticker, name = excluded.name, as_of = excluded.as_of,
          tickers = coalesce(excluded.tickers,
            CASE WHEN excluded.ticker = companies.ticker THEN companies.tickers END),
          updated_at = now()
        WHERE companies.as_of IS NULL OR excluded.as_of >= companies.as_of`.pipe(
        Effect.asVoid,
        failsAs("CompanyStore.upsert")
      ),
    findByCik: (cik) => findByCik(cik).pipe(failsAs("CompanyStore.findByCik")),
    findByTicker: (ticker) => findByTicker(ticker).pipe(failsAs("CompanyStore.findByTicker")),
    aliasesOf: (tickers) => aliasesOf(tickers).pipe(failsAs("CompanyStore.aliasesOf")),
    saveListing: (listed) => saveListing(listed).pipe(failsAs("CompanyStore.saveListing")),
    search: (query) => search(query).pipe(failsAs("CompanyStore.search")),
    findProfile: (ticker) => findProfile(ticker).pipe(failsAs("CompanyStore.findProfile")),
    saveDetails: (cik, details) => saveDetails(cik, details).pipe(failsAs("CompanyStore.saveDetails")),
    detailsBacklog: (query) => detailsBacklog(query).pipe(failsAs("CompanyStore.detailsBacklog"))
  }
  return service
})
