// The DocumentStore part of the conformance suite: saving, reading and listing documents, a company's
// documents by type, and the section search.
import { assert, describe, type Vitest } from "@effect/vitest"
import { Document, type Ids } from "@filings/domain"
import { Array as Arr, Effect, Option } from "effect"
import { type DocumentKey, DocumentStore, type SectionMatch, type StoredDocument } from "../DocumentStore.js"
import { nulReason } from "../StorageError.js"
import type { Stores } from "../Stores.js"
import { sampleBlocks, sampleDocument, uniqueAccession, uniqueCik, uniqueTicker } from "./conformanceSamples.js"

const metadataOf = ({ body: _b, chunks: _c, exhibits: _e, sections: _s, ...metadata }: StoredDocument) => metadata

/** Registers the DocumentStore and DocumentStore.companyDocuments and DocumentStore.searchSections tests on a layer's `it`. */
export const documentSuite = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("DocumentStore", () => {
    it.effect("counts a company's documents by type, each type with its newest", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const cik = uniqueCik()
        const older = sampleDocument({ cik, docType: "10-K", filingDate: "2023-11-01" })
        const newer = sampleDocument({ cik, docType: "10-K", filingDate: "2024-11-01" })
        const current = sampleDocument({ cik, docType: "8-K", filingDate: "2024-02-01" })
        for (const document of [newer, current, older]) yield* store.save(document)
        assert.deepStrictEqual(yield* store.countByType(cik), [
          { docType: "10-K", count: 2, latest: newer.publicationId },
          { docType: "8-K", count: 1, latest: current.publicationId }
        ])
        assert.deepStrictEqual(yield* store.countByType(uniqueCik()), [])
      }))

    it.effect("stores a document and reads every field back", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const document = sampleDocument()
        assert.strictEqual(yield* store.save(document), "created")
        assert.deepStrictEqual(yield* store.findByPublicationId(document.publicationId), Option.some(document))
        assert.deepStrictEqual(yield* store.findMetadata(document.publicationId), Option.some(metadataOf(document)))
      }))

    it.effect("keeps each chunk's blocks as saved, so a section's blocks read back from them", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const document = sampleDocument()
        yield* store.save(document)
        const stored = Option.getOrThrow(yield* store.findByPublicationId(document.publicationId))
        assert.deepStrictEqual(stored.chunks.flatMap((chunk) => chunk.blocks ?? []), sampleBlocks)
        const chunk = Option.getOrThrow(yield* store.findChunk(document.publicationId, "c0002"))
        assert.deepStrictEqual(chunk.blocks, sampleBlocks.slice(3))
        const [cover, business] = stored.sections
        assert.deepStrictEqual(Document.sectionBlocks(stored.chunks, cover!), sampleBlocks.slice(0, 3))
        // A section stored without its range, or a document without its blocks, reads as not kept.
        assert.strictEqual(Document.sectionBlocks(stored.chunks, business!), undefined)
        const unkept = stored.chunks.map(({ blocks: _blocks, ...chunk }) => chunk)
        assert.strictEqual(Document.sectionBlocks(unkept, cover!), undefined)
        // Read for its Markdown alone, the document may come without blocks, and is otherwise the same.
        const served = Option.getOrThrow(
          yield* store.findByPublicationId(document.publicationId, { withoutBlocks: true })
        )
        assert.deepStrictEqual({ ...served, chunks: served.chunks.map(({ blocks: _blocks, ...chunk }) => chunk) }, {
          ...document,
          chunks: unkept
        })
      }))

    it.effect("saving the same publication id again replaces the document instead of adding one", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const ticker = uniqueTicker()
        const first = sampleDocument({ ticker })
        const second = {
          ...first,
          body: "replaced",
          wordCount: 1,
          sections: [],
          exhibits: [],
          chunks: [{ id: "c0001", text: "replaced", pageStart: 1, pageEnd: 1 }]
        }
        yield* store.save(first)
        assert.strictEqual(yield* store.save(second), "updated")
        assert.deepStrictEqual(yield* store.findByPublicationId(first.publicationId), Option.some(second))
        const page = yield* store.list({ tickers: [ticker], limit: 10, offset: 0, order: "desc" })
        assert.strictEqual(page.total, 1)
      }))

    it.effect("concurrent saves of one document create it exactly once", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const document = sampleDocument({ ticker: uniqueTicker() })
        const outcomes = yield* Effect.all(Arr.replicate(store.save(document), 6), { concurrency: "unbounded" })
        assert.strictEqual(outcomes.filter((outcome) => outcome === "created").length, 1)
        const page = yield* store.list({ tickers: [document.ticker], limit: 10, offset: 0, order: "desc" })
        assert.strictEqual(page.total, 1)
      }))

    it.effect("a document whose text holds a NUL is refused as unstorable, naming it, and nothing is kept", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const clean = sampleDocument({ ticker: uniqueTicker() })
        // Where a NUL may sit: the body (text), a section (a row), an exhibit (JSON).
        const dirty: ReadonlyArray<StoredDocument> = [
          { ...clean, body: "Revenue\u0000 grew" },
          { ...clean, sections: [{ ...clean.sections[0]!, content: "risk\u0000" }] },
          { ...clean, exhibits: [{ exhibitNumber: "99.1", title: "Release", content: "a\u0000b" }] }
        ]
        for (const document of dirty) {
          const refused = yield* Effect.flip(store.save(document))
          assert.strictEqual(refused._tag, "UnstorableValue")
          if (refused._tag === "UnstorableValue") {
            assert.strictEqual(refused.operation, "DocumentStore.save")
            assert.strictEqual(refused.subject, `document ${document.publicationId}`)
            assert.strictEqual(refused.reason, nulReason)
          }
          assert.isTrue(Option.isNone(yield* store.findByPublicationId(document.publicationId)))
        }
        // The refusal is about the value only: the clean document is stored as ever.
        assert.strictEqual(yield* store.save(clean), "created")
      }))

    it.effect("an unknown publication id is none", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        assert.isTrue(Option.isNone(yield* store.findByPublicationId(uniqueAccession())))
        assert.isTrue(Option.isNone(yield* store.findMetadata(uniqueAccession())))
      }))

    it.effect("finds one chunk of a document, text and section as saved, and follows a re-save", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const document = sampleDocument()
        yield* store.save(document)
        assert.deepStrictEqual(
          yield* store.findChunk(document.publicationId, "c0001"),
          Option.some(document.chunks[0]!)
        )
        assert.deepStrictEqual(
          yield* store.findChunk(document.publicationId, "c0002"),
          Option.some(document.chunks[1]!)
        )
        assert.isTrue(Option.isNone(yield* store.findChunk(document.publicationId, "c0003")))
        assert.isTrue(Option.isNone(yield* store.findChunk(uniqueAccession(), "c0001")))
        // Chunks that are not the body cut into passages are kept all the same.
        const loose = {
          ...document,
          chunks: [{ id: "c0001", text: "not from the body", section: "Other", pageStart: 4, pageEnd: 4 }]
        }
        yield* store.save(loose)
        assert.deepStrictEqual(
          yield* store.findChunk(document.publicationId, "c0001"),
          Option.some(loose.chunks[0]!)
        )
        assert.isTrue(Option.isNone(yield* store.findChunk(document.publicationId, "c0002")))
      }))

    it.effect("lists by ticker, type and inclusive date range, ordered and paged without overlap", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const [acme, other] = [uniqueTicker(), uniqueTicker()]
        const dates = ["2024-01-15", "2024-02-15", "2024-02-15", "2024-03-15", "2024-04-15"] as const
        const documents = dates.map((filingDate, index) =>
          sampleDocument({ ticker: acme, filingDate, docType: index % 2 === 0 ? "10-Q" : "8-K" })
        )
        yield* Effect.forEach([...documents, sampleDocument({ ticker: other })], store.save)

        const all = yield* store.list({ tickers: [acme], limit: 100, offset: 0, order: "desc" })
        assert.strictEqual(all.total, 5)
        const expectedDesc = [...documents].sort((a, b) =>
          b.filingDate.localeCompare(a.filingDate) || b.publicationId.localeCompare(a.publicationId)
        ).map((document) => document.publicationId)
        assert.deepStrictEqual(all.documents.map((document) => document.publicationId), expectedDesc)
        assert.deepStrictEqual(all.documents[0], metadataOf(documents.find((d) => d.filingDate === "2024-04-15")!))

        const ascending = yield* store.list({ tickers: [acme], limit: 100, offset: 0, order: "asc" })
        assert.deepStrictEqual(ascending.documents.map((d) => d.publicationId), [...expectedDesc].reverse())

        const pages = yield* Effect.forEach(
          [0, 2, 4],
          (offset) => store.list({ tickers: [acme], limit: 2, offset, order: "desc" })
        )
        assert.deepStrictEqual(pages.map((page) => page.total), [5, 5, 5])
        assert.deepStrictEqual(pages.flatMap((page) => page.documents.map((d) => d.publicationId)), expectedDesc)

        const quarterly = yield* store.list({
          tickers: [acme, other],
          docTypes: ["10-Q"],
          limit: 100,
          offset: 0,
          order: "asc"
        })
        assert.deepStrictEqual(quarterly.documents.map((d) => d.filingDate), [
          "2024-01-15",
          "2024-02-15",
          "2024-04-15"
        ])

        const february = yield* store.list({
          tickers: [acme],
          startDate: "2024-02-15",
          endDate: "2024-03-15",
          limit: 100,
          offset: 0,
          order: "asc"
        })
        assert.deepStrictEqual(february.documents.map((d) => d.filingDate), [
          "2024-02-15",
          "2024-02-15",
          "2024-03-15"
        ])

        const beyond = yield* store.list({ tickers: [acme], limit: 10, offset: 10, order: "desc" })
        assert.deepStrictEqual([beyond.total, beyond.documents.length], [5, 0])
      }))
  })

  describe("DocumentStore.companyDocuments", () => {
    it.effect("reads one company's documents by its key under all its tickers, newest first, ids by code units", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const [cik, otherCik] = [uniqueCik(), uniqueCik()]
        // The company's current ticker, a second share class, and a ticker it had before.
        const [acme, secondClass, former] = [uniqueTicker(), uniqueTicker(), uniqueTicker()]
        const filing = uniqueAccession()
        // ex10.1 comes after ex1.10 by code units ("0" > "."), before it in a locale that skips punctuation.
        const documents = [
          sampleDocument({ cik, ticker: acme, publicationId: filing, filingDate: "2024-03-15", docType: "8-K" }),
          sampleDocument({
            cik,
            ticker: acme,
            publicationId: `${filing}-ex10.1` as Ids.PublicationId,
            filingDate: "2024-03-15",
            docType: "PRESS_RELEASE"
          }),
          sampleDocument({
            cik,
            ticker: secondClass,
            publicationId: `${filing}-ex1.10` as Ids.PublicationId,
            filingDate: "2024-03-15",
            docType: "PRESENTATION"
          }),
          sampleDocument({
            cik,
            ticker: secondClass,
            filingDate: "2024-02-15",
            docType: "8-K",
            items: ["Item 2.02"]
          }),
          sampleDocument({ cik, ticker: former, filingDate: "2024-01-15", docType: "10-Q" })
        ]
        yield* Effect.forEach(
          [
            ...documents,
            // Another company's documents, one of them under a ticker the company also has (reused).
            sampleDocument({ cik: otherCik, ticker: uniqueTicker(), filingDate: "2024-03-15" }),
            sampleDocument({ cik: otherCik, ticker: former, filingDate: "2024-02-15" })
          ],
          store.save
        )
        const ids = (found: ReadonlyArray<{ readonly publicationId: string }>) => found.map((d) => d.publicationId)

        const all = yield* store.companyDocuments({ cik, limit: 100 })
        assert.deepStrictEqual(ids(all), [
          `${filing}-ex10.1`,
          `${filing}-ex1.10`,
          filing,
          documents[3]!.publicationId,
          documents[4]!.publicationId
        ])
        assert.deepStrictEqual(all[3], metadataOf(documents[3]!))

        // Every page size, each page after the last one's key: the whole list once, in order.
        for (let limit = 1; limit <= all.length + 1; limit++) {
          const paged: Array<string> = []
          let after: DocumentKey | undefined = undefined
          for (;;) {
            const page: ReadonlyArray<DocumentKey> = yield* store.companyDocuments({ cik, limit, after })
            paged.push(...ids(page))
            const last = page[page.length - 1]
            if (page.length < limit || last === undefined) break
            after = last
          }
          assert.deepStrictEqual(paged, ids(all), `limit ${limit}`)
        }

        // A key that names no stored document: after it within its date, then the older dates.
        assert.deepStrictEqual(
          ids(
            yield* store.companyDocuments({
              cik,
              limit: 100,
              after: { filingDate: "2024-03-15", publicationId: `${filing}-ex10` }
            })
          ),
          ids(all).slice(1)
        )
        assert.deepStrictEqual(
          ids(
            yield* store.companyDocuments({
              cik,
              limit: 100,
              after: { filingDate: "2024-02-20", publicationId: "" }
            })
          ),
          ids(all).slice(3)
        )

        const filtered = yield* store.companyDocuments({
          cik,
          docTypes: ["8-K", "10-Q"],
          startDate: "2024-02-15",
          endDate: "2024-03-15",
          limit: 100
        })
        assert.deepStrictEqual(ids(filtered), [filing, documents[3]!.publicationId])
        assert.deepStrictEqual(yield* store.companyDocuments({ cik: uniqueCik(), limit: 10 }), [])
        assert.deepStrictEqual(yield* store.companyDocuments({ cik, limit: 0 }), [])
      }))

    it.effect("adds the documents under a placeholder key by their tickers, in the same order and pages", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const [cik, placeholderCik] = [uniqueCik(), uniqueCik()]
        const [acme, stranger] = [uniqueTicker(), uniqueTicker()]
        const own = sampleDocument({ cik, ticker: acme, filingDate: "2024-03-15" })
        const stored = sampleDocument({ cik: placeholderCik, ticker: acme, filingDate: "2024-04-15" })
        const older = sampleDocument({ cik: placeholderCik, ticker: acme, filingDate: "2024-01-15" })
        // Under the placeholder too, but another company's ticker.
        const others = sampleDocument({ cik: placeholderCik, ticker: stranger, filingDate: "2024-02-15" })
        yield* Effect.forEach([own, stored, older, others], store.save)
        const ids = (found: ReadonlyArray<{ readonly publicationId: string }>) => found.map((d) => d.publicationId)
        const placeholder = { cik: placeholderCik, tickers: [acme] }

        const all = yield* store.companyDocuments({ cik, placeholder, limit: 10 })
        assert.deepStrictEqual(ids(all), [stored.publicationId, own.publicationId, older.publicationId])
        const rest = yield* store.companyDocuments({ cik, placeholder, after: all[0]!, limit: 10 })
        assert.deepStrictEqual(ids(rest), [own.publicationId, older.publicationId])
        // A company with no key of its own: the placeholder's documents alone.
        assert.deepStrictEqual(ids(yield* store.companyDocuments({ placeholder, limit: 10 })), [
          stored.publicationId,
          older.publicationId
        ])
        assert.deepStrictEqual(
          yield* store.companyDocuments({ placeholder: { cik: placeholderCik, tickers: [] }, limit: 10 }),
          []
        )
      }))

    it.effect("names the tickers a company's documents were stored under, each once, by code units", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const cik = uniqueCik()
        const current = uniqueTicker()
        // By code units "T…-B" comes before "T…A" ("-" < "A"); a locale that skips punctuation puts it after.
        const [secondClass, former] = [`${current}-B` as Ids.Ticker, `${current}A` as Ids.Ticker]
        yield* Effect.forEach([
          sampleDocument({ cik, ticker: current, filingDate: "2024-03-15" }),
          sampleDocument({ cik, ticker: former, filingDate: "2020-03-15" }),
          sampleDocument({ cik, ticker: current, filingDate: "2024-02-15" }),
          sampleDocument({ cik, ticker: secondClass, filingDate: "2024-03-15" }),
          sampleDocument({ cik: uniqueCik(), ticker: uniqueTicker() })
        ], store.save)
        assert.deepStrictEqual(yield* store.companyTickers(cik), [current, secondClass, former])
        assert.deepStrictEqual(yield* store.companyTickers(uniqueCik()), [])
      }))

    it.effect("names every ticker and company name the documents carry, each pair once, by code units", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const ticker = uniqueTicker()
        const [secondClass, other] = [`${ticker}-B` as Ids.Ticker, `${ticker}A` as Ids.Ticker]
        yield* Effect.forEach([
          sampleDocument({ ticker, companyName: "Acme Anvils Inc." }),
          sampleDocument({ ticker, companyName: "Acme Anvils Inc." }),
          sampleDocument({ ticker, companyName: "ACME ANVILS INC" }),
          sampleDocument({ ticker: other, companyName: "Acme Traps" }),
          sampleDocument({ ticker: secondClass, companyName: "Acme Anvils Inc." })
        ], store.save)
        const names = (yield* store.companyNames).filter((name) => name.ticker.startsWith(ticker))
        assert.deepStrictEqual(names, [
          { ticker, companyName: "ACME ANVILS INC" },
          { ticker, companyName: "Acme Anvils Inc." },
          { ticker: secondClass, companyName: "Acme Anvils Inc." },
          { ticker: other, companyName: "Acme Traps" }
        ])
      }))
  })

  describe("DocumentStore.searchSections", () => {
    const section = (title: string, item: string | undefined, content: string) => ({
      title,
      ...(item === undefined ? {} : { item }),
      content,
      wordCount: content.split(" ").length,
      pageStart: 2,
      pageEnd: 3
    })

    it.effect("finds one kind of section across documents, newest first, paged", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const ticker = uniqueTicker()
        const annual = sampleDocument({
          ticker,
          docType: "10-K",
          filingDate: "2024-02-01",
          sections: [
            section("Item 1. Business", "1", "anvils"),
            section("Item 1A. Risk Factors", "1A", "annual risks"),
            section("Item 7. Management's Discussion and Analysis", "7", "annual mdna")
          ]
        })
        const quarterly = sampleDocument({
          ticker,
          docType: "10-Q",
          filingDate: "2024-05-01",
          sections: [
            section("Item 1A. Risk Factors", "1A", "not part two"),
            section("Item 1A. Risk Factors", "part2item1a", "quarterly risks")
          ]
        })
        const current = sampleDocument({
          ticker,
          docType: "8-K",
          filingDate: "2024-06-01",
          sections: [section("Item 2.02 Results of Operations and Financial Condition", "2.02", "results")]
        })
        yield* Effect.forEach([annual, quarterly, current], store.save)

        const risk: SectionMatch = {
          items: [{ docType: "10-K", item: "1A" }, { docType: "10-Q", item: "part2item1a" }],
          names: []
        }
        const page = yield* store.searchSections({ tickers: [ticker], match: risk, limit: 10, offset: 0 })
        assert.strictEqual(page.total, 2)
        assert.deepStrictEqual(
          page.results.map((hit) => [hit.document.publicationId, hit.section.content]),
          [[quarterly.publicationId, "quarterly risks"], [annual.publicationId, "annual risks"]]
        )
        assert.deepStrictEqual(page.results[1]?.document, metadataOf(annual))
        assert.deepStrictEqual(page.results[1]?.section, annual.sections[1])

        const second = yield* store.searchSections({ tickers: [ticker], match: risk, limit: 1, offset: 1 })
        assert.deepStrictEqual([second.total, second.results.map((hit) => hit.section.content)], [2, [
          "annual risks"
        ]])

        const onlyAnnual = yield* store.searchSections({
          tickers: [ticker],
          docTypes: ["10-K"],
          match: risk,
          limit: 10,
          offset: 0
        })
        assert.deepStrictEqual(onlyAnnual.results.map((hit) => hit.section.content), ["annual risks"])

        const byName = yield* store.searchSections({
          tickers: [ticker],
          startDate: "2024-03-01",
          match: { items: [], names: ["item 2.02 results of operations and financial condition"] },
          limit: 10,
          offset: 0
        })
        assert.deepStrictEqual(byName.results.map((hit) => hit.section.item), ["2.02"])

        const none = yield* store.searchSections({
          tickers: [ticker],
          match: { items: [], names: [] },
          limit: 10,
          offset: 0
        })
        assert.deepStrictEqual([none.total, none.results.length], [0, 0])
      }))

    it.effect("keeps sections in order, and a section without an item has none when read back", () =>
      Effect.gen(function*() {
        const store = yield* DocumentStore
        const document = sampleDocument()
        yield* store.save(document)
        const found = Option.getOrThrow(yield* store.findByPublicationId(document.publicationId))
        assert.deepStrictEqual(found.sections, document.sections)
        assert.isFalse("item" in found.sections[0]!)
      }))
  })
}
