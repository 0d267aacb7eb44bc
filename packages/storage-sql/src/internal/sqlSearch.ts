// SearchIndex on SQL: the chunks' tsvectors (see sqlSearchWrites) found through their GIN index
// and ranked by BM25 in the statement, with the same formula and constants as every adapter.
import { SqlClient } from "@effect/sql"
import { DocumentStore, SearchIndex, SearchText } from "@filings/storage"
import { Effect, Schema } from "effect"
import { Counted, fromRow, joinedDocumentColumns, pageOf, readTotal, rowsAs } from "./sqlRows.js"
import { quoteLexeme } from "./sqlSearchWrites.js"
import { failsAs } from "./storageErrors.js"
import { ChunkRow } from "./storedBlocks.js"

/** A phrase as `tsquery` input: its terms joined by their distances (`'capit' <1> 'expenditur'`). */
const phraseQuery = (phrase: SearchText.Phrase): string => {
  const [first, ...rest] = phrase.terms
  if (first === undefined) return ""
  let text = quoteLexeme(first.term)
  let previous = first.offset
  for (const { offset, term } of rest) {
    text += ` <${offset - previous}> ${quoteLexeme(term)}`
    previous = offset
  }
  return rest.length === 0 ? text : `(${text})`
}

/** A phrase's words in any order, as `tsquery` input: what a passage holds to be examined for the phrase. */
const wordsQuery = (phrase: SearchText.Phrase): string => {
  const terms = phrase.terms.map(({ term }) => quoteLexeme(term))
  return terms.length === 1 ? terms[0]! : `(${terms.join(" & ")})`
}

/**
 * Which passages a query examines, as `tsquery` input: `matchQuery` with each phrase's words in any
 * order, and no excluded word (an excluded phrase of several words is left to `matchQuery`).
 */
export const examineQuery = (query: SearchText.ParsedQuery, selected: SearchIndex.Selection): string =>
  conjunction(query, selected, wordsQuery, query.excluded.filter((phrase) => phrase.terms.length === 1))

/**
 * Which passages a query matches, as `tsquery` input: every required concept, no excluded phrase,
 * and what `SearchIndex.selection` asks of the other words (one of the selective terms, or each
 * word when all are common).
 */
export const matchQuery = (query: SearchText.ParsedQuery, selected: SearchIndex.Selection): string =>
  conjunction(query, selected, phraseQuery, query.excluded)

const conjunction = (
  query: SearchText.ParsedQuery,
  selected: SearchIndex.Selection,
  required: (phrase: SearchText.Phrase) => string,
  excluded: ReadonlyArray<SearchText.Phrase>
): string => {
  const anyTerm = (terms: Iterable<string>) => `(${[...new Set(terms)].map(quoteLexeme).join(" | ")})`
  const optional = query.concepts.filter((concept) => !concept.required)
  const selecting = selected.mode === "any"
    ? [anyTerm(selected.terms)]
    : selected.mode === "all"
    ? optional.map((concept) => anyTerm(concept.alternatives.flatMap((phrase) => phrase.terms.map(({ term }) => term))))
    : []
  return [
    ...selecting,
    ...query.concepts.filter((concept) => concept.required).map((concept) =>
      `(${concept.alternatives.map(required).join(" | ")})`
    ),
    ...excluded.map((phrase) => `!${phraseQuery(phrase)}`)
  ].join(" & ")
}

// How often a passage holds a term, read from ts_rank rather than by unpacking the passage's
// tsvector (which costs a row per term of every passage scored). For one term whose positions all
// have the default weight 0.1, ts_rank is 0.1 * H(n) / (pi^2 / 6), where H(n) is the sum of 1/j^2
// for j = 1 to n occurrences; pi^2 / 6 - H(n) is close to 1 / (n + 0.5), which gives n back
// exactly for every n up to the 256 positions a tsvector keeps of a term.
const zeta2 = Math.PI * Math.PI / 6

// What reading a passage's row and matching its vector costs, in entries of a GIN posting list
// read (measured on PostgreSQL 15 over a million passages: about 1.2 µs a row, 0.04 µs an entry).
const rowReadCost = 30

// What a search reads before it searches: how many passages hold each of its terms, how many
// passages and terms there are, and how many passages its filters keep (up to what would be read
// through the GIN index; 0 without filters).
const Counts = Schema.Struct({
  held: Schema.Record({ key: Schema.String, value: Schema.Number }),
  passages: Schema.Number,
  terms: Schema.Number,
  kept: Schema.Number
})
const readCounts = rowsAs(Counts)
const readHits = rowsAs(Counted({
  ...DocumentStore.DocumentMetadata.fields,
  hit: fromRow(ChunkRow),
  score: Schema.Number
}))

// A chunk's columns as one JSON object under the encoded names of `StoredChunk`, its blocks when asked.
const chunkObject = `jsonb_build_object('id', c.chunk_id, 'section', c.section, 'page_start', c.page_start,
  'page_end', c.page_end, 'text', c.text)`
const chunkObjectWithBlocks = `${chunkObject} || jsonb_build_object('blocks', c.blocks)`

export const makeSearchIndex = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { adjacentWeight, b, k1 } = SearchIndex.ranking

  const filtersOf = (query: SearchIndex.SearchQuery) => {
    const sections = query.sections
    return [
      ...(query.tickers === undefined ? [] : [sql.in("d.ticker", query.tickers)]),
      ...(query.docTypes === undefined ? [] : [sql.in("d.doc_type", query.docTypes)]),
      ...(query.startDate === undefined ? [] : [sql`c.filing_date >= ${query.startDate}::date`]),
      ...(query.endDate === undefined ? [] : [sql`c.filing_date <= ${query.endDate}::date`]),
      ...(sections === undefined ? [] : [
        sql`EXISTS (SELECT 1 FROM document_sections s WHERE s.publication_id = c.publication_id AND s.name = c.section
          AND ${
          sql.or([
            sql`false`,
            ...sections.items.map(({ docType, item }) => sql`(d.doc_type = ${docType} AND s.item = ${item})`),
            ...(sections.names.length === 0
              ? []
              : [sql`lower(s.name) IN ${sql.in(sections.names.map((name) => name.toLowerCase()))}`])
          ])
        })`
      ])
    ]
  }

  const search = (query: SearchIndex.SearchQuery) =>
    Effect.gen(function*() {
      const parsed = query.query
      const allTerms = [
        ...new Set([
          ...parsed.concepts.flatMap((concept) =>
            concept.alternatives.flatMap((phrase) => phrase.terms.map(({ term }) => term))
          )
        ])
      ]
      const filters = filtersOf(query)
      // The document's row is read only for what the chunk does not carry.
      const from = query.tickers === undefined && query.docTypes === undefined && query.sections === undefined
        ? sql`document_chunks c`
        : sql`document_chunks c JOIN documents d USING (publication_id)`
      // When the filters leave fewer passages than the GIN index would read for the query's
      // terms (`rowReadCost` entries a passage), each of them is read and matched in its row
      // instead: `ts_match_vq` is `@@`, which the planner can then not answer from the index (it
      // would, for every document of a company, read the posting lists of the query's common
      // words: milliseconds each). The counts and that test are one statement before the search.
      const kept = filters.length === 0 ? sql.literal("0") : sql`(
        SELECT count(*)::int FROM (
          SELECT 1 FROM ${from} WHERE ${sql.and(filters)}
          LIMIT (SELECT ceil(coalesce(sum(passages), 0) / ${rowReadCost}::numeric)::int FROM held)
        ) AS kept)`
      const [counts] = yield* sql`
        WITH held AS (SELECT term, passages FROM search_terms WHERE term IN ${sql.in(allTerms)})
        SELECT (SELECT coalesce(jsonb_object_agg(term, passages), '{}'::jsonb) FROM held) AS held,
          coalesce(t.passages, 0)::float8 AS passages, coalesce(t.terms, 0)::float8 AS terms, ${kept} AS kept
        FROM (SELECT 1) AS one LEFT JOIN search_totals t ON true`.pipe(readCounts)
      const passages = counts?.passages ?? 0
      const average = passages === 0 ? 1 : (counts?.terms ?? 0) / passages
      const passagesHolding = new Map(Object.entries(counts?.held ?? {}))
      const idf = (term: string) => SearchIndex.inverseFrequency(passagesHolding.get(term) ?? 0, passages)
      const selected = SearchIndex.selection(parsed, (term) => passagesHolding.get(term) ?? 0)
      const newestFirst = sql`c.filing_date DESC, c.publication_id COLLATE "C" DESC, c.position`
      const indexReads = allTerms.reduce((sum, term) => sum + (passagesHolding.get(term) ?? 0), 0)
      const narrow = filters.length > 0 && (counts?.kept ?? 0) < Math.ceil(indexReads / rowReadCost)
      const matches = (text: string) =>
        narrow ? sql`ts_match_vq(c.terms, ${text}::tsquery)` : sql`c.terms @@ ${text}::tsquery`
      // The passages that match, newest first: with a phrase, among the newest `examinedAtMost`
      // holding its words (see SearchIndex), whose positions are then read.
      const matching = SearchIndex.readsPositions(parsed)
        ? sql`(
            SELECT c.publication_id, c.chunk_id, c.position, c.filing_date, c.terms, c.term_count FROM ${from}
            WHERE ${sql.and([matches(examineQuery(parsed, selected)), ...filters])}
            ORDER BY ${newestFirst}
            LIMIT ${SearchIndex.examinedAtMost}
          ) c WHERE ${matches(matchQuery(parsed, selected))}`
        : sql`${from} WHERE ${sql.and([matches(matchQuery(parsed, selected)), ...filters])}`
      // The score is one flat expression per row, built here: a column per distinct term with how
      // often the passage holds it, and per concept the best of its alternatives. Correlated
      // subqueries over a weights table cost about twice as much per passage scored.
      const termColumn = new Map(allTerms.map((term, index) => [term, sql.literal(`tf${index}`)]))
      const frequencyColumns = allTerms.map((term) =>
        sql`round(1 / (${zeta2}::float8 - ts_rank(c.terms, ${quoteLexeme(term)}::tsquery)::float8 * ${
          zeta2 / 0.1
        }::float8) - 0.5) AS ${termColumn.get(term)!}`
      )
      const termScore = (term: string, weight: number) => {
        const tf = termColumn.get(term)!
        return sql`${idf(term) * weight}::float8 * t.${tf} * ${k1 + 1}::float8 / (t.${tf} + ${k1}::float8 * t.norm)`
      }
      const conceptScores = parsed.concepts.map((concept) =>
        sql`GREATEST(${
          sql.join(", ", false)(
            concept.alternatives.map((phrase) =>
              sql`(${sql.join(" + ", false)(phrase.terms.map(({ term }) => termScore(term, phrase.weight ?? 1)))})`
            )
          )
        })`
      )
      const pairs = SearchText.adjacentPairs(parsed)
      const pairColumns = pairs.map((pair, index) =>
        sql`(c.terms @@ ${`${quoteLexeme(pair.first)} <${pair.distance}> ${
          quoteLexeme(pair.second)
        }`}::tsquery)::int AS ${sql.literal(`pair${index}`)}`
      )
      const pairScores = pairs.map((pair, index) =>
        sql`${adjacentWeight * Math.min(idf(pair.first), idf(pair.second))}::float8 * t.${sql.literal(`pair${index}`)}`
      )
      // `matched` is the newest `rankedAtMost` matches: found through the GIN index when the
      // query's words are rare, or by walking `document_chunks_newest` when they are common, so
      // that the newest passages match soon. Each passage's vector is read in its row (see
      // migration 15) once per use: the match, the frequency of each term and the adjacency of each
      // pair, all in the same row read, so the newest-first sort carries numbers, not vectors.
      // `scored` is materialized so that only ids and scores are held while the page and total are
      // taken, and the page's text is read only for its rows.
      const rows = yield* sql`
        WITH matched AS (
          SELECT c.publication_id, c.chunk_id, c.position, c.filing_date,
            1 - ${b}::float8 + ${b}::float8 * c.term_count / ${average}::float8 AS norm,
            ${sql.join(", ", false)([...frequencyColumns, ...pairColumns])}
          FROM ${matching}
          ORDER BY ${newestFirst}
          LIMIT ${SearchIndex.rankedAtMost}
        ),
        scored AS MATERIALIZED (
          SELECT t.publication_id, t.chunk_id, t.position, t.filing_date,
            ${sql.join(" + ", false)([...conceptScores, ...pairScores])} AS score
          FROM matched t
        ),
        page AS (
          SELECT *, count(*) OVER ()::int AS total FROM scored
          ORDER BY score DESC, filing_date DESC, publication_id COLLATE "C" DESC, position
          LIMIT ${query.limit} OFFSET ${query.offset}
        )
        SELECT ${sql.literal(joinedDocumentColumns)}, ${
        sql.literal(query.withBlocks === true ? chunkObjectWithBlocks : chunkObject)
      } AS hit, p.score, p.total
        FROM page p
        JOIN documents d USING (publication_id)
        JOIN document_chunks c ON c.publication_id = p.publication_id AND c.chunk_id = p.chunk_id
        ORDER BY p.score DESC, p.filing_date DESC, p.publication_id COLLATE "C" DESC, p.position`.pipe(readHits)
      const countAll = sql`
        SELECT count(*)::int AS total FROM (
          SELECT 1 FROM ${matching} LIMIT ${SearchIndex.rankedAtMost}
        ) AS ranked`.pipe(readTotal)
      const page = yield* pageOf(rows, query.offset, countAll)
      return {
        hits: page.rows.map(({ hit, score, ...document }) => ({ document, chunk: hit, score })),
        total: page.total
      }
    }).pipe(failsAs("SearchIndex.search"))

  const service: SearchIndex.Service = { search }
  return service
})
