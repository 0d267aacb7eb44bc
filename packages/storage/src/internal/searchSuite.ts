// The SearchIndex part of the conformance suite: what every adapter's index finds, how it ranks
// and pages, and that it follows the document store's saves. Each test works on tickers of its own,
// since the suite shares one store; scores depend on every stored passage, so tests compare the
// order of clearly different passages, never exact scores.
import { assert, describe, type Vitest } from "@effect/vitest"
import type { Blocks, Document, Ids } from "@filings/domain"
import { Effect, Either } from "effect"
import { DocumentStore, type StoredDocument } from "../DocumentStore.js"
import { examinedAtMost, rankedAtMost, SearchIndex, type SearchQuery } from "../SearchIndex.js"
import { parseQuery } from "../SearchText.js"
import type { Stores } from "../Stores.js"

/** What the suite needs from the conformance module: fresh tickers and a complete document. */
export interface SearchSamples {
  readonly ticker: () => Ids.Ticker
  readonly document: (overrides: Partial<StoredDocument>) => StoredDocument
}

/** A document whose body is `passages`, one chunk each, the n-th on page n + 1. */
const withPassages = (
  samples: SearchSamples,
  ticker: Ids.Ticker,
  passages: ReadonlyArray<{ readonly text: string; readonly section?: string }>,
  overrides: Partial<StoredDocument> = {}
): StoredDocument => {
  const chunks: Array<Document.Chunk> = passages.map((passage, index) => ({
    id: `c${String(index + 1).padStart(4, "0")}`,
    text: passage.text,
    ...(passage.section === undefined ? {} : { section: passage.section }),
    pageStart: index + 1,
    pageEnd: index + 1
  }))
  const titles = [...new Set(passages.flatMap((passage) => passage.section === undefined ? [] : [passage.section]))]
  return samples.document({
    ticker,
    companyName: "Sample Anvils Inc.",
    body: chunks.map((chunk) => chunk.text).join("\n"),
    chunks,
    sections: titles.map((title) => ({
      title,
      ...(/^Item 1A\./.test(title) ? { item: "1A" } : /^Item 7\./.test(title) ? { item: "7" } : {}),
      content: passages.filter((passage) => passage.section === title).map((passage) => passage.text).join("\n"),
      wordCount: 10,
      pageStart: 1,
      pageEnd: passages.length
    })),
    ...overrides
  })
}

const parsed = (query: string) => Either.getOrThrow(parseQuery(query))

const search = (query: string, filters: Omit<SearchQuery, "query" | "limit" | "offset">, limit = 10, offset = 0) =>
  Effect.flatMap(SearchIndex, (index) => index.search({ query: parsed(query), limit, offset, ...filters }))

const chunkIds = (page: { readonly hits: ReadonlyArray<{ readonly chunk: Document.Chunk }> }) =>
  page.hits.map((hit) => hit.chunk.id)

/** Registers the SearchIndex tests on a layer's `it`. */
export const searchIndexSuite = (it: Vitest.MethodsNonLive<Stores>, samples: SearchSamples) =>
  describe("SearchIndex", () => {
    const save = (document: StoredDocument) => Effect.flatMap(DocumentStore, (store) => store.save(document))

    it.effect("finds a saved passage by its words, with its document, pages and text as saved", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        const document = withPassages(samples, ticker, [
          { text: "We design anvils and sell them to coyotes." },
          { text: "In fiscal 2018 we acquired Roadrunner Traps for cash.", section: "Item 7. MD&A" }
        ])
        yield* save(document)
        const page = yield* search("acquisition of Roadrunner", { tickers: [ticker] })
        assert.strictEqual(page.total, 1)
        const [hit] = page.hits
        assert.strictEqual(hit?.document.publicationId, document.publicationId)
        assert.strictEqual(hit?.document.companyName, "Sample Anvils Inc.")
        assert.deepStrictEqual(hit?.chunk, document.chunks[1])
        assert.isAbove(hit?.score ?? 0, 0)
      }))

    it.effect("gives each hit's blocks when asked, as saved, and leaves a chunk saved without blocks without", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        const table: Blocks.Block = {
          kind: "table",
          page: 4,
          rows: [["", "2024"], ["Anvils sold", "1,200"]],
          headerRows: 1
        }
        const document = withPassages(samples, ticker, [
          { text: "| | 2024 |\n| --- | --- |\n| Anvils sold | 1,200 |\n" },
          { text: "Anvils sold to coyotes rose again." }
        ])
        const [withBlocks, without] = document.chunks
        yield* save({ ...document, chunks: [{ ...withBlocks!, blocks: [table] }, without!] })
        const page = yield* search("anvils sold", { tickers: [ticker], withBlocks: true })
        const found = new Map(page.hits.map((hit) => [hit.chunk.id, hit.chunk]))
        assert.deepStrictEqual(found.get("c0001")?.blocks, [table])
        assert.isTrue(found.has("c0002"))
        assert.strictEqual(found.get("c0002")?.blocks, undefined)
      }))

    it.effect("reads figures without their commas and signs, and table rows by label and number", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        yield* save(withPassages(samples, ticker, [
          { text: "| Item | 2018 | 2017 |\n| - | - | - |\n| Capital expenditures | $(1,577) | $(1,373) |\n" },
          { text: "Capital spending plans are reviewed every year by the board." },
          { text: "Revenue was 1,373.5 million in 2017." }
        ]))
        assert.deepStrictEqual(chunkIds(yield* search("$1,577", { tickers: [ticker] })), ["c0001"])
        assert.deepStrictEqual(chunkIds(yield* search("1373.5", { tickers: [ticker] })), ["c0003"])
        const ranked = yield* search("capital expenditure 2018", { tickers: [ticker] })
        assert.strictEqual(ranked.hits[0]?.chunk.id, "c0001")
        assert.sameMembers(chunkIds(ranked), ["c0001", "c0002"])
      }))

    it.effect("quoted phrases must be held, excluded words must not, OR takes either side", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        yield* save(withPassages(samples, ticker, [
          { text: "The cost of sales rose with steel prices." },
          { text: "Sales rose; the cost of freight fell." },
          { text: "Steel tariffs raised prices of anvils." },
          { text: "A merger with Acme Traps was announced." }
        ]))
        assert.deepStrictEqual(chunkIds(yield* search("\"cost of sales\"", { tickers: [ticker] })), ["c0001"])
        assert.sameMembers(chunkIds(yield* search("prices -steel", { tickers: [ticker] })), [])
        assert.sameMembers(chunkIds(yield* search("rose -\"cost of sales\"", { tickers: [ticker] })), ["c0002"])
        assert.sameMembers(chunkIds(yield* search("merger OR tariffs", { tickers: [ticker] })), ["c0003", "c0004"])
        assert.sameMembers(chunkIds(yield* search("\"cost of freight\" OR \"cost of sales\"", { tickers: [ticker] })), [
          "c0001",
          "c0002"
        ])
      }))

    it.effect("ranks a passage holding every word, side by side, above one holding some", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        yield* save(withPassages(samples, ticker, [
          { text: "Supply of anvils was steady. Chain stores in Taiwan bought more." },
          { text: "A supply chain disruption in Taiwan delayed anvil shipments." },
          { text: "Disruption of deliveries was minor." }
        ]))
        const page = yield* search("supply chain disruption Taiwan", { tickers: [ticker] })
        assert.deepStrictEqual(chunkIds(page), ["c0002", "c0001", "c0003"])
        assert.isAbove(page.hits[0]!.score, page.hits[1]!.score)
      }))

    it.effect("counts how often a passage holds a word: of two passages as long, the one holding it more ranks first", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        yield* save(withPassages(samples, ticker, [
          { text: "Tungsten sales, steel sales, copper sales and iron sales all grew." },
          { text: "Tungsten prices, steel volumes, copper costs and iron sales all grew." }
        ]))
        const page = yield* search("sales", { tickers: [ticker] })
        assert.deepStrictEqual(chunkIds(page), ["c0001", "c0002"])
        assert.isAbove(page.hits[0]!.score, page.hits[1]!.score)
      }))

    it.effect("finds a passage by its document's ticker, company name, form and section title", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        yield* save(withPassages(samples, ticker, [
          { text: "Coyotes may stop buying.", section: "Item 1A. Risk Factors" },
          { text: "Sales grew.", section: "Item 7. MD&A" }
        ]))
        assert.deepStrictEqual(chunkIds(yield* search(`${ticker} risk factors`, { tickers: [ticker] })), [
          "c0001",
          "c0002"
        ])
        assert.deepStrictEqual(chunkIds(yield* search(`Item 1A`, { tickers: [ticker] })).slice(0, 1), ["c0001"])
        assert.strictEqual((yield* search("10-K anvils company", { tickers: [ticker] })).total, 2)
      }))

    it.effect("filters by ticker, form, filing date and section", () =>
      Effect.gen(function*() {
        const [one, other] = [samples.ticker(), samples.ticker()]
        const text = [{ text: "Impairment of goodwill was recorded.", section: "Item 7. MD&A" }, {
          text: "Goodwill impairment is a risk.",
          section: "Item 1A. Risk Factors"
        }]
        const annual = withPassages(samples, one, text, { filingDate: "2024-02-01" as never })
        const quarterly = withPassages(samples, one, text, { docType: "10-Q", filingDate: "2024-05-01" as never })
        const otherCompany = withPassages(samples, other, text, { filingDate: "2024-03-01" as never })
        yield* Effect.all([save(annual), save(quarterly), save(otherCompany)])
        const both = [one, other]
        assert.strictEqual((yield* search("goodwill", { tickers: both })).total, 6)
        assert.strictEqual((yield* search("goodwill", { tickers: [other] })).total, 2)
        assert.strictEqual((yield* search("goodwill", { tickers: both, docTypes: ["10-Q"] })).total, 2)
        const dated = yield* search("goodwill", {
          tickers: both,
          startDate: "2024-02-15" as never,
          endDate: "2024-03-31" as never
        })
        assert.deepStrictEqual([...new Set(dated.hits.map((hit) => hit.document.publicationId))], [
          otherCompany.publicationId
        ])
        const risks = yield* search("goodwill", {
          tickers: both,
          sections: { items: [{ docType: "10-K", item: "1A" }], names: [] }
        })
        assert.strictEqual(risks.total, 2)
        assert.isTrue(risks.hits.every((hit) => hit.chunk.section === "Item 1A. Risk Factors"))
        const byName = yield* search("goodwill", {
          tickers: [one],
          sections: { items: [], names: ["item 7. md&a"] }
        })
        assert.strictEqual(byName.total, 2)
      }))

    it.effect("a saved document's passages replace the ones it had; none outlives it", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        const first = withPassages(samples, ticker, [{ text: "Zeppelins are our oldest line." }, {
          text: "Zeppelins sold well."
        }])
        yield* save(first)
        assert.strictEqual((yield* search("zeppelin", { tickers: [ticker] })).total, 2)
        yield* save(withPassages(samples, ticker, [{ text: "Balloons replaced the old line." }], {
          publicationId: first.publicationId
        }))
        assert.strictEqual((yield* search("zeppelin", { tickers: [ticker] })).total, 0)
        const page = yield* search("balloons", { tickers: [ticker] })
        assert.deepStrictEqual(chunkIds(page), ["c0001"])
      }))

    it.effect("pages exactly: at every page size the pages make up the whole list, nothing repeated", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        // Equal passages in two documents of one date: ties broken by publication id and body order.
        const passages = Array.from({ length: 5 }, () => ({ text: "Anvil demand rose." }))
        yield* save(withPassages(samples, ticker, passages, { filingDate: "2024-01-05" as never }))
        yield* save(withPassages(samples, ticker, passages, { filingDate: "2024-01-05" as never }))
        yield* save(withPassages(samples, ticker, [{ text: "Anvil demand rose and anvil prices rose." }]))
        const whole = yield* search("anvil demand", { tickers: [ticker] }, 100)
        assert.strictEqual(whole.total, 11)
        assert.strictEqual(whole.hits.length, 11)
        const keys = whole.hits.map((hit) => `${hit.document.publicationId}/${hit.chunk.id}`)
        assert.strictEqual(new Set(keys).size, 11)
        for (let size = 1; size <= 12; size++) {
          const paged: Array<string> = []
          for (let offset = 0; offset < whole.total; offset += size) {
            const page = yield* search("anvil demand", { tickers: [ticker] }, size, offset)
            assert.strictEqual(page.total, 11)
            paged.push(...page.hits.map((hit) => `${hit.document.publicationId}/${hit.chunk.id}`))
          }
          assert.deepStrictEqual(paged, keys, `page size ${size}`)
        }
        const past = yield* search("anvil demand", { tickers: [ticker] }, 5, 50)
        assert.deepStrictEqual(past, { hits: [], total: 11 })
      }))

    it.effect("ranks the newest matches, at most rankedAtMost of them, and says so in total", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        // Three filings of equal passages, each a third of the cap and one more: the newest two
        // are ranked whole, the oldest from its beginning until the cap is reached.
        const perFiling = Math.floor(rankedAtMost / 3) + 1
        const passages = Array.from({ length: perFiling }, () => ({ text: "Quokka sightings rose." }))
        const dates = ["2021-03-01", "2022-03-01", "2023-03-01"] as const
        const filings = dates.map((filingDate) =>
          withPassages(samples, ticker, passages, { filingDate: filingDate as never })
        )
        for (const filing of filings) yield* save(filing)
        const last = yield* search("quokka", { tickers: [ticker] }, 1, rankedAtMost - 1)
        assert.strictEqual(last.total, rankedAtMost)
        const ranked = rankedAtMost - 2 * perFiling
        assert.strictEqual(last.hits[0]?.document.publicationId, filings[0]!.publicationId)
        assert.strictEqual(last.hits[0]?.chunk.id, `c${String(ranked).padStart(4, "0")}`)
        assert.deepStrictEqual(yield* search("quokka", { tickers: [ticker] }, 10, rankedAtMost), {
          hits: [],
          total: rankedAtMost
        })
        const first = yield* search("quokka", { tickers: [ticker] }, 1)
        assert.strictEqual(first.hits[0]?.document.publicationId, filings[2]!.publicationId)
        assert.strictEqual(first.hits[0]?.chunk.id, "c0001")
      }))

    it.effect("looks for a phrase in the newest examinedAtMost passages holding its words", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        // The newest filing's passages hold both words, the last of them as the phrase; an older
        // filing's passages hold the phrase too, but come after the bound.
        const newer = withPassages(samples, ticker, [
          ...Array.from({ length: examinedAtMost - 1 }, () => ({ text: "Sightings of the quokka rose." })),
          { text: "Quokka sightings rose." }
        ], { filingDate: "2023-03-01" as never })
        const older = withPassages(samples, ticker, [{ text: "Quokka sightings fell." }], {
          filingDate: "2022-03-01" as never
        })
        yield* save(older)
        yield* save(newer)
        const phrase = yield* search("\"quokka sightings\"", { tickers: [ticker] })
        assert.strictEqual(phrase.total, 1)
        assert.strictEqual(phrase.hits[0]?.document.publicationId, newer.publicationId)
        assert.strictEqual(phrase.hits[0]?.chunk.id, `c${examinedAtMost}`)
        // Within the older filing alone, the phrase is within the bound.
        const older2022 = yield* search("\"quokka sightings\"", { tickers: [ticker], endDate: "2022-12-31" as never })
        assert.deepStrictEqual(older2022.hits.map((hit) => hit.document.publicationId), [older.publicationId])
      }))

    it.effect("a query that matches nothing is an empty page", () =>
      Effect.gen(function*() {
        const ticker = samples.ticker()
        yield* save(withPassages(samples, ticker, [{ text: "Anvils." }]))
        assert.deepStrictEqual(yield* search("unobtainium", { tickers: [ticker] }), { hits: [], total: 0 })
      }))
  })
