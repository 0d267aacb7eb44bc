import { describe, expect, it } from "@effect/vitest"
import type { Ids } from "@filings/domain"
import { DocumentStore, MemoryStorage, NamedCompanies, SearchIndex, SearchText } from "@filings/storage"
import { Effect, Either, Layer } from "effect"

const known = NamedCompanies.companyTerms([
  { ticker: "AAPL", companyName: "Apple Inc." },
  { ticker: "GME", companyName: "GameStop Corp." },
  { ticker: "ON", companyName: "ON Semiconductor Corp" },
  { ticker: "KO", companyName: "The Coca-Cola Company" },
  { ticker: "T", companyName: "AT&T Inc." }
])
const named = (query: string) => [...NamedCompanies.namedIn(query, known)].sort()
const parsed = (query: string) => Either.getOrThrow(SearchText.parseQuery(query))

describe("NamedCompanies", () => {
  it("knows each company by its ticker and the first word of its name, after a leading The", () => {
    // "ON" is a common word, so neither the ticker nor the name's first word of ON Semiconductor names it.
    expect([...known.tickers].sort()).toEqual(["aapl", "gme", "ko", "t"])
    expect([...known.names].sort()).toEqual(["appl", "at&t", "cocacola", "gamestop"])
  })

  it("finds a ticker written in capitals and a name written with a capital, possessives included", () => {
    expect(named("What was GME's financing cash flow?")).toEqual(["gme"])
    expect(named("How much revenue did Apple report?")).toEqual(["appl"])
    expect(named("GameStop's retained earnings")).toEqual(["gamestop"])
    expect(named("AAPL revenue")).toEqual(["aapl"])
    expect(named("Coca-Cola and AT&T")).toEqual(["at&t", "cocacola"])
  })

  it("does not take ordinary words for companies: lower case, or a ticker written as a word", () => {
    expect(named("what did apple report")).toEqual([])
    expect(named("revenue on products")).toEqual([])
    expect(named("On a constant currency basis")).toEqual([])
    expect(named("gme cash")).toEqual([])
  })

  it("weighs the concept that names a company, and leaves every other concept as it was", () => {
    const query = parsed("Apple capital expenditure")
    const favoured = NamedCompanies.favoring(query, new Set(["appl"]))
    const weights = favoured.concepts.map((concept) => concept.alternatives.map((phrase) => phrase.weight ?? 1))
    const before = query.concepts.map((concept) => concept.alternatives.map((phrase) => phrase.weight ?? 1))
    expect(weights[0]).toEqual(before[0]!.map((weight) => weight * NamedCompanies.namedCompanyWeight))
    expect(weights.slice(1)).toEqual(before.slice(1))
    expect(NamedCompanies.favoring(query, new Set())).toBe(query)
  })

  it.effect("ranks the named company's passage first where another company's says more of the rest", () =>
    Effect.gen(function*() {
      const documents = yield* DocumentStore.DocumentStore
      const index = yield* SearchIndex.SearchIndex
      const document = (ticker: string, companyName: string, text: string, id: string) =>
        documents.save({
          publicationId: id as Ids.PublicationId,
          ticker: ticker as Ids.Ticker,
          companyName,
          cik: "0000000001" as Ids.Cik,
          docType: "10-K",
          title: `${companyName} 10-K`,
          filingDate: "2024-03-01" as never,
          period: "FY 2023",
          secUrl: "https://www.sec.gov/x",
          wordCount: 10,
          items: [],
          body: text,
          exhibits: [],
          sections: [],
          chunks: [{ id: "c0001", text, pageStart: 1, pageEnd: 1 }]
        })
      // Acme's name is in every passage of its filings, so alone it weighs little.
      yield* document("ACME", "Acme Anvils Inc.", "Capital expenditure was $12 million.", "0000000001-24-000001")
      for (
        const [index, text] of ["Anvils sold well.", "Traps sold well.", "Rockets sold well.", "Magnets too."].entries()
      ) {
        yield* document("ACME", "Acme Anvils Inc.", text, `0000000001-24-00000${index + 2}`)
      }
      yield* document(
        "GLBX",
        "Globex Corp",
        "Capital expenditure rose; capital expenditure on plants and capital expenditure on stores.",
        "0000000002-24-000001"
      )
      yield* document("INIT", "Initech Inc", "Office supplies.", "0000000003-24-000001")
      const terms = NamedCompanies.companyTerms(yield* documents.companyNames)
      const first = (query: string) =>
        Effect.map(
          index.search({
            query: NamedCompanies.favoring(parsed(query), NamedCompanies.namedIn(query, terms)),
            limit: 1,
            offset: 0
          }),
          (page) => page.hits[0]?.document.ticker
        )
      expect(yield* first("What was Acme capital expenditure")).toBe("ACME")
      expect(yield* first("what was acme capital expenditure")).toBe("GLBX")
    }).pipe(Effect.provide(Layer.merge(MemoryStorage.layer, MemoryStorage.documentStore))))
})
