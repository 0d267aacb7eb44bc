// In-memory DocumentStore and CompanyStore: maps behind a Ref, for tests and single-process use.
import type { Ids } from "@filings/domain"
import { Clock, Effect, Option, Ref } from "effect"
import * as CompanyStore from "../CompanyStore.js"
import * as DocumentStore from "../DocumentStore.js"
import type * as SearchIndex from "../SearchIndex.js"
import { holdsNul, nulReason, UnstorableValue } from "../StorageError.js"
import { MemoryPassages } from "./memorySearch.js"

/** Every string of a value, for the check the SQL stores make on what they are given. */
const strings = (value: unknown): Array<string> => {
  if (typeof value === "string") return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings)
  return []
}

/** A document store and the search index of its passages, which every save updates. */
export const makeDocumentStoreWithIndex = Effect.gen(function*() {
  const documents = yield* Ref.make(new Map<string, DocumentStore.StoredDocument>())
  const passages = new MemoryPassages()
  const find = (publicationId: string) =>
    Effect.map(Ref.get(documents), (map) => Option.fromNullable(map.get(publicationId)))
  const service: DocumentStore.Service = {
    save: (document) =>
      // Refused as PostgreSQL refuses it, so the memory store does not accept what a database would not.
      strings(document).some(holdsNul)
        ? Effect.fail(
          new UnstorableValue({
            operation: "DocumentStore.save",
            subject: `document ${document.publicationId}`,
            reason: nulReason
          })
        )
        : Ref.modify(documents, (map): [DocumentStore.SaveOutcome, Map<string, DocumentStore.StoredDocument>] => {
          const outcome = map.has(document.publicationId) ? "updated" : "created"
          const stored = structuredClone(document)
          passages.replace(stored)
          return [outcome, new Map(map).set(document.publicationId, stored)]
        }),
    findByPublicationId: find,
    findChunk: (publicationId, chunkId) =>
      Effect.map(
        find(publicationId),
        Option.flatMap((document) => Option.fromNullable(document.chunks.find((chunk) => chunk.id === chunkId)))
      ),
    findMetadata: (publicationId) =>
      Effect.map(
        find(publicationId),
        Option.map(({ body: _b, exhibits: _e, sections: _s, chunks: _c, ...metadata }) => metadata)
      ),
    list: (query) =>
      Effect.map(Ref.get(documents), (map) => {
        const matches = [...map.values()].filter(DocumentStore.matchesQuery(query))
          .sort(DocumentStore.compareForListing(query.order))
        return {
          total: matches.length,
          documents: matches.slice(query.offset, query.offset + query.limit).map((
            { body: _b, chunks: _c, exhibits: _e, sections: _s, ...metadata }
          ) => metadata)
        }
      }),
    companyDocuments: (query) =>
      Effect.map(Ref.get(documents), (map) =>
        [...map.values()]
          .filter((document) =>
            (document.cik === query.cik ||
              (document.cik === query.placeholder?.cik && query.placeholder.tickers.includes(document.ticker))) &&
            DocumentStore.matchesQuery(query)(document) &&
            (query.after === undefined || DocumentStore.isAfterKey(query.after)(document))
          )
          .sort(DocumentStore.compareNewestFirst)
          .slice(0, Math.max(0, query.limit))
          .map(({ body: _b, chunks: _c, exhibits: _e, sections: _s, ...metadata }) => metadata)),
    companyTickers: (cik) =>
      Effect.map(Ref.get(documents), (map) => {
        const own = [...map.values()].filter((document) => document.cik === cik)
        // sort's default order: by UTF-16 code units.
        return [...new Set(own.map((document) => document.ticker))].sort()
      }),
    companyNames: Effect.map(Ref.get(documents), (map) => {
      const pairs = new Map([...map.values()].map(({ companyName, ticker }) => [
        JSON.stringify([ticker, companyName]),
        { ticker, companyName }
      ]))
      // By code units, as the SQL store's `COLLATE "C"` orders them.
      const byUnits = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0
      return [...pairs.values()].sort((a, b) => byUnits(a.ticker, b.ticker) || byUnits(a.companyName, b.companyName))
    }),
    searchSections: (query) =>
      Effect.map(Ref.get(documents), (map) => {
        const hits = [...map.values()]
          .filter(DocumentStore.matchesQuery(query))
          .sort(DocumentStore.compareForListing("desc"))
          .flatMap(({ body: _b, chunks: _c, exhibits: _e, sections, ...metadata }) =>
            sections.filter(DocumentStore.matchesSection(query.match, metadata.docType)).map((section) => ({
              document: metadata,
              section
            }))
          )
        return { total: hits.length, results: hits.slice(query.offset, query.offset + query.limit) }
      }),
    countByType: (cik) =>
      Effect.map(Ref.get(documents), (map) => {
        const byType = new Map<string, { count: number; newest: DocumentStore.StoredDocument }>()
        for (const document of map.values()) {
          if (document.cik !== cik) continue
          const seen = byType.get(document.docType)
          const isNewer = seen === undefined || DocumentStore.compareForListing("asc")(document, seen.newest) > 0
          byType.set(document.docType, {
            count: (seen?.count ?? 0) + 1,
            newest: isNewer ? document : seen.newest
          })
        }
        return [...byType.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([, { count, newest }]) => ({ docType: newest.docType, count, latest: newest.publicationId }))
      })
  }
  const index: SearchIndex.Service = {
    search: (query) => Effect.sync(() => passages.search(query))
  }
  return { documents: service, index }
})

interface CompanyRecord {
  readonly company: CompanyStore.Company
  readonly exchange?: string | undefined
  /** The company's place in the regulator's list; absent when it is not listed. */
  readonly position?: number | undefined
  readonly details?: CompanyStore.CompanyDetails | undefined
  /** When the details were read, in epoch milliseconds. */
  readonly detailsAt?: number | undefined
}

interface Listing {
  readonly cik: string
  readonly exchange?: string | undefined
  readonly position: number
}

interface CompanyState {
  readonly companies: ReadonlyMap<string, CompanyRecord>
  /** By ticker. */
  readonly listings: ReadonlyMap<string, Listing>
}

const byTickerThenCik = (a: CompanyStore.Company, b: CompanyStore.Company) =>
  a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0

const summaryOf = ({ company, exchange }: CompanyRecord): CompanyStore.CompanySummary => ({
  cik: company.cik,
  ticker: company.ticker,
  name: company.name,
  ...(exchange === undefined ? {} : { exchange })
})

export const makeCompanyStore = Effect.gen(function*() {
  const state = yield* Ref.make<CompanyState>({ companies: new Map(), listings: new Map() })

  const listedTickers = (current: CompanyState, cik: string) =>
    [...current.listings.entries()]
      .filter(([, listing]) => listing.cik === cik)
      .sort(([, a], [, b]) => a.position - b.position)
      .map(([ticker]) => ticker as Ids.Ticker)

  // The company a ticker names (see `CompanyStore.Service.findByTicker`): its primary ticker, else
  // one its newest cover lists, else the regulator's list's.
  const named = (current: CompanyState, ticker: Ids.Ticker): CompanyRecord | undefined => {
    const records = [...current.companies.values()]
    return records.find((record) => record.company.ticker === ticker) ??
      records.filter((record) => record.company.tickers?.includes(ticker) === true)
        .sort((a, b) => (b.company.asOf ?? "").localeCompare(a.company.asOf ?? ""))[0] ??
      current.companies.get(current.listings.get(ticker)?.cik ?? "")
  }

  // The best rank `q` matches the record with, if any (see `CompanyStore.MatchRank`).
  const rankOf = (current: CompanyState, q: string) => {
    const ticker = CompanyStore.tickerQuery(q)
    const cik = CompanyStore.cikQuery(q)
    const words = CompanyStore.nameWords(q)
    return (record: CompanyRecord): CompanyStore.MatchRank | undefined => {
      const tickers = ticker === undefined ? [] : [record.company.ticker, ...listedTickers(current, record.company.cik)]
      if (ticker !== undefined && [...tickers, ...(record.company.tickers ?? [])].includes(ticker as Ids.Ticker)) {
        return 0
      }
      if (cik !== undefined && record.company.cik === cik) return 1
      if (ticker !== undefined && tickers.some((candidate) => candidate.startsWith(ticker))) return 2
      if (words.length > 0) {
        const begins = (name: string) => {
          const nameWords = CompanyStore.nameWords(name)
          return words.every((word) => nameWords.some((nameWord) => nameWord.startsWith(word)))
        }
        if (begins(record.company.name)) return 3
        const formerNames = record.details?.formerNames ?? []
        if (formerNames.length > 0 && begins(formerNames.map((former) => former.name).join(" "))) return 4
      }
      return undefined
    }
  }

  const service: CompanyStore.Service = {
    upsert: (company) =>
      Ref.update(state, (current) => {
        const record = current.companies.get(company.cik)
        if (record !== undefined && !CompanyStore.supersedes(company, record.company)) return current
        const { asOf, cik, name, ticker } = company
        // Without tickers of its own, a record keeps the stored ones of the same primary ticker.
        const tickers = company.tickers ??
          (record?.company.ticker === ticker ? record.company.tickers : undefined)
        return {
          ...current,
          companies: new Map(current.companies).set(cik, {
            ...record,
            company: {
              cik,
              ticker,
              name,
              ...(asOf === undefined ? {} : { asOf }),
              ...(tickers === undefined ? {} : { tickers: [...tickers] })
            }
          })
        }
      }),
    findByCik: (cik) =>
      Effect.map(Ref.get(state), (current) => Option.fromNullable(current.companies.get(cik)?.company)),
    findByTicker: (ticker) =>
      Effect.map(Ref.get(state), (current) => Option.fromNullable(named(current, ticker)?.company)),
    aliasesOf: (tickers) =>
      Effect.map(Ref.get(state), (current) =>
        new Map(tickers.map((ticker) => {
          const record = named(current, ticker)
          return [
            ticker,
            record === undefined
              ? [ticker]
              : CompanyStore.everyTicker(record.company, listedTickers(current, record.company.cik))
          ] as const
        }))),
    saveListing: (listed) =>
      Ref.modify(state, (current) => {
        const listings = new Map<string, Listing>()
        const mains = new Map<string, CompanyStore.ListedTicker & { readonly position: number }>()
        listed.forEach((entry, position) => {
          if (listings.has(entry.ticker)) return
          listings.set(entry.ticker, { cik: entry.cik, exchange: entry.exchange, position })
          if (!mains.has(entry.cik)) mains.set(entry.cik, { ...entry, position })
        })
        const companies = new Map<string, CompanyRecord>()
        for (const [cik, record] of current.companies) {
          // No longer listed: the name and ticker stay, the exchange and place go.
          companies.set(
            cik,
            mains.has(cik) ? record : { company: record.company, details: record.details, detailsAt: record.detailsAt }
          )
        }
        for (const [cik, main] of mains) {
          const record = companies.get(cik)
          const listingName = { cik: main.cik, ticker: main.ticker, name: main.name }
          const company = record === undefined || record.company.asOf === undefined ? listingName : record.company
          companies.set(cik, { ...record, company, exchange: main.exchange, position: main.position })
        }
        return [{ companies: mains.size, tickers: listings.size }, { companies, listings }]
      }),
    search: (query) =>
      Effect.map(Ref.get(state), (current) => {
        const q = query.q?.trim() ?? ""
        const exchange = query.exchange?.toLowerCase()
        const rank = rankOf(current, q)
        const matches = [...current.companies.values()]
          .filter((record) => exchange === undefined || record.exchange?.toLowerCase() === exchange)
          .flatMap((record) => {
            const matched = q === "" ? 0 : rank(record)
            return matched === undefined ? [] : [{ record, rank: matched }]
          })
          .sort((a, b) => a.rank - b.rank || byTickerThenCik(a.record.company, b.record.company))
        return {
          companies: matches.slice(query.offset, query.offset + query.limit).map(({ record }) => summaryOf(record)),
          total: matches.length
        }
      }),
    findProfile: (ticker) =>
      Effect.map(Ref.get(state), (current) => {
        const record = named(current, ticker)
        if (record === undefined) return Option.none()
        return Option.some({
          company: record.company,
          ...(record.exchange === undefined ? {} : { exchange: record.exchange }),
          tickers: CompanyStore.everyTicker(record.company, listedTickers(current, record.company.cik)),
          ...(record.details === undefined ? {} : { details: record.details })
        })
      }),
    saveDetails: (cik, details) =>
      Effect.flatMap(Clock.currentTimeMillis, (detailsAt) =>
        Ref.update(state, (current) => {
          const record = current.companies.get(cik)
          if (record === undefined) return current
          return { ...current, companies: new Map(current.companies).set(cik, { ...record, details, detailsAt }) }
        })),
    detailsBacklog: (query) =>
      Effect.map(Ref.get(state), (current) => {
        const preferred = new Set<string>(query.preferred)
        const key = (record: CompanyRecord) =>
          [
            preferred.has(record.company.ticker) ? 0 : 1,
            record.company.asOf === undefined ? 1 : 0,
            record.position ?? Number.MAX_SAFE_INTEGER
          ] as const
        const readBefore = query.readBefore?.getTime()
        // Never read first (as 0), then the details read longest ago.
        const readAt = (record: CompanyRecord) => record.detailsAt === undefined ? 0 : 1 + record.detailsAt
        return [...current.companies.values()]
          .filter((record) =>
            record.details === undefined ||
            (readBefore !== undefined && record.detailsAt !== undefined && record.detailsAt < readBefore)
          )
          .sort((a, b) => {
            const [x, y] = [key(a), key(b)]
            return readAt(a) - readAt(b) || x[0] - y[0] || x[1] - y[1] || x[2] - y[2] ||
              (a.company.cik < b.company.cik ? -1 : 1)
          })
          .slice(0, query.limit)
          .map((record) => record.company.cik)
      })
  }
  return service
})
