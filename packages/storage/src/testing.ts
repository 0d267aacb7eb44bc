/**
 * The storage conformance suite: the behaviour every adapter of the storage ports must show. An
 * adapter author runs it with vitest against their own layer:
 *
 *   import { conformance } from "@filings/storage/testing"
 *   conformance("my adapter", MyStorage.layer)
 *
 * The suite shares one layer (one database) across its tests, so each test works on ids, tickers,
 * keys and queue names of its own. Time is read from the Effect Clock, which the suite drives with
 * TestClock; adapters must take "now" from the Clock, not from the database or Date.now().
 */
import { assert, describe, layer } from "@effect/vitest"
import type { Ids } from "@filings/domain"
import {
  Array as Arr,
  Chunk,
  Clock,
  Deferred,
  Duration,
  Effect,
  Fiber,
  Option,
  Redacted,
  TestClock,
  TestServices
} from "effect"
import type { Layer } from "effect"
import { randomBytes } from "node:crypto"
import { type ApiKeyRecord, ApiKeyStore } from "./ApiKeyStore.js"
import { type CompanyDetails, CompanyStore } from "./CompanyStore.js"
import { Coordination, type StartDecision } from "./Coordination.js"
import { CursorStore } from "./CursorStore.js"
import { type Delivery, DeliveryStore, type NewDelivery } from "./DeliveryStore.js"
import { type DocumentKey, DocumentStore, type SectionMatch, type StoredDocument } from "./DocumentStore.js"
import { EventStore, type NewEvent, type StoredEvent } from "./EventStore.js"
import { ExtractionStore, type StoredExtraction, type StoredTable } from "./ExtractionStore.js"
import { FeedStore, type StoredFeedItem } from "./FeedStore.js"
import { searchIndexSuite } from "./internal/searchSuite.js"
import { JobQueue } from "./JobQueue.js"
import { RateLimitStore } from "./RateLimitStore.js"
import { nulReason } from "./StorageError.js"
import type { Stores } from "./Stores.js"
import { type Subscription, type SubscriptionChanges, WebhookStore } from "./WebhookStore.js"

const uniqueTicker = (): Ids.Ticker => `T${randomBytes(4).toString("hex").toUpperCase()}` as Ids.Ticker
const uniqueCik = (): Ids.Cik => String(Math.floor(Math.random() * 1e10)).padStart(10, "0") as Ids.Cik
const uniqueName = (prefix: string) => `${prefix}-${randomBytes(6).toString("hex")}`
let accessionCounter = Math.floor(Math.random() * 900_000)
const uniqueAccession = (): Ids.PublicationId =>
  `${String(Math.floor(Math.random() * 1e10)).padStart(10, "0")}-24-${
    String(++accessionCounter % 1_000_000).padStart(6, "0")
  }` as Ids.PublicationId

/** A complete document with every field set, for tests of adapters. */
export const sampleDocument = (overrides: Partial<StoredDocument> = {}): StoredDocument => ({
  publicationId: uniqueAccession(),
  ticker: "ACME" as Ids.Ticker,
  companyName: "Acme Corp",
  cik: "0000123456" as Ids.Cik,
  docType: "10-K",
  title: "Acme Corp 10-K FY 2024",
  filingDate: "2024-11-01",
  period: "FY 2024",
  secUrl: "https://www.sec.gov/Archives/edgar/data/123456/000012345624000001/acme-20240930.htm",
  wordCount: 6,
  items: [],
  body: "# Annual report\n\nRevenue grew 📈 — 12 % (€, 日本).\n\n| a | b |\n| - | - |\n| 1 | 2 |\n",
  sections: [
    { title: "Cover", content: "Acme Corp annual report", wordCount: 4, pageStart: 1, pageEnd: 1 },
    { title: "Item 1. Business", item: "1", content: "We make anvils.", wordCount: 3, pageStart: 1, pageEnd: 2 }
  ],
  exhibits: [{ exhibitNumber: "99.1", title: "Press release", content: "Acme reports results." }],
  chunks: [
    {
      id: "c0001",
      text: "# Annual report\n\nRevenue grew 📈 — 12 % (€, 日本).\n",
      section: "Cover",
      pageStart: 1,
      pageEnd: 1
    },
    { id: "c0002", text: "| a | b |\n| - | - |\n| 1 | 2 |\n", pageStart: 2, pageEnd: 3 }
  ],
  ...overrides
})

/** A feed item with every field set, for tests of adapters. */
export const sampleFeedItem = (overrides: Partial<StoredFeedItem> = {}): StoredFeedItem => ({
  id: uniqueAccession(),
  ticker: "ACME" as Ids.Ticker,
  companyName: "Acme Corp",
  title: "Acme Corp reports third quarter results",
  docType: "PRESS_RELEASE",
  publishedAtMillis: Date.parse("2026-10-28T20:05:00.000Z"),
  categories: ["Earnings", "Guidance Update"],
  sentiment: "positive",
  stockChange: { percentage: 2.35, direction: "up" },
  highlights: [
    {
      text: "Revenue of $412.5 million, up 18% — a record (€, 日本, 📈).",
      citations: [{ source: "x", chunkId: "c0001" }]
    },
    { text: "Guidance raised.", citations: [{ source: "x", chunkId: "c0002" }, { source: "x", chunkId: "c0003" }] }
  ],
  model: "extractive",
  ...overrides
})

const sampleKey = (overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: uniqueName("key"),
  name: "ci",
  plan: "standard",
  rateLimit: 100,
  keyHash: randomBytes(32).toString("hex"),
  keyPrefix: "fk_abcd",
  createdAt: new Date("2024-01-01T00:00:00.000Z"),
  revokedAt: null,
  ...overrides
})

const sampleEvent = (key: string, payload: unknown = { key }): NewEvent => ({ type: "filing.new", key, payload })

/** The events of one test among those of the whole suite, which share one log. */
const keyedBy = (prefix: string) => (events: ReadonlyArray<StoredEvent>) =>
  events.filter((event) => event.key.startsWith(prefix))

const sequencesOf = (events: ReadonlyArray<StoredEvent>) => events.map((event) => event.sequence)

const isStrictlyIncreasing = (numbers: ReadonlyArray<number>) =>
  numbers.every((n, index) => index === 0 || n > numbers[index - 1]!)

const metadataOf = ({ body: _b, chunks: _c, exhibits: _e, sections: _s, ...metadata }: StoredDocument) => metadata

const createdAt = Date.parse("2024-11-01T12:00:00.000Z")

const sampleSubscription = (overrides: Partial<Subscription> = {}): Subscription => ({
  id: `wh_${randomBytes(12).toString("hex")}`,
  ownerKeyId: uniqueName("key"),
  url: "https://hooks.example.com/filings?source=conformance&x=é",
  events: ["filing.new", "filing.8k_material"],
  filters: { tickers: ["AAPL", "MSFT"], docTypes: ["10-K", "8-K"] },
  secret: Redacted.make(`secret-${randomBytes(24).toString("hex")}`),
  status: "active",
  createdAtMillis: createdAt,
  lastTriggeredAtMillis: null,
  startSequence: 42,
  ...overrides
})

/**
 * The subscription with its secret's value in plain sight: two Redacted values compare equal under
 * deepStrictEqual whatever they hold, so comparisons go through this.
 */
const revealed = ({ secret, ...subscription }: Subscription) => ({ ...subscription, secret: Redacted.value(secret) })

/** A stored subscription of its own, for the delivery tests (a delivery needs its subscription). */
const storedSubscription = (overrides: Partial<Subscription> = {}) =>
  Effect.flatMap(WebhookStore, (store) => {
    const subscription = sampleSubscription(overrides)
    return Effect.as(store.create(subscription), subscription)
  })

const sampleDelivery = (
  subscriptionId: string,
  eventSequence: number,
  overrides: Partial<NewDelivery> = {}
): NewDelivery => ({
  id: `dlv_${randomBytes(12).toString("hex")}`,
  subscriptionId,
  eventId: `evt_${randomBytes(12).toString("hex")}`,
  eventSequence,
  eventType: "filing.new",
  state: "pending",
  createdAtMillis: createdAt + eventSequence,
  ...overrides
})

/** A delivery as recording it stores it: no attempt yet. */
const recordedAs = (delivery: NewDelivery): Delivery => ({
  ...delivery,
  attempts: 0,
  lastAttemptAtMillis: null,
  lastStatus: null,
  lastError: null,
  nextAttemptAtMillis: null,
  deliveredAtMillis: null
})

const idsOf = (items: ReadonlyArray<{ readonly id: string }>) => items.map((item) => item.id)

/** Runs the whole suite against `storage`, under a describe block named after the adapter. */
export const conformance = <E>(
  name: string,
  storage: Layer.Layer<Stores, E>,
  options?: { readonly timeout?: number }
) =>
  describe(`storage conformance: ${name}`, () => {
    layer(storage, { timeout: options?.timeout ?? 60_000 })((it) => {
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

      searchIndexSuite(it, { ticker: uniqueTicker, document: sampleDocument })

      describe("ExtractionStore", () => {
        const table = (id: string, tableType: StoredTable["tableType"], title: string): StoredTable => ({
          id,
          title,
          section: "Item 8. Financial Statements and Supplementary Data",
          tableType,
          headers: ["", "2024", "2023"],
          rows: [["Total net sales", "391,035", "383,285"], ["Net income", "93,736", "96,995"]],
          unit: "USD millions"
        })
        const extraction = (revenue: number, fiscalYear: number): StoredExtraction => ({
          metrics: [
            {
              name: "revenue",
              value: revenue,
              unit: "USD",
              period: `FY ${fiscalYear}`,
              yoyChange: 0.02,
              source: "us-gaap:Revenues"
            },
            {
              name: "eps_diluted",
              value: 6.08,
              unit: "USD",
              period: `FY ${fiscalYear}`,
              source: "us-gaap:EarningsPerShareDiluted"
            },
            {
              name: "total_debt",
              value: 96_662_000_000,
              unit: "USD",
              period: `FY ${fiscalYear}`,
              asOf: `${fiscalYear}-09-28`,
              source: "us-gaap:LongTermDebt"
            },
            // As stored before balances had `asOf`: the date in `period`, kept as it was written.
            { name: "book_value_per_share", value: 3.77, unit: "USD", period: `${fiscalYear}-09-28`, source: "derived" }
          ],
          tables: [
            table("t001", "income_statement", "CONSOLIDATED STATEMENTS OF OPERATIONS"),
            table("t002", "balance_sheet", "CONSOLIDATED BALANCE SHEETS"),
            { ...table("t003", "other", "Share repurchases"), format: "percent" }
          ],
          exhibits: [{ number: "31.1", description: "Certification of the CEO", url: "/v1/documents/x?exhibit=31.1" }],
          signatures: { signedDate: "2024-11-01", signers: [{ name: "Tim Cook", title: "Chief Executive Officer" }] },
          warnings: ["a warning"]
        })

        it.effect("stores a document's extraction and replaces it when saved again", () =>
          Effect.gen(function*() {
            const documents = yield* DocumentStore
            const store = yield* ExtractionStore
            const document = sampleDocument()
            yield* documents.save(document)
            assert.isTrue(Option.isNone(yield* store.find(document.publicationId)))
            const first = extraction(391_035_000_000, 2024)
            yield* store.save(document.publicationId, first)
            assert.deepStrictEqual(yield* store.find(document.publicationId), Option.some(first))
            const second = { metrics: [], tables: [], exhibits: [], warnings: [] }
            yield* store.save(document.publicationId, second)
            assert.deepStrictEqual(yield* store.find(document.publicationId), Option.some(second))
          }))

        it.effect("metric series: the asked metrics of the asked companies and forms, oldest filing first", () =>
          Effect.gen(function*() {
            const documents = yield* DocumentStore
            const store = yield* ExtractionStore
            const ticker = uniqueTicker()
            const older = sampleDocument({ ticker, docType: "10-K", filingDate: "2023-11-03", period: "FY 2023" })
            const newer = sampleDocument({ ticker, docType: "10-K", filingDate: "2024-11-01" })
            const quarter = sampleDocument({ ticker, docType: "10-Q", filingDate: "2024-08-02", period: "Q3 2024" })
            yield* Effect.forEach([older, newer, quarter], documents.save)
            yield* store.save(newer.publicationId, extraction(391, 2024))
            yield* store.save(older.publicationId, extraction(383, 2023))
            yield* store.save(quarter.publicationId, extraction(85, 2024))

            const annual = yield* store.metricSeries({ tickers: [ticker], metrics: ["revenue"], docTypes: ["10-K"] })
            assert.deepStrictEqual(
              annual.map((point) => [point.publicationId, point.filingDate, point.metric.value, point.metric.period]),
              [[older.publicationId, "2023-11-03", 383, "FY 2023"], [newer.publicationId, "2024-11-01", 391, "FY 2024"]]
            )
            assert.deepStrictEqual(annual[0]?.metric, extraction(383, 2023).metrics[0])
            assert.deepStrictEqual([annual[0]?.ticker, annual[0]?.companyName, annual[0]?.docType], [
              ticker,
              "Acme Corp",
              "10-K"
            ])

            const both = yield* store.metricSeries({
              tickers: [ticker],
              metrics: ["revenue", "eps_diluted"],
              docTypes: ["10-K", "10-Q"],
              startDate: "2024-01-01"
            })
            assert.deepStrictEqual(
              both.map((point) => [point.filingDate, point.metric.name]),
              [["2024-08-02", "revenue"], ["2024-08-02", "eps_diluted"], ["2024-11-01", "revenue"], [
                "2024-11-01",
                "eps_diluted"
              ]]
            )
            // Each point carries its document's period, and a balance its as_of date.
            const balances = yield* store.metricSeries({
              tickers: [ticker],
              metrics: ["total_debt", "book_value_per_share"],
              docTypes: ["10-K", "10-Q"]
            })
            assert.deepStrictEqual(
              balances.map((
                point
              ) => [point.documentPeriod, point.metric.name, point.metric.period, point.metric.asOf]),
              [
                ["FY 2023", "total_debt", "FY 2023", "2023-09-28"],
                ["FY 2023", "book_value_per_share", "2023-09-28", undefined],
                ["Q3 2024", "total_debt", "FY 2024", "2024-09-28"],
                ["Q3 2024", "book_value_per_share", "2024-09-28", undefined],
                ["FY 2024", "total_debt", "FY 2024", "2024-09-28"],
                ["FY 2024", "book_value_per_share", "2024-09-28", undefined]
              ]
            )
            const none = yield* store.metricSeries({
              tickers: [uniqueTicker()],
              metrics: ["revenue"],
              docTypes: ["10-K"]
            })
            assert.deepStrictEqual(none, [])
          }))

        it.effect("tables: by type and form, newest filing first, paged", () =>
          Effect.gen(function*() {
            const documents = yield* DocumentStore
            const store = yield* ExtractionStore
            const ticker = uniqueTicker()
            const older = sampleDocument({ ticker, docType: "10-K", filingDate: "2023-11-03" })
            const newer = sampleDocument({ ticker, docType: "10-K", filingDate: "2024-11-01" })
            yield* Effect.forEach([older, newer], documents.save)
            yield* store.save(older.publicationId, extraction(1, 2023))
            yield* store.save(newer.publicationId, extraction(2, 2024))

            const all = yield* store.tables({ tickers: [ticker], docTypes: ["10-K"], limit: 10, offset: 0 })
            assert.strictEqual(all.total, 6)
            assert.deepStrictEqual(
              all.results.map((hit) => [hit.document.publicationId, hit.table.id]),
              [
                [newer.publicationId, "t001"],
                [newer.publicationId, "t002"],
                [newer.publicationId, "t003"],
                [older.publicationId, "t001"],
                [older.publicationId, "t002"],
                [older.publicationId, "t003"]
              ]
            )
            assert.deepStrictEqual(all.results[2]?.table, extraction(2, 2024).tables[2])

            const statements = yield* store.tables({
              tickers: [ticker],
              docTypes: ["10-K"],
              tableTypes: ["income_statement"],
              limit: 1,
              offset: 1
            })
            assert.deepStrictEqual(
              [statements.total, statements.results.map((hit) => hit.document.publicationId)],
              [2, [older.publicationId]]
            )
            const quarterly = yield* store.tables({ tickers: [ticker], docTypes: ["10-Q"], limit: 10, offset: 0 })
            assert.strictEqual(quarterly.total, 0)
          }))
      })

      describe("FeedStore", () => {
        it.effect("stores an item and reads every field back; saving the id again replaces it", () =>
          Effect.gen(function*() {
            const store = yield* FeedStore
            const item = sampleFeedItem({ ticker: uniqueTicker() })
            assert.strictEqual(yield* store.save(item), "created")
            assert.deepStrictEqual(yield* store.findById(item.id), Option.some(item))
            const replaced = {
              ...item,
              stockChange: null,
              highlights: [],
              categories: [],
              sentiment: "neutral" as const
            }
            assert.strictEqual(yield* store.save(replaced), "updated")
            assert.deepStrictEqual(yield* store.findById(item.id), Option.some(replaced))
            assert.deepStrictEqual(yield* store.query({ tickers: [item.ticker], limit: 10 }), [replaced])
            assert.isTrue(Option.isNone(yield* store.findById(uniqueAccession())))
          }))

        it.effect("finds the items of several ids at once, leaving out ids without an item", () =>
          Effect.gen(function*() {
            const store = yield* FeedStore
            const items = [sampleFeedItem({ ticker: uniqueTicker() }), sampleFeedItem({ ticker: uniqueTicker() })]
            yield* Effect.forEach(items, store.save)
            const found = yield* store.findByIds([items[1]!.id, uniqueAccession(), items[0]!.id, items[1]!.id])
            const byId = (a: StoredFeedItem, b: StoredFeedItem) => a.id.localeCompare(b.id)
            assert.deepStrictEqual([...found].sort(byId), [...items].sort(byId))
            assert.deepStrictEqual(yield* store.findByIds([]), [])
          }))

        it.effect("queries the asked tickers and types, newest first, ties by id, within the time bounds", () =>
          Effect.gen(function*() {
            const store = yield* FeedStore
            const [a, b, other] = [uniqueTicker(), uniqueTicker(), uniqueTicker()]
            const at = (day: number) => Date.parse(`2026-10-${String(day).padStart(2, "0")}T12:00:00.000Z`)
            const items = [
              sampleFeedItem({ id: "feed-a1", ticker: a, publishedAtMillis: at(1), docType: "8-K" }),
              sampleFeedItem({ id: "feed-a2", ticker: a, publishedAtMillis: at(2), docType: "EARNINGS_CALL" }),
              sampleFeedItem({ id: "feed-a3", ticker: a, publishedAtMillis: at(3), docType: "8-K" }),
              sampleFeedItem({ id: "feed-b2", ticker: b, publishedAtMillis: at(2), docType: "NEWS" }),
              sampleFeedItem({ id: "feed-b4", ticker: b, publishedAtMillis: at(4), docType: "8-K" }),
              sampleFeedItem({ id: "feed-o5", ticker: other, publishedAtMillis: at(5), docType: "8-K" })
            ]
            for (const item of items) yield* store.save(item)
            const ids = (found: ReadonlyArray<StoredFeedItem>) => found.map((item) => item.id)

            assert.deepStrictEqual(
              ids(yield* store.query({ tickers: [a, b], limit: 10 })),
              ["feed-b4", "feed-a3", "feed-b2", "feed-a2", "feed-a1"]
            )
            assert.deepStrictEqual(ids(yield* store.query({ tickers: [a, b], limit: 2 })), ["feed-b4", "feed-a3"])
            assert.deepStrictEqual(
              ids(yield* store.query({ tickers: [a, b], docTypes: ["8-K"], limit: 10 })),
              ["feed-b4", "feed-a3", "feed-a1"]
            )
            // From is inclusive, before exclusive.
            assert.deepStrictEqual(
              ids(yield* store.query({ tickers: [a, b], fromMillis: at(2), beforeMillis: at(4), limit: 10 })),
              ["feed-a3", "feed-b2", "feed-a2"]
            )
            assert.deepStrictEqual(ids(yield* store.query({ tickers: [uniqueTicker()], limit: 10 })), [])
          }))

        it.effect("goes on after a key, also inside a group published at one instant", () =>
          Effect.gen(function*() {
            const store = yield* FeedStore
            const [a, b] = [uniqueTicker(), uniqueTicker()]
            const at = (hour: number) => Date.parse(`2026-10-05T${String(hour).padStart(2, "0")}:00:00.000Z`)
            // Four items at 12:00 over two tickers (an 8-K and its exhibits), one before, one after.
            const items = [
              sampleFeedItem({ id: "key-e", ticker: a, publishedAtMillis: at(13) }),
              sampleFeedItem({ id: "key-d", ticker: b, publishedAtMillis: at(12) }),
              sampleFeedItem({ id: "key-c", ticker: a, publishedAtMillis: at(12) }),
              sampleFeedItem({ id: "key-b2", ticker: a, publishedAtMillis: at(12) }),
              sampleFeedItem({ id: "key-b10", ticker: b, publishedAtMillis: at(12) }),
              sampleFeedItem({ id: "key-a", ticker: b, publishedAtMillis: at(11) })
            ]
            for (const item of items) yield* store.save(item)
            const ids = (found: ReadonlyArray<StoredFeedItem>) => found.map((item) => item.id)
            const tickers = [a, b]
            const after = (id: string, hour: number) => ({ publishedAtMillis: at(hour), id })

            assert.deepStrictEqual(
              ids(yield* store.query({ tickers, limit: 10 })),
              ["key-e", "key-d", "key-c", "key-b2", "key-b10", "key-a"]
            )
            assert.deepStrictEqual(ids(yield* store.query({ tickers, after: after("key-d", 12), limit: 2 })), [
              "key-c",
              "key-b2"
            ])
            assert.deepStrictEqual(ids(yield* store.query({ tickers, after: after("key-b2", 12), limit: 10 })), [
              "key-b10",
              "key-a"
            ])
            // A key need not be an item's: the position is the time, then the id.
            assert.deepStrictEqual(ids(yield* store.query({ tickers, after: after("key-c0", 12), limit: 10 })), [
              "key-c",
              "key-b2",
              "key-b10",
              "key-a"
            ])
            assert.deepStrictEqual(
              ids(
                yield* store.query({ tickers: [b], docTypes: ["PRESS_RELEASE"], after: after("key-e", 13), limit: 10 })
              ),
              ["key-d", "key-b10", "key-a"]
            )
            // With the other bounds.
            assert.deepStrictEqual(
              ids(
                yield* store.query({
                  tickers,
                  after: after("key-c", 12),
                  fromMillis: at(12),
                  beforeMillis: at(13),
                  limit: 10
                })
              ),
              ["key-b2", "key-b10"]
            )
            assert.deepStrictEqual(ids(yield* store.query({ tickers, after: after("key-a", 11), limit: 10 })), [])
          }))

        it.effect("lists the recent items without a stock move, and sets one", () =>
          Effect.gen(function*() {
            const store = yield* FeedStore
            const ticker = uniqueTicker()
            // Far in the future, so that other tests' items are older than the window.
            const at = (day: number) => Date.parse(`2099-03-${String(day).padStart(2, "0")}T21:00:00.000Z`)
            const old = sampleFeedItem({ ticker, stockChange: null, publishedAtMillis: at(1) })
            const pending = sampleFeedItem({ ticker, stockChange: null, publishedAtMillis: at(5) })
            const newer = sampleFeedItem({ ticker, stockChange: null, publishedAtMillis: at(6) })
            const known = sampleFeedItem({ ticker, publishedAtMillis: at(7) })
            for (const item of [old, pending, newer, known]) yield* store.save(item)
            const ids = (found: ReadonlyArray<{ readonly id: string }>) => found.map((item) => item.id)
            const waiting = yield* store.withoutStockChange({ publishedFromMillis: at(2), limit: 10 })
            assert.deepStrictEqual(waiting, [
              { id: newer.id, ticker, publishedAtMillis: at(6) },
              { id: pending.id, ticker, publishedAtMillis: at(5) }
            ])
            assert.deepStrictEqual(ids(yield* store.withoutStockChange({ publishedFromMillis: at(2), limit: 1 })), [
              newer.id
            ])

            assert.isTrue(yield* store.setStockChange(pending.id, { percentage: 1.25, direction: "down" }))
            assert.isFalse(yield* store.setStockChange(uniqueAccession(), { percentage: 1, direction: "up" }))
            assert.deepStrictEqual(
              Option.getOrThrow(yield* store.findById(pending.id)).stockChange,
              { percentage: 1.25, direction: "down" }
            )
            assert.deepStrictEqual(ids(yield* store.withoutStockChange({ publishedFromMillis: at(2), limit: 10 })), [
              newer.id
            ])
          }))

        it.effect("across many tickers, the page is the newest items of all of them", () =>
          Effect.gen(function*() {
            const store = yield* FeedStore
            const tickers = Arr.makeBy(12, () => uniqueTicker())
            const start = Date.parse("2026-01-01T00:00:00.000Z")
            // Ticker i publishes every 12 hours from hour i: the newest items rotate through all tickers.
            const items = tickers.flatMap((ticker, i) =>
              Arr.makeBy(8, (n) => sampleFeedItem({ ticker, publishedAtMillis: start + (i + 12 * n) * 3_600_000 }))
            )
            for (const item of items) yield* store.save(item)
            const expected = [...items].sort((x, y) => y.publishedAtMillis - x.publishedAtMillis).slice(0, 30)
            const page = yield* store.query({ tickers, limit: 30 })
            assert.deepStrictEqual(page.map((item) => item.id), expected.map((item) => item.id))
          }))
      })

      describe("CompanyStore", () => {
        it.effect("finds a company by key and by ticker, and follows a ticker change", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const cik = String(Math.floor(Math.random() * 1e10)).padStart(10, "0") as Ids.Cik
            const [oldTicker, newTicker] = [uniqueTicker(), uniqueTicker()]
            yield* store.upsert({ cik, ticker: oldTicker, name: "Old Name Inc" })
            assert.deepStrictEqual(
              yield* store.findByTicker(oldTicker),
              Option.some({ cik, ticker: oldTicker, name: "Old Name Inc" })
            )
            yield* store.upsert({ cik, ticker: newTicker, name: "New Name Inc" })
            assert.deepStrictEqual(
              yield* store.findByCik(cik),
              Option.some({ cik, ticker: newTicker, name: "New Name Inc" })
            )
            assert.isTrue(Option.isNone(yield* store.findByTicker(oldTicker)))
          }))

        it.effect("keeps the name and ticker of the newest filing, whatever order filings come in", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const cik = String(Math.floor(Math.random() * 1e10)).padStart(10, "0") as Ids.Cik
            const [oldTicker, newTicker] = [uniqueTicker(), uniqueTicker()]
            const current = { cik, ticker: newTicker, name: "Apple Inc.", asOf: "2024-11-01" }
            yield* store.upsert({ cik, ticker: oldTicker, name: "Apple Computer Inc", asOf: "2000-05-11" })
            yield* store.upsert(current)
            // An older filing stored later, and a listing without a date, rename nothing.
            yield* store.upsert({ cik, ticker: oldTicker, name: "APPLE COMPUTER INC", asOf: "2000-05-11" })
            yield* store.upsert({ cik, ticker: oldTicker, name: "Listed Name", asOf: undefined })
            assert.deepStrictEqual(yield* store.findByCik(cik), Option.some(current))
            assert.deepStrictEqual(yield* store.findByTicker(newTicker), Option.some(current))
            // A filing of the same date as the stored name may correct it.
            yield* store.upsert({ ...current, name: "Apple Inc" })
            assert.deepStrictEqual(Option.map(yield* store.findByCik(cik), (c) => c.name), Option.some("Apple Inc"))
          }))

        it.effect("every ticker a cover lists is an alias of the company: found, expanded, the primary first", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const cik = uniqueCik()
            const prefix = uniqueTicker()
            const ticker = (suffix: string) => `${prefix}${suffix}` as Ids.Ticker
            const [classA, classC, listedOnly, other] = [ticker("A"), ticker("C"), ticker("L"), ticker("X")] as const
            const company = {
              cik,
              ticker: classA,
              name: "Two Classes Inc.",
              asOf: "2024-07-26",
              tickers: [classA, classC]
            }
            yield* store.upsert(company)
            assert.deepStrictEqual(yield* store.findByCik(cik), Option.some(company))
            assert.deepStrictEqual(yield* store.findByTicker(classC), Option.some(company))
            assert.deepStrictEqual(
              yield* store.findProfile(classC),
              Option.some({ company, tickers: [classA, classC] })
            )
            // A filter by the second class matches the first's documents too; an unknown ticker stays itself.
            assert.deepStrictEqual(
              yield* store.aliasesOf([classC, other]),
              new Map([[classC, [classA, classC]], [other, [other]]])
            )
            assert.deepStrictEqual(yield* store.aliasesOf([]), new Map())
            const found = yield* store.search({ q: classC, limit: 10, offset: 0 })
            assert.deepStrictEqual(found.companies.map((summary) => [summary.cik, summary.ticker]), [[cik, classA]])

            // The regulator's list adds its own tickers of the company, after the cover's.
            yield* store.saveListing([{ cik, ticker: listedOnly, name: "Two Classes Inc." }])
            assert.deepStrictEqual(
              yield* store.aliasesOf([listedOnly]),
              new Map([[listedOnly, [classA, classC, listedOnly]]])
            )
            assert.deepStrictEqual(
              Option.map(yield* store.findProfile(listedOnly), (profile) => profile.tickers),
              Option.some([classA, classC, listedOnly])
            )
            yield* store.saveListing([])

            // A later record of the same primary ticker without tickers keeps them; an older one changes nothing.
            yield* store.upsert({ cik, ticker: classA, name: "Two Classes Inc.", asOf: "2024-10-30" })
            yield* store.upsert({ cik, ticker: classC, name: "Old Name", asOf: "2020-01-02", tickers: [classC] })
            assert.deepStrictEqual(
              yield* store.findByCik(cik),
              Option.some({ ...company, asOf: "2024-10-30" })
            )
            // A newer filing under another ticker, listing only it, leaves the old classes naming nothing.
            yield* store.upsert({ cik, ticker: other, name: "Renamed Inc.", asOf: "2025-01-02", tickers: [other] })
            assert.isTrue(Option.isNone(yield* store.findByTicker(classC)))
            assert.deepStrictEqual(yield* store.aliasesOf([classC]), new Map([[classC, [classC]]]))
          }))

        it.effect("a company known from a listing takes the name of its first filing", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const cik = String(Math.floor(Math.random() * 1e10)).padStart(10, "0") as Ids.Cik
            const ticker = uniqueTicker()
            yield* store.upsert({ cik, ticker, name: "Listed Name" })
            assert.deepStrictEqual(yield* store.findByCik(cik), Option.some({ cik, ticker, name: "Listed Name" }))
            yield* store.upsert({ cik, ticker, name: "Filed Name", asOf: "1999-01-04" })
            assert.deepStrictEqual(
              yield* store.findByCik(cik),
              Option.some({ cik, ticker, name: "Filed Name", asOf: "1999-01-04" })
            )
          }))
        it.effect("saves the regulator's list: companies with their tickers and exchange; a filing's name wins", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const prefix = uniqueTicker()
            const ticker = (suffix: string) => `${prefix}${suffix}` as Ids.Ticker
            const [filed, widgets, other] = [uniqueCik(), uniqueCik(), uniqueCik()]
            yield* store.upsert({ cik: filed, ticker: ticker("A"), name: "Filed Name Corp", asOf: "2024-01-02" })
            const saved = yield* store.saveListing([
              { cik: filed, ticker: ticker("A"), name: "Listed Name Corp", exchange: "Nasdaq" },
              { cik: filed, ticker: ticker("B"), name: "Listed Name Corp", exchange: "Nasdaq" },
              { cik: widgets, ticker: ticker("C"), name: "Zeta Widgets Inc", exchange: "NYSE" },
              { cik: widgets, ticker: ticker("C"), name: "Zeta Widgets Inc", exchange: "OTC" },
              { cik: other, ticker: ticker("AB"), name: "Other Co" }
            ])
            assert.deepStrictEqual(saved, { companies: 3, tickers: 4 })
            assert.deepStrictEqual(
              yield* store.findByCik(filed),
              Option.some({ cik: filed, ticker: ticker("A"), name: "Filed Name Corp", asOf: "2024-01-02" })
            )
            assert.deepStrictEqual(
              yield* store.findByCik(widgets),
              Option.some({ cik: widgets, ticker: ticker("C"), name: "Zeta Widgets Inc" })
            )
            // A second class finds its company, with every ticker, the main one first.
            assert.deepStrictEqual(
              yield* store.findProfile(ticker("B")),
              Option.some({
                company: { cik: filed, ticker: ticker("A"), name: "Filed Name Corp", asOf: "2024-01-02" },
                exchange: "Nasdaq",
                tickers: [ticker("A"), ticker("B")]
              })
            )
            assert.isTrue(Option.isNone(yield* store.findProfile(ticker("Z"))))

            // Dropped from the list: still known, by its name and ticker, but with no exchange.
            yield* store.saveListing([{
              cik: widgets,
              ticker: ticker("C"),
              name: "Zeta Widgets Inc",
              exchange: "NYSE"
            }])
            assert.deepStrictEqual(
              yield* store.findProfile(ticker("AB")),
              Option.some({ company: { cik: other, ticker: ticker("AB"), name: "Other Co" }, tickers: [ticker("AB")] })
            )
            assert.deepStrictEqual(
              Option.map(yield* store.findProfile(ticker("A")), (profile) => profile.tickers),
              Option.some([ticker("A")])
            )
          }))

        it.effect("searches by ticker, key and name words, best match first, and pages exactly", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const prefix = uniqueTicker()
            const ticker = (suffix: string) => `${prefix}${suffix}` as Ids.Ticker
            const [exact, longer, classes, named, nulled] = [
              uniqueCik(),
              uniqueCik(),
              uniqueCik(),
              uniqueCik(),
              uniqueCik()
            ]
            const word = `qz${randomBytes(4).toString("hex")}`
            const exchange = `EX${randomBytes(3).toString("hex")}`
            yield* store.saveListing([
              { cik: exact, ticker: ticker("M"), name: "Exact Match Inc", exchange },
              { cik: longer, ticker: ticker("MA"), name: "Longer Ticker Corp", exchange: "Nasdaq" },
              { cik: classes, ticker: ticker("K"), name: "Two Classes Inc", exchange },
              { cik: classes, ticker: ticker("MB"), name: "Two Classes Inc", exchange },
              { cik: named, ticker: uniqueTicker(), name: `${word.toUpperCase()} Holdings, Inc. (The)` },
              { cik: nulled, ticker: uniqueTicker(), name: `Null ${word}void Co` }
            ])
            const search = (q: string | undefined, more: { exchange?: string; limit?: number; offset?: number } = {}) =>
              Effect.map(
                store.search({ q, exchange: more.exchange, limit: more.limit ?? 50, offset: more.offset ?? 0 }),
                (page) => ({ ciks: page.companies.map((company) => company.cik), total: page.total })
              )
            // The exact ticker first, then those it begins (another class's included), by the company's ticker.
            assert.deepStrictEqual(yield* search(ticker("M").toLowerCase()), {
              ciks: [exact, classes, longer],
              total: 3
            })
            assert.deepStrictEqual(yield* search(` ${ticker("MB")} `), { ciks: [classes], total: 1 })
            assert.deepStrictEqual(yield* search(prefix, { exchange: exchange.toLowerCase() }), {
              ciks: [classes, exact],
              total: 2
            })
            // Pages at any offset, and past the end, with the count of every match.
            assert.deepStrictEqual(yield* search(prefix, { limit: 1, offset: 1 }), { ciks: [exact], total: 3 })
            assert.deepStrictEqual(yield* search(prefix, { limit: 2, offset: 2 }), { ciks: [longer], total: 3 })
            assert.deepStrictEqual(yield* search(prefix, { offset: 10 }), { ciks: [], total: 3 })
            // A key with or without its zeros; words that begin the name's words, in any order and case.
            assert.deepStrictEqual((yield* search(String(Number(longer)))).ciks[0], longer)
            assert.deepStrictEqual(yield* search(`holdings ${word.slice(0, 5).toUpperCase()}`), {
              ciks: [named],
              total: 1
            })
            assert.deepStrictEqual(yield* search(`${word}x`), { ciks: [], total: 0 })
            // Any word is a word: "null" too.
            assert.deepStrictEqual(yield* search(`${word}void null`), { ciks: [nulled], total: 1 })
            assert.deepStrictEqual(yield* search("%_'\\"), { ciks: [], total: 0 })
            // No q: every company of the exchange, by ticker; the item carries what the list says.
            const all = yield* store.search({ exchange, limit: 10, offset: 0 })
            assert.deepStrictEqual(all, {
              companies: [
                { cik: classes, ticker: ticker("K"), name: "Two Classes Inc", exchange },
                { cik: exact, ticker: ticker("M"), name: "Exact Match Inc", exchange }
              ],
              total: 2
            })
          }))

        it.effect("finds a company by the words of its former names, after the companies named so now", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const [renamed, current, other] = [uniqueCik(), uniqueCik(), uniqueCik()]
            const word = `qf${randomBytes(4).toString("hex")}`
            yield* store.saveListing([
              { cik: renamed, ticker: uniqueTicker(), name: "Meta Platforms, Inc." },
              { cik: current, ticker: uniqueTicker(), name: `${word.toUpperCase()} Labs Inc` },
              { cik: other, ticker: uniqueTicker(), name: "Unrelated Co" }
            ])
            yield* store.saveDetails(renamed, {
              formerNames: [{ name: `${word.toUpperCase()} INC`, from: "2004-07-29", to: "2021-10-28" }]
            })
            const search = (q: string) =>
              Effect.map(
                store.search({ q, limit: 10, offset: 0 }),
                (page) => ({ ciks: page.companies.map((company) => company.cik), total: page.total })
              )
            assert.deepStrictEqual(yield* search(word), { ciks: [current, renamed], total: 2 })
            assert.deepStrictEqual(yield* search(`${word.slice(0, 6)} inc`), { ciks: [current, renamed], total: 2 })
            assert.deepStrictEqual(yield* search(`${word} labs`), { ciks: [current], total: 1 })
            // Details read again without the former name: it no longer finds the company.
            yield* store.saveDetails(renamed, { formerNames: [] })
            assert.deepStrictEqual(yield* search(word), { ciks: [current], total: 1 })
          }))

        it.effect("keeps a company's details, and lists those without them, most-followed first", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const [preferred, filed, first, second, rest] = Arr.makeBy(5, () => ({
              cik: uniqueCik(),
              ticker: uniqueTicker()
            }))
            yield* store.upsert({ ...filed!, name: "Filed Inc", asOf: "2024-05-01" })
            yield* store.upsert({ ...preferred!, name: "Preferred Inc" })
            yield* store.upsert({ ...rest!, name: "Rest Inc" })
            yield* store.saveListing([{ ...first!, name: "First Inc" }, { ...second!, name: "Second Inc" }])
            const ours = new Set([preferred, filed, first, second, rest].map((company) => company!.cik))
            const backlog = Effect.map(
              store.detailsBacklog({ limit: 100_000, preferred: [preferred!.ticker] }),
              (ciks) => ciks.filter((cik) => ours.has(cik))
            )
            assert.deepStrictEqual(yield* backlog, [preferred, filed, first, second, rest].map((c) => c!.cik))

            const details = {
              sic: "3571",
              sicDescription: "Electronic Computers",
              stateOfIncorporation: "CA",
              fiscalYearEnd: "0926",
              formerNames: [{ name: "APPLE COMPUTER INC", from: "1994-01-26", to: "2007-01-04" }, { name: "APPLE" }]
            }
            yield* store.saveDetails(filed!.cik, details)
            // Known to have none: a person's record has no industry; it leaves the backlog as well.
            yield* store.saveDetails(first!.cik, { formerNames: [] })
            yield* store.saveDetails(uniqueCik(), details)
            assert.deepStrictEqual(
              Option.map(yield* store.findProfile(filed!.ticker), (profile) => profile.details),
              Option.some(details)
            )
            assert.deepStrictEqual(
              Option.map(yield* store.findProfile(first!.ticker), (profile) => profile.details),
              Option.some<CompanyDetails | undefined>({ formerNames: [] })
            )
            assert.deepStrictEqual(yield* backlog, [preferred, second, rest].map((c) => c!.cik))
          }))

        it.effect("lists details read before an instant again, after those never read, the oldest first", () =>
          Effect.gen(function*() {
            const store = yield* CompanyStore
            const [never, older, newer] = Arr.makeBy(3, () => ({ cik: uniqueCik(), ticker: uniqueTicker() }))
            yield* store.saveListing([never!, older!, newer!].map((company) => ({ ...company, name: "Listed Inc" })))
            // Saved in this order, a day apart: `newer`'s details are the fresher.
            yield* TestClock.setTime(Date.parse("2026-01-01T00:00:00Z"))
            yield* store.saveDetails(older!.cik, { formerNames: [] })
            yield* TestClock.setTime(Date.parse("2026-01-02T00:00:00Z"))
            yield* store.saveDetails(newer!.cik, { formerNames: [] })
            const ours = new Set([never, older, newer].map((company) => company!.cik))
            const backlog = (readBefore?: string) =>
              Effect.map(
                store.detailsBacklog({
                  limit: 100_000,
                  preferred: [],
                  readBefore: readBefore === undefined ? undefined : new Date(readBefore)
                }),
                (ciks) => ciks.filter((cik) => ours.has(cik))
              )
            assert.deepStrictEqual(yield* backlog(), [never!.cik])
            assert.deepStrictEqual(yield* backlog("2026-01-01T00:00:00Z"), [never!.cik])
            assert.deepStrictEqual(yield* backlog("2026-01-01T12:00:00Z"), [never!.cik, older!.cik])
            assert.deepStrictEqual(yield* backlog("2026-02-01T00:00:00Z"), [never, older, newer].map((c) => c!.cik))
            // Read again, it leaves the backlog until it is old in its turn.
            yield* TestClock.setTime(Date.parse("2026-01-03T00:00:00Z"))
            yield* store.saveDetails(older!.cik, { formerNames: [] })
            assert.deepStrictEqual(yield* backlog("2026-01-02T12:00:00Z"), [never!.cik, newer!.cik])
          }))
      })

      describe("ApiKeyStore", () => {
        it.effect("finds active keys by hash only, and revocation is final", () =>
          Effect.gen(function*() {
            const store = yield* ApiKeyStore
            const key = sampleKey({ plan: "enterprise", rateLimit: 5000 })
            yield* store.create(key)
            assert.deepStrictEqual(yield* store.findActiveByHash(key.keyHash), Option.some(key))
            assert.isTrue(Option.isNone(yield* store.findActiveByHash(randomBytes(32).toString("hex"))))

            const revokedAt = new Date("2024-06-01T12:00:00.000Z")
            assert.deepStrictEqual(yield* store.revoke(key.id, revokedAt), Option.some({ ...key, revokedAt }))
            assert.isTrue(Option.isNone(yield* store.findActiveByHash(key.keyHash)))
            const again = yield* store.revoke(key.id, new Date("2024-07-01T00:00:00.000Z"))
            assert.deepStrictEqual(again, Option.some({ ...key, revokedAt }))
            assert.isTrue(Option.isNone(yield* store.revoke(uniqueName("missing"), revokedAt)))
          }))

        it.effect("lists every key, revoked ones included, oldest first", () =>
          Effect.gen(function*() {
            const store = yield* ApiKeyStore
            const older = sampleKey({ createdAt: new Date("2020-01-01T00:00:00.000Z") })
            const newer = sampleKey({ createdAt: new Date("2020-01-02T00:00:00.000Z") })
            yield* store.create(newer)
            yield* store.create(older)
            yield* store.revoke(newer.id, new Date("2020-02-01T00:00:00.000Z"))
            const listed = (yield* store.list).filter((key) => key.id === older.id || key.id === newer.id)
            assert.deepStrictEqual(listed.map((key) => key.id), [older.id, newer.id])
            assert.deepStrictEqual(listed[1]?.revokedAt, new Date("2020-02-01T00:00:00.000Z"))
          }))
      })

      describe("RateLimitStore", () => {
        it.effect("allows the limit per window, counts on past it, and starts over in the next window", () =>
          Effect.gen(function*() {
            const store = yield* RateLimitStore
            const key = uniqueName("rate")
            const minute = Duration.minutes(1)
            const decisions = yield* Effect.forEach([1, 2, 3, 4], () => store.consume(key, 3, minute))
            assert.deepStrictEqual(decisions.map((d) => [d.allowed, d.remaining]), [
              [true, 2],
              [true, 1],
              [true, 0],
              [false, 0]
            ])
            const now = yield* Clock.currentTimeMillis
            const resetAt = decisions[0]!.resetAtMillis
            assert.isTrue(resetAt > now && resetAt <= now + 60_000 && resetAt % 60_000 === 0)
            assert.isTrue(decisions.every((d) => d.resetAtMillis === resetAt && d.limit === 3))

            assert.strictEqual((yield* store.consume(uniqueName("rate"), 3, minute)).remaining, 2)

            yield* TestClock.adjust(Duration.millis(resetAt - now))
            const fresh = yield* store.consume(key, 3, minute)
            assert.deepStrictEqual([fresh.allowed, fresh.remaining, fresh.resetAtMillis], [true, 2, resetAt + 60_000])
          }))

        it.effect("concurrent requests never get more than the limit", () =>
          Effect.gen(function*() {
            const store = yield* RateLimitStore
            const key = uniqueName("burst")
            const decisions = yield* Effect.all(Arr.replicate(store.consume(key, 10, Duration.minutes(1)), 25), {
              concurrency: "unbounded"
            })
            assert.strictEqual(decisions.filter((d) => d.allowed).length, 10)
          }))
      })

      describe("Coordination", () => {
        const second = Duration.seconds(1)
        const waits = (decisions: ReadonlyArray<StartDecision>) =>
          decisions.map((decision) => (decision._tag === "Started" ? "started" : decision.millis))

        it.effect("takes at most the limit of starts in a window, says how long to wait, and frees each start a window on", () =>
          Effect.gen(function*() {
            const coordination = yield* Coordination
            const budget = uniqueName("budget")
            const take = coordination.takeStart(budget, 3, second)
            assert.deepStrictEqual(waits([yield* take, yield* take]), ["started", "started"])
            yield* TestClock.adjust(Duration.millis(300))
            assert.deepStrictEqual(waits([yield* take, yield* take]), ["started", 700])
            yield* TestClock.adjust(Duration.millis(699))
            assert.deepStrictEqual(waits([yield* take]), [1])
            yield* TestClock.adjust(Duration.millis(1))
            // The two starts of time 0 have left the window; the one of 300 ms has not.
            assert.deepStrictEqual(waits([yield* take, yield* take, yield* take]), ["started", "started", 300])
            assert.deepStrictEqual(waits([yield* coordination.takeStart(uniqueName("budget"), 3, second)]), ["started"])
          }))

        it.effect("concurrent takers never get more starts than the limit", () =>
          Effect.gen(function*() {
            const coordination = yield* Coordination
            const budget = uniqueName("burst")
            const decisions = yield* Effect.all(Arr.replicate(coordination.takeStart(budget, 10, second), 25), {
              concurrency: "unbounded"
            })
            assert.strictEqual(decisions.filter((decision) => decision._tag === "Started").length, 10)
            assert.isTrue(decisions.every((decision) => decision._tag === "Started" || decision.millis <= 1_000))
          }))

        it.effect("a pause stops every start until it ends, and a shorter pause does not shorten it", () =>
          Effect.gen(function*() {
            const coordination = yield* Coordination
            const budget = uniqueName("pause")
            const take = coordination.takeStart(budget, 10, second)
            yield* coordination.pauseStarts(budget, Duration.seconds(5))
            assert.deepStrictEqual(waits([yield* take]), [5_000])
            yield* coordination.pauseStarts(budget, second)
            yield* TestClock.adjust(Duration.seconds(2))
            assert.deepStrictEqual(waits([yield* take]), [3_000])
            assert.deepStrictEqual(waits([yield* coordination.takeStart(uniqueName("pause"), 10, second)]), ["started"])
            yield* TestClock.adjust(Duration.seconds(3))
            assert.deepStrictEqual(waits([yield* take]), ["started"])
          }))

        it.effect("a lease is held by one holder until it runs out or is released; its holder renews it", () =>
          Effect.gen(function*() {
            const coordination = yield* Coordination
            const lease = uniqueName("lease")
            const [first, next] = [uniqueName("instance"), uniqueName("instance")]
            const thirty = Duration.seconds(30)
            const start = yield* Clock.currentTimeMillis
            assert.isTrue(Option.isNone(yield* coordination.leaseHolder(lease)))
            assert.isTrue(yield* coordination.acquireLease(lease, first, thirty))
            assert.isFalse(yield* coordination.acquireLease(lease, next, thirty))
            yield* TestClock.adjust(Duration.seconds(20))
            assert.isTrue(yield* coordination.acquireLease(lease, first, thirty), "renewed by its holder")
            assert.deepStrictEqual(
              yield* coordination.leaseHolder(lease),
              Option.some({ holder: first, expiresAtMillis: start + 50_000 })
            )
            yield* TestClock.adjust(Duration.seconds(29))
            assert.isFalse(
              yield* coordination.acquireLease(lease, next, thirty),
              "the renewal counts from when it was made"
            )
            yield* coordination.releaseLease(lease, next)
            assert.deepStrictEqual(
              Option.map(yield* coordination.leaseHolder(lease), (held) => held.holder),
              Option.some(first)
            )
            yield* TestClock.adjust(Duration.seconds(1))
            assert.isTrue(Option.isNone(yield* coordination.leaseHolder(lease)), "run out")
            assert.isTrue(yield* coordination.acquireLease(lease, next, thirty))
            assert.isFalse(yield* coordination.acquireLease(lease, first, thirty))
            yield* coordination.releaseLease(lease, next)
            assert.isTrue(Option.isNone(yield* coordination.leaseHolder(lease)), "released")
            assert.isTrue(yield* coordination.acquireLease(lease, first, thirty))
            assert.isTrue(Option.isNone(yield* coordination.leaseHolder(uniqueName("lease"))))
          }))

        it.effect("of holders racing for a free lease, exactly one gets it", () =>
          Effect.gen(function*() {
            const coordination = yield* Coordination
            const lease = uniqueName("race")
            const holders = Arr.makeBy(12, () => uniqueName("instance"))
            const won = yield* Effect.forEach(
              holders,
              (holder) => coordination.acquireLease(lease, holder, Duration.seconds(30)),
              { concurrency: "unbounded" }
            )
            assert.strictEqual(won.filter(Boolean).length, 1)
            const winner = holders[won.indexOf(true)]
            assert.deepStrictEqual(
              Option.map(yield* coordination.leaseHolder(lease), (held) => held.holder),
              Option.some(winner)
            )
          }))
      })

      describe("EventStore", () => {
        it.effect("says the newest sequence, which grows with what is recorded", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("latest")
            const before = yield* store.latestSequence
            const recorded = yield* store.record([
              { type: "filing.new", key: `${prefix}:a`, payload: {} },
              { type: "filing.new", key: `${prefix}:b`, payload: {} }
            ])
            const after = yield* store.latestSequence
            // Other tests may record at the same time: ours are at or below it, and it moved on.
            assert.isAtLeast(after, recorded[1]!.sequence)
            assert.isAbove(after, before)
            assert.isAtLeast(before, 0)
          }))

        it.effect("finds where to start reading to get the events recorded since a time", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("since")
            // A time of its own, far from the other tests' clocks, which start at 1970.
            const start = Date.parse("2091-03-01T00:00:00.000Z") + Math.floor(Math.random() * 1e9)
            yield* TestClock.setTime(start)
            const [early] = yield* store.record([sampleEvent(`${prefix}:early`)])
            yield* TestClock.adjust(Duration.minutes(1))
            const [onTime, late] = yield* store.record([
              sampleEvent(`${prefix}:on-time`),
              sampleEvent(`${prefix}:late`)
            ])
            assert.strictEqual(yield* store.positionAt(start), early!.sequence - 1)
            // Exactly the time of an event counts as since it.
            assert.strictEqual(yield* store.positionAt(start + 60_000), onTime!.sequence - 1)
            assert.strictEqual(yield* store.positionAt(start + 1), onTime!.sequence - 1)
            const next = yield* store.after(yield* store.positionAt(start + 1), 2)
            assert.deepStrictEqual(next.map((event) => event.key), [`${prefix}:on-time`, `${prefix}:late`])
            // Nothing since: "from now on", which is at least the newest of ours.
            assert.isAtLeast(yield* store.positionAt(start + 120_000), late!.sequence)
          }))

        it.effect("reads the events of one type about one company, by the tickers their data names, oldest first", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("company")
            const [acme, former, other] = [uniqueTicker(), uniqueTicker(), uniqueTicker()]
            const upcoming = (key: string, ticker: string, scheduledAt: string): NewEvent => ({
              type: "earnings_call.upcoming",
              key: `${prefix}:${key}`,
              payload: { event: "earnings_call.upcoming", data: { ticker, scheduled_at: scheduledAt } }
            })
            yield* store.record([
              upcoming("first", acme, "2026-01-30T22:00:00.000Z"),
              upcoming("other", other, "2026-01-30T22:00:00.000Z"),
              upcoming("former", former, "2025-10-30T20:00:00.000Z"),
              { type: "filing.new", key: `${prefix}:filing`, payload: { data: { ticker: acme } } },
              { type: "earnings_call.upcoming", key: `${prefix}:no-data`, payload: { ticker: acme } },
              upcoming("second", acme, "2026-04-30T21:00:00.000Z")
            ])
            const found = yield* store.ofCompany({ type: "earnings_call.upcoming", tickers: [acme] })
            assert.deepStrictEqual(found.map((event) => event.key), [`${prefix}:first`, `${prefix}:second`])
            assert.isTrue(isStrictlyIncreasing(sequencesOf(found)))
            assert.deepStrictEqual(found[1]!.payload, upcoming("second", acme, "2026-04-30T21:00:00.000Z").payload)
            assert.deepStrictEqual(
              (yield* store.ofCompany({ type: "filing.new", tickers: [acme] })).map((event) => event.key),
              [`${prefix}:filing`]
            )
            assert.deepStrictEqual(
              yield* store.ofCompany({ type: "earnings_call.upcoming", tickers: [uniqueTicker()] }),
              []
            )
            // A company that had two tickers: the events of both, in the order they were recorded.
            assert.deepStrictEqual(
              (yield* store.ofCompany({ type: "earnings_call.upcoming", tickers: [acme, former] })).map((event) =>
                event.key
              ),
              [`${prefix}:first`, `${prefix}:former`, `${prefix}:second`]
            )
            assert.deepStrictEqual(yield* store.ofCompany({ type: "earnings_call.upcoming", tickers: [] }), [])
          }))

        it.effect("records events in the given order, with ids and the Clock's time, and returns them", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("evt")
            const at = Date.parse("2024-11-01T12:00:00.123Z")
            yield* TestClock.setTime(at)
            const events = ["c", "a", "b"].map((suffix, n) => sampleEvent(`${prefix}:${suffix}`, { n }))
            const recorded = yield* store.record(events)
            assert.deepStrictEqual(
              recorded.map(({ key, payload, recordedAtMillis, type }) => ({ type, key, payload, recordedAtMillis })),
              events.map((event) => ({ ...event, recordedAtMillis: at }))
            )
            assert.isTrue(recorded.every((event) => Number.isSafeInteger(event.sequence) && event.sequence > 0))
            assert.isTrue(isStrictlyIncreasing(sequencesOf(recorded)))
            assert.isTrue(recorded.every((event) => /^evt_[\w-]{16,}$/.test(event.id)))
            assert.strictEqual(new Set(recorded.map((event) => event.id)).size, 3)

            const stored = yield* store.after(recorded[0]!.sequence - 1, 100)
            assert.deepStrictEqual(keyedBy(prefix)(stored), recorded)

            yield* TestClock.adjust(Duration.minutes(1))
            const [later] = yield* store.record([sampleEvent(`${prefix}:later`)])
            assert.strictEqual(later?.recordedAtMillis, at + 60_000)
            assert.isTrue(later!.sequence > recorded[2]!.sequence)
          }))

        it.effect("recording a known key again records nothing and keeps the first event", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const key = uniqueName("evt")
            const [first] = yield* store.record([sampleEvent(key, { version: 1 })])
            assert.deepStrictEqual(yield* store.record([sampleEvent(key, { version: 2 })]), [])
            assert.deepStrictEqual(yield* store.findByKey(key), Option.some(first!))
            const stored = yield* store.after(first!.sequence - 1, 100)
            assert.deepStrictEqual(stored.filter((event) => event.key === key), [first!])

            const racing = uniqueName("evt")
            const outcomes = yield* Effect.all(
              Arr.makeBy(8, (n) => store.record([sampleEvent(racing, { n })])),
              { concurrency: "unbounded" }
            )
            assert.strictEqual(outcomes.flat().length, 1)
            assert.deepStrictEqual(yield* store.findByKey(racing), Option.fromNullable(outcomes.flat()[0]))
          }))

        it.effect("a batch with known keys records only the new ones, and a key twice in a batch once", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("evt")
            const [known] = yield* store.record([sampleEvent(`${prefix}:known`)])
            const recorded = yield* store.record([
              sampleEvent(`${prefix}:known`, "again"),
              sampleEvent(`${prefix}:new`, "new"),
              sampleEvent(`${prefix}:twice`, "first"),
              sampleEvent(`${prefix}:twice`, "second")
            ])
            assert.deepStrictEqual(recorded.map((event) => [event.key, event.payload]), [
              [`${prefix}:new`, "new"],
              [`${prefix}:twice`, "first"]
            ])
            assert.isTrue(isStrictlyIncreasing([known!.sequence, ...sequencesOf(recorded)]))
            const stored = keyedBy(prefix)(yield* store.after(known!.sequence - 1, 100))
            assert.deepStrictEqual(stored, [known!, ...recorded])
            assert.deepStrictEqual(yield* store.record([]), [])
          }))

        it.effect("after pages the log oldest first, from a sequence, at most limit events", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("evt")
            const recorded = yield* store.record(Arr.makeBy(5, (n) => sampleEvent(`${prefix}:${n}`, n)))
            const start = recorded[0]!.sequence - 1
            const pages: Array<ReadonlyArray<StoredEvent>> = []
            let from = start
            while (pages.length < 10) {
              const page = keyedBy(prefix)(yield* store.after(from, 2))
              if (page.length === 0) break
              pages.push(page)
              from = page[page.length - 1]!.sequence
            }
            assert.deepStrictEqual(pages.map((page) => page.map((event) => event.payload)), [[0, 1], [2, 3], [4]])
            assert.deepStrictEqual(pages.flat(), recorded)
            assert.deepStrictEqual(yield* store.after(start, 0), [])
            assert.deepStrictEqual(keyedBy(prefix)(yield* store.after(recorded[2]!.sequence, 100)), recorded.slice(3))
            const everything = yield* store.after(0, 1_000_000)
            assert.isTrue(isStrictlyIncreasing(sequencesOf(everything)))
            assert.deepStrictEqual(keyedBy(prefix)(everything), recorded)
          }))

        it.effect("finds an event by key; an unknown key is none", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("evt")
            const recorded = yield* store.record([sampleEvent(`${prefix}:a`, "a"), sampleEvent(`${prefix}:b`, "b")])
            assert.deepStrictEqual(yield* store.findByKey(`${prefix}:b`), Option.fromNullable(recorded[1]))
            assert.deepStrictEqual(yield* store.findByKey(`${prefix}:a`), Option.fromNullable(recorded[0]))
            assert.isTrue(Option.isNone(yield* store.findByKey(`${prefix}:missing`)))
          }))

        it.effect("payloads read back as the JSON they were", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("evt")
            const payloads: ReadonlyArray<unknown> = [
              {
                publicationId: "0000320193-24-000123",
                company: { name: "Société Générale — 日本 ✓ 🚀", tickers: ["GLE", "SCGLY"] },
                numbers: [0, -1.5, 0.1 + 0.2, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, -0.000123],
                nested: { deeper: { deepest: [null, true, false, "", { "key with \"quotes\"": "\\ \n \t" }] } },
                empty: {}
              },
              [1, "two", { three: 3 }],
              "a bare string",
              42,
              null
            ]
            const recorded = yield* store.record(payloads.map((payload, n) => sampleEvent(`${prefix}:${n}`, payload)))
            assert.deepStrictEqual(recorded.map((event) => event.payload), payloads)
            const stored = keyedBy(prefix)(yield* store.after(recorded[0]!.sequence - 1, 100))
            assert.deepStrictEqual(stored.map((event) => event.payload), payloads)
            const found = yield* store.findByKey(`${prefix}:0`)
            assert.deepStrictEqual(Option.map(found, (event) => event.payload), Option.some(payloads[0]))
          }))

        it.effect("concurrent recorders get increasing sequences in turn, and a reader never sees one appear below", () =>
          Effect.gen(function*() {
            const store = yield* EventStore
            const prefix = uniqueName("evt")
            const [marker] = yield* store.record([sampleEvent(`${prefix}:marker`)])
            const start = marker!.sequence
            const writersDone = yield* Deferred.make<void>()

            // Re-reads the log from the start each time: what it saw before must still be the
            // beginning of what it sees now, or an event turned up below one already seen.
            const reader = Effect.gen(function*() {
              let seen: ReadonlyArray<number> = []
              let reads = 0
              const violations: Array<string> = []
              while (!(yield* Deferred.isDone(writersDone))) {
                const now = sequencesOf(yield* store.after(start, 1000))
                reads++
                if (!isStrictlyIncreasing(now) || seen.some((sequence, index) => now[index] !== sequence)) {
                  violations.push(`saw ${seen.join(",")} then ${now.join(",")}`)
                }
                seen = now
                // A real pause, not a yield: a reader that never lets go could keep a single-connection
                // adapter (PGlite) from ever starting the writers' transactions.
                yield* TestServices.provideLive(Effect.sleep(Duration.millis(1)))
              }
              return { reads, violations }
            })
            const writer = (fiber: number) => {
              const events = Arr.makeBy(5, (n) => sampleEvent(`${prefix}:${fiber}:${n}`, { fiber, n }))
              return Effect.all([store.record(events.slice(0, 2)), store.record(events.slice(2))])
            }

            const reading = yield* Effect.fork(reader)
            const calls = (yield* Effect.all(Arr.makeBy(20, writer), { concurrency: "unbounded" }).pipe(
              Effect.ensuring(Deferred.succeed(writersDone, undefined))
            )).flat()
            const { reads, violations } = yield* Fiber.join(reading)
            assert.deepStrictEqual(violations, [])
            assert.isTrue(reads > 0)

            const recorded = calls.flat()
            assert.strictEqual(recorded.length, 100)
            assert.strictEqual(new Set(sequencesOf(recorded)).size, 100)
            assert.strictEqual(new Set(recorded.map((event) => event.id)).size, 100)
            assert.isTrue(recorded.every((event) => event.sequence > start))
            assert.isTrue(calls.every((call) => isStrictlyIncreasing(sequencesOf(call))))

            const log = yield* store.after(start, 1000)
            assert.deepStrictEqual(keyedBy(prefix)(log), [...recorded].sort((a, b) => a.sequence - b.sequence))
            // Callers take turns: no other call's event lands between the events of one call.
            const position = new Map(log.map((event, index) => [event.id, index]))
            for (const call of calls) {
              const positions = call.map((event) => position.get(event.id)!)
              assert.strictEqual(positions[positions.length - 1]! - positions[0]!, call.length - 1)
            }
          }))
      })

      describe("CursorStore", () => {
        it.effect("an unknown cursor is none; a set cursor reads back, and setting it again replaces it", () =>
          Effect.gen(function*() {
            const cursors = yield* CursorStore
            const name = uniqueName("cursor")
            assert.isTrue(Option.isNone(yield* cursors.get(name)))
            yield* cursors.set(name, "2024-11-01T12:00:00Z|0000320193-24-000123")
            assert.deepStrictEqual(yield* cursors.get(name), Option.some("2024-11-01T12:00:00Z|0000320193-24-000123"))
            yield* cursors.set(name, "")
            assert.deepStrictEqual(yield* cursors.get(name), Option.some(""))
            yield* cursors.set(name, "é ✓ 日本")
            assert.deepStrictEqual(yield* cursors.get(name), Option.some("é ✓ 日本"))
          }))

        it.effect("cursors are kept apart by name, and a cursor set by one program is read by the next", () =>
          Effect.gen(function*() {
            const [feed, folder] = [uniqueName("cursor"), uniqueName("cursor")]
            // Two programs of their own, each getting the store afresh, as a poller before and after a restart.
            const before = Effect.flatMap(
              CursorStore,
              (cursors) => Effect.zipRight(cursors.set(feed, "feed-position"), cursors.set(folder, "folder-position"))
            )
            const after = Effect.flatMap(CursorStore, (cursors) => Effect.all([cursors.get(feed), cursors.get(folder)]))
            yield* Fiber.join(yield* Effect.fork(before))
            assert.deepStrictEqual(yield* after, [Option.some("feed-position"), Option.some("folder-position")])

            const cursors = yield* CursorStore
            yield* cursors.set(feed, "feed-later")
            assert.deepStrictEqual(yield* after, [Option.some("feed-later"), Option.some("folder-position")])
            assert.isTrue(Option.isNone(yield* cursors.get(`${feed}-other`)))
          }))
      })

      describe("JobQueue", () => {
        it.effect("forgets completed jobs after the retention, once each; a forgotten job's key still refuses a duplicate", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("prune")
            const day = Duration.days(1)
            const week = Duration.days(7)
            // A time of its own, after every other test's, with what they completed forgotten first.
            yield* TestClock.setTime(Date.parse("2150-01-01T00:00:00.000Z") + Math.floor(Math.random() * 1e9))
            yield* queue.pruneCompleted(week)
            const keyed = yield* queue.enqueue(name, { n: 1 }, { uniqueKey: "k1" })
            yield* queue.enqueue(name, { n: 2 })
            yield* queue.enqueue(name, { n: 3 }, { uniqueKey: "k3" })
            const take = Effect.map(queue.take(name, Duration.minutes(1)), Option.getOrThrow)
            const [first, second, third] = [yield* take, yield* take, yield* take]
            assert.isTrue(yield* queue.complete(first))
            assert.isTrue(yield* queue.complete(second))
            assert.isTrue(yield* queue.fail(third, "never"))
            const waiting = yield* queue.enqueue(name, { n: 4 }, { uniqueKey: "k4" })

            yield* TestClock.adjust(Duration.subtract(week, Duration.millis(1)))
            assert.strictEqual(yield* queue.pruneCompleted(week), 0, "not yet a week")
            yield* TestClock.adjust(Duration.millis(1))
            assert.strictEqual(yield* queue.pruneCompleted(week), 2, "the two completed; not the dead one")
            assert.strictEqual(yield* queue.pruneCompleted(week), 0, "each counted once")
            yield* TestClock.adjust(day)
            assert.strictEqual(yield* queue.pruneCompleted(week), 0)

            assert.strictEqual(yield* queue.enqueue(name, { n: 1, again: true }, { uniqueKey: "k1" }), keyed)
            assert.strictEqual(yield* queue.enqueue(name, { n: 3, again: true }, { uniqueKey: "k3" }), third.id)
            assert.strictEqual(yield* queue.enqueueAll(name, [{ payload: { n: 1 }, uniqueKey: "k1" }]), 0)
            assert.strictEqual(yield* queue.pendingCount(name), 1)
            const next = yield* take
            assert.deepStrictEqual([next.id, next.payload], [waiting, { n: 4 }])
            assert.isTrue(Option.isNone(yield* queue.take(name, Duration.minutes(1))))
          }))

        it.effect("reports each queue's due, scheduled and running jobs and when the oldest due one came due", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            const other = `${name}-other`
            const ours = Effect.map(
              queue.depths,
              (depths) => depths.filter((depth) => depth.queue === name || depth.queue === other)
            )
            const start = yield* Clock.currentTimeMillis
            yield* queue.enqueue(name, { n: 1 })
            yield* TestClock.adjust(Duration.seconds(5))
            yield* queue.enqueue(name, { n: 2 })
            yield* queue.enqueue(name, { n: 3 }, { delay: Duration.minutes(10) })
            yield* queue.enqueue(other, { n: 4 })
            yield* TestClock.adjust(Duration.minutes(1))
            const first = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            assert.deepStrictEqual(first.payload, { n: 1 })
            assert.deepStrictEqual(yield* ours, [
              { queue: name, due: 1, scheduled: 1, running: 1, oldestDueAtMillis: Option.some(start + 5_000) },
              { queue: other, due: 1, scheduled: 0, running: 0, oldestDueAtMillis: Option.some(start + 5_000) }
            ])

            // The worker died: its job is due again, from when it first came due.
            yield* TestClock.adjust(Duration.seconds(30))
            assert.deepStrictEqual((yield* ours)[0], {
              queue: name,
              due: 2,
              scheduled: 1,
              running: 0,
              oldestDueAtMillis: Option.some(start)
            })

            const again = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            assert.isTrue(yield* queue.complete(again))
            const second = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            assert.isTrue(yield* queue.retry(second, Duration.minutes(1)))
            assert.deepStrictEqual((yield* ours)[0], {
              queue: name,
              due: 0,
              scheduled: 2,
              running: 0,
              oldestDueAtMillis: Option.none()
            })

            const last = Option.getOrThrow(yield* queue.take(other, Duration.seconds(30)))
            assert.isTrue(yield* queue.fail(last, "never"))
            assert.deepStrictEqual((yield* ours).map((depth) => depth.queue), [name], "an empty queue is not listed")
          }))

        it.effect("hands out a job once, under a lease, and completes it", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            const id = yield* queue.enqueue(name, { publicationId: "0000000001-24-000001", n: [1, 2] })
            const job = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            assert.deepStrictEqual([job.id, job.queue, job.attempts], [id, name, 1])
            assert.deepStrictEqual(job.payload, { publicationId: "0000000001-24-000001", n: [1, 2] })
            assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
            assert.strictEqual(yield* queue.pendingCount(name), 1)
            assert.isTrue(yield* queue.complete(job))
            assert.strictEqual(yield* queue.pendingCount(name), 0)
            assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
          }))

        it.effect("enqueues a batch: each job once by unique key, known keys and repeats skipped, delays kept", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            yield* queue.enqueue(name, { n: 0 }, { uniqueKey: "k0" })
            const added = yield* queue.enqueueAll(name, [
              { payload: { n: 1 }, uniqueKey: "k1" },
              { payload: { n: 0, again: true }, uniqueKey: "k0" },
              { payload: { n: 2 }, uniqueKey: "k2" },
              { payload: { n: 1, twice: true }, uniqueKey: "k1" },
              { payload: { n: 3 } },
              { payload: { n: 4 }, uniqueKey: "k4", delay: Duration.minutes(5) }
            ])
            assert.strictEqual(added, 4)
            assert.strictEqual(yield* queue.enqueueAll(name, []), 0)
            assert.strictEqual(yield* queue.pendingCount(name), 5)
            const due: Array<unknown> = []
            while (true) {
              const job = yield* queue.take(name, Duration.minutes(1))
              if (Option.isNone(job)) break
              due.push(job.value.payload)
              yield* queue.complete(job.value)
            }
            assert.sameDeepMembers(due, [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }])
            yield* TestClock.adjust(Duration.minutes(5))
            const delayed = Option.getOrThrow(yield* queue.take(name, Duration.minutes(1)))
            assert.deepStrictEqual(delayed.payload, { n: 4 })
            // A batch of thousands goes in whole.
            const many = Arr.makeBy(2_500, (n) => ({ payload: { n }, uniqueKey: `many-${n}` }))
            assert.strictEqual(yield* queue.enqueueAll(name, many), 2_500)
            assert.strictEqual(yield* queue.enqueueAll(name, many), 0)
          }))

        it.effect("takes due jobs oldest first and holds delayed ones back until they are due", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            const later = yield* queue.enqueue(name, "later", { delay: Duration.minutes(5) })
            const first = yield* queue.enqueue(name, "first")
            const second = yield* queue.enqueue(name, "second")
            const taken = [
              Option.getOrThrow(yield* queue.take(name, Duration.minutes(1))),
              Option.getOrThrow(yield* queue.take(name, Duration.minutes(1)))
            ]
            assert.deepStrictEqual(
              taken.map((job) => job.id),
              [first, second]
            )
            yield* Effect.forEach(taken, queue.complete)
            assert.isTrue(Option.isNone(yield* queue.take(name, Duration.minutes(1))))
            yield* TestClock.adjust(Duration.minutes(5))
            assert.strictEqual(Option.getOrThrow(yield* queue.take(name, Duration.minutes(1))).id, later)
          }))

        it.effect("a lease that runs out lets another worker take the job, and the first worker's lease is void", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            yield* queue.enqueue(name, "work")
            const crashed = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            yield* TestClock.adjust(Duration.seconds(31))
            const again = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            assert.deepStrictEqual([again.id, again.attempts], [crashed.id, 2])
            assert.isFalse(yield* queue.complete(crashed))
            assert.isFalse(yield* queue.retry(crashed, Duration.zero))
            assert.isTrue(yield* queue.complete(again))
          }))

        it.effect("extending a lease keeps the job from other workers", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            yield* queue.enqueue(name, "long")
            const job = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            yield* TestClock.adjust(Duration.seconds(20))
            assert.isTrue(yield* queue.extendLease(job, Duration.seconds(30)))
            yield* TestClock.adjust(Duration.seconds(20))
            assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
            assert.isTrue(yield* queue.complete(job))
          }))

        it.effect("a retried job comes back after its delay; a failed one never does", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            yield* queue.enqueue(name, "flaky")
            const job = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            assert.isTrue(yield* queue.retry(job, Duration.minutes(1)))
            assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
            yield* TestClock.adjust(Duration.minutes(1))
            const retried = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            assert.strictEqual(retried.attempts, 2)
            assert.isTrue(yield* queue.fail(retried, "gave up"))
            yield* TestClock.adjust(Duration.hours(1))
            assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
            assert.strictEqual(yield* queue.pendingCount(name), 0)
          }))

        it.effect("a unique key enqueues one job however often it is given", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            const ids = yield* Effect.all(
              Arr.replicate(queue.enqueue(name, "once", { uniqueKey: "filing-1" }), 5),
              { concurrency: "unbounded" }
            )
            assert.strictEqual(new Set(ids).size, 1)
            assert.strictEqual(yield* queue.pendingCount(name), 1)
            const job = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
            yield* queue.complete(job)
            assert.strictEqual(yield* queue.enqueue(name, "once", { uniqueKey: "filing-1" }), ids[0])
            assert.strictEqual(yield* queue.pendingCount(name), 0)
          }))

        it.effect("concurrent workers take every job exactly once", () =>
          Effect.gen(function*() {
            const queue = yield* JobQueue
            const name = uniqueName("q")
            const enqueued = yield* Effect.forEach(Arr.range(1, 24), (n) => queue.enqueue(name, { n }))
            const worker = Effect.gen(function*() {
              const taken: Array<string> = []
              while (true) {
                const job = yield* queue.take(name, Duration.minutes(1))
                if (Option.isNone(job)) return taken
                taken.push(job.value.id)
                yield* queue.complete(job.value)
              }
            })
            const fibers = yield* Effect.forEach(Arr.range(1, 4), () => Effect.fork(worker))
            const perWorker = yield* Effect.forEach(fibers, Fiber.join)
            const all = Chunk.fromIterable(perWorker.flat())
            assert.strictEqual(Chunk.size(all), enqueued.length)
            assert.deepStrictEqual([...new Set(perWorker.flat())].sort(), [...enqueued].sort())
          }))
      })

      describe("WebhookStore", () => {
        it.effect("stores a subscription and reads every field back, the secret included", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const subscription = sampleSubscription()
            yield* store.create(subscription)
            const found = yield* store.find(subscription.id, subscription.ownerKeyId)
            assert.deepStrictEqual(Option.map(found, revealed), Option.some(revealed(subscription)))
            const secret = Option.getOrThrow(found).secret
            assert.isTrue(Redacted.isRedacted(secret))
            assert.strictEqual(Redacted.value(secret), Redacted.value(subscription.secret))
            assert.notInclude(String(secret), Redacted.value(subscription.secret))
            assert.deepStrictEqual(
              Option.map(yield* store.findById(subscription.id), revealed),
              Option.some(revealed(subscription))
            )

            // Numbers past 2^32, a time already set, no filters, and a filter given as undefined (absent when read).
            const other = sampleSubscription({
              events: ["press_release.new"],
              filters: { tickers: undefined, docTypes: ["8-K"] },
              status: "paused",
              createdAtMillis: 4_102_444_800_000,
              lastTriggeredAtMillis: 4_102_444_800_123,
              startSequence: 2 ** 40 + 1
            })
            yield* store.create(other)
            assert.deepStrictEqual(
              Option.map(yield* store.findById(other.id), revealed),
              Option.some(revealed({ ...other, filters: { docTypes: ["8-K"] } }))
            )
            const unfiltered = sampleSubscription({ filters: {}, events: [] })
            yield* store.create(unfiltered)
            assert.deepStrictEqual(
              Option.map(yield* store.findById(unfiltered.id), revealed),
              Option.some(revealed(unfiltered))
            )
          }))

        it.effect("creating an existing id fails and keeps the first", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const subscription = sampleSubscription()
            yield* store.create(subscription)
            const error = yield* Effect.flip(store.create({ ...subscription, url: "https://elsewhere.example.com/" }))
            assert.strictEqual(error._tag, "StorageError")
            assert.deepStrictEqual(
              Option.map(yield* store.findById(subscription.id), revealed),
              Option.some(revealed(subscription))
            )
          }))

        it.effect("lists an owner's subscriptions oldest first, and no other owner's", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const [owner, other] = [uniqueName("key"), uniqueName("key")]
            const second = sampleSubscription({ ownerKeyId: owner, createdAtMillis: createdAt + 2 })
            const first = sampleSubscription({ ownerKeyId: owner, createdAtMillis: createdAt + 1 })
            const third = sampleSubscription({ ownerKeyId: owner, createdAtMillis: createdAt + 3 })
            const others = sampleSubscription({ ownerKeyId: other })
            yield* Effect.forEach([second, others, first, third], store.create)

            const listed = yield* store.list(owner)
            assert.deepStrictEqual(listed.map(revealed), [first, second, third].map(revealed))
            assert.deepStrictEqual(idsOf(yield* store.list(other)), [others.id])
            assert.deepStrictEqual(yield* store.list(uniqueName("key")), [])

            const ours = new Set(idsOf([first, second, third, others]))
            const all = (yield* store.listAll).filter((subscription) => ours.has(subscription.id))
            assert.deepStrictEqual(idsOf(all), [others.id, first.id, second.id, third.id])
            assert.deepStrictEqual(all[1] && revealed(all[1]), revealed(first))
          }))

        it.effect("another owner's find, update and remove see nothing and change nothing", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const subscription = sampleSubscription()
            const stranger = uniqueName("key")
            yield* store.create(subscription)
            assert.isTrue(Option.isNone(yield* store.find(subscription.id, stranger)))
            const update = yield* store.update(subscription.id, stranger, {
              url: "https://attacker.example.com/",
              status: "paused",
              filters: {}
            })
            assert.isTrue(Option.isNone(update))
            assert.isFalse(yield* store.remove(subscription.id, stranger))
            assert.deepStrictEqual(yield* store.list(stranger), [])
            assert.deepStrictEqual(
              Option.map(yield* store.find(subscription.id, subscription.ownerKeyId), revealed),
              Option.some(revealed(subscription))
            )
          }))

        it.effect("update applies only the given changes, and given filters replace the old ones", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const subscription = sampleSubscription()
            const { id, ownerKeyId } = subscription
            yield* store.create(subscription)
            const steps: ReadonlyArray<readonly [SubscriptionChanges, Subscription]> = [
              [{ url: "https://hooks.example.com/v2" }, { ...subscription, url: "https://hooks.example.com/v2" }],
              [{ events: ["filing.new"], url: undefined }, {
                ...subscription,
                url: "https://hooks.example.com/v2",
                events: ["filing.new"]
              }],
              [{ filters: { docTypes: ["10-Q"] } }, {
                ...subscription,
                url: "https://hooks.example.com/v2",
                events: ["filing.new"],
                filters: { docTypes: ["10-Q"] }
              }],
              [{ status: "paused" }, {
                ...subscription,
                url: "https://hooks.example.com/v2",
                events: ["filing.new"],
                filters: { docTypes: ["10-Q"] },
                status: "paused"
              }],
              [{}, {
                ...subscription,
                url: "https://hooks.example.com/v2",
                events: ["filing.new"],
                filters: { docTypes: ["10-Q"] },
                status: "paused"
              }],
              [{ url: "https://hooks.example.com/v3", events: [], filters: {}, status: "active" }, {
                ...subscription,
                url: "https://hooks.example.com/v3",
                events: [],
                filters: {}
              }]
            ]
            for (const [changes, expected] of steps) {
              const updated = yield* store.update(id, ownerKeyId, changes)
              assert.deepStrictEqual(Option.map(updated, revealed), Option.some(revealed(expected)))
              assert.deepStrictEqual(
                Option.map(yield* store.find(id, ownerKeyId), revealed),
                Option.some(revealed(expected))
              )
            }
            assert.isTrue(Option.isNone(yield* store.update(`wh_${randomBytes(12).toString("hex")}`, ownerKeyId, {})))
          }))

        it.effect("update with a secret replaces it; without one keeps it", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const subscription = sampleSubscription()
            const { id, ownerKeyId } = subscription
            yield* store.create(subscription)
            const secretOf = Effect.map(store.findById(id), (found) => Redacted.value(Option.getOrThrow(found).secret))

            const rotated = yield* store.update(id, ownerKeyId, { secret: Redacted.make("rotated-secret-0123456789") })
            assert.deepStrictEqual(
              Option.map(rotated, revealed),
              Option.some(revealed({ ...subscription, secret: Redacted.make("rotated-secret-0123456789") }))
            )
            assert.strictEqual(yield* secretOf, "rotated-secret-0123456789")
            yield* store.update(id, ownerKeyId, { status: "paused", secret: undefined })
            assert.strictEqual(yield* secretOf, "rotated-secret-0123456789")
            // Another owner cannot rotate it.
            yield* store.update(id, uniqueName("key"), { secret: Redacted.make("stolen-secret-0123456789") })
            assert.strictEqual(yield* secretOf, "rotated-secret-0123456789")
          }))

        it.effect("createWithin stores up to the owner's cap, concurrently too, and other owners are not counted", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const [owner, other] = [uniqueName("key"), uniqueName("key")]
            yield* store.create(sampleSubscription({ ownerKeyId: other }))
            assert.isTrue(yield* store.createWithin(sampleSubscription({ ownerKeyId: owner }), 5))
            // Eight creations race for the four places left.
            const outcomes = yield* Effect.all(
              Arr.makeBy(8, () => store.createWithin(sampleSubscription({ ownerKeyId: owner }), 5)),
              { concurrency: "unbounded" }
            )
            assert.strictEqual(outcomes.filter((created) => created).length, 4)
            assert.strictEqual((yield* store.list(owner)).length, 5)
            const refused = sampleSubscription({ ownerKeyId: owner })
            assert.isFalse(yield* store.createWithin(refused, 5))
            assert.isTrue(Option.isNone(yield* store.findById(refused.id)))
            // The other owner's one subscription leaves it room under a cap of 2.
            assert.isTrue(yield* store.createWithin(sampleSubscription({ ownerKeyId: other }), 2))
            assert.isFalse(yield* store.createWithin(sampleSubscription({ ownerKeyId: other }), 2))

            // Removing one makes room again; an existing id fails as create does.
            const [first] = yield* store.list(owner)
            assert.isTrue(yield* store.remove(first!.id, owner))
            const again = sampleSubscription({ ownerKeyId: owner })
            assert.isTrue(yield* store.createWithin(again, 5))
            const duplicate = yield* Effect.flip(store.createWithin({ ...again, ownerKeyId: uniqueName("key") }, 5))
            assert.strictEqual(duplicate._tag, "StorageError")
          }))

        it.effect("setStatus and markTriggered change a subscription whoever owns it; a later time is kept", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const subscription = sampleSubscription()
            yield* store.create(subscription)
            const stored = Effect.map(store.findById(subscription.id), Option.getOrThrow)

            yield* store.setStatus(subscription.id, "failed")
            assert.strictEqual((yield* stored).status, "failed")
            yield* store.setStatus(subscription.id, "active")
            assert.strictEqual((yield* stored).status, "active")

            const at = createdAt + 60_000
            yield* store.markTriggered(subscription.id, at)
            assert.strictEqual((yield* stored).lastTriggeredAtMillis, at)
            // A worker that finished earlier reports late: the later time stays.
            yield* store.markTriggered(subscription.id, at - 1_000)
            assert.strictEqual((yield* stored).lastTriggeredAtMillis, at)
            yield* store.markTriggered(subscription.id, at + 1)
            assert.deepStrictEqual(
              revealed(yield* stored),
              revealed({ ...subscription, lastTriggeredAtMillis: at + 1 })
            )

            const unknown = `wh_${randomBytes(12).toString("hex")}`
            yield* store.setStatus(unknown, "paused")
            yield* store.markTriggered(unknown, at)
            assert.isTrue(Option.isNone(yield* store.findById(unknown)))
          }))

        it.effect("remove deletes the owner's subscription and its deliveries, once", () =>
          Effect.gen(function*() {
            const store = yield* WebhookStore
            const deliveries = yield* DeliveryStore
            const subscription = yield* storedSubscription()
            const kept = yield* storedSubscription({ ownerKeyId: subscription.ownerKeyId })
            const batch = [sampleDelivery(subscription.id, 1), sampleDelivery(subscription.id, 2, { state: "skipped" })]
            const keptDelivery = sampleDelivery(kept.id, 1, { eventId: batch[0]!.eventId })
            assert.strictEqual((yield* deliveries.record([...batch, keptDelivery])).length, 3)

            assert.isTrue(yield* store.remove(subscription.id, subscription.ownerKeyId))
            assert.isTrue(Option.isNone(yield* store.find(subscription.id, subscription.ownerKeyId)))
            assert.isTrue(Option.isNone(yield* store.findById(subscription.id)))
            assert.deepStrictEqual(idsOf(yield* store.list(subscription.ownerKeyId)), [kept.id])
            for (const delivery of batch) assert.isTrue(Option.isNone(yield* deliveries.find(delivery.id)))
            assert.deepStrictEqual(yield* deliveries.list(subscription.id, { limit: 10 }), [])
            assert.deepStrictEqual(yield* deliveries.undeliveredSince(subscription.id, 0), [])
            assert.isTrue(Option.isNone(yield* deliveries.requeue(batch[1]!.id)))
            assert.deepStrictEqual(yield* deliveries.find(keptDelivery.id), Option.some(recordedAs(keptDelivery)))

            assert.isFalse(yield* store.remove(subscription.id, subscription.ownerKeyId))
          }))
      })

      describe("DeliveryStore", () => {
        it.effect("removes deliveries delivered before the retention, and keeps pending, skipped and failed ones", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const subscription = yield* storedSubscription()
            const month = Duration.days(30)
            const start = Date.parse("2150-06-01T00:00:00.000Z") + Math.floor(Math.random() * 1e9)
            yield* TestClock.setTime(start)
            yield* store.pruneDelivered(month)
            const [delivered, later, failed, pending, skipped] = [1, 2, 3, 4, 5].map((sequence) =>
              sampleDelivery(subscription.id, sequence, { createdAtMillis: start })
            )
            yield* store.record([delivered!, later!, failed!, pending!, { ...skipped!, state: "skipped" }])
            const attempt = (id: string, state: "delivered" | "failed", atMillis: number) =>
              store.recordAttempt(id, {
                atMillis,
                status: state === "delivered" ? 200 : 410,
                error: state === "delivered" ? null : "HTTP 410",
                state,
                nextAttemptAtMillis: null
              })
            yield* attempt(delivered!.id, "delivered", start)
            yield* attempt(later!.id, "delivered", start + 1_000)
            yield* attempt(failed!.id, "failed", start)

            yield* TestClock.adjust(month)
            assert.strictEqual(yield* store.pruneDelivered(month), 1)
            assert.isTrue(Option.isNone(yield* store.find(delivered!.id)))
            assert.isTrue(Option.isSome(yield* store.find(later!.id)), "delivered a second later")
            yield* TestClock.adjust(Duration.days(365))
            assert.strictEqual(yield* store.pruneDelivered(month), 1)
            assert.deepStrictEqual(
              idsOf(yield* store.list(subscription.id, { limit: 10 })),
              [skipped!.id, pending!.id, failed!.id]
            )
          }))

        it.effect("records new deliveries in the given order and reads every field back", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const subscription = yield* storedSubscription()
            const batch = [
              sampleDelivery(subscription.id, 5),
              sampleDelivery(subscription.id, 3, { state: "skipped", eventType: "filing.8k_material" }),
              sampleDelivery(subscription.id, 2 ** 40 + 9, { createdAtMillis: 4_102_444_800_000 })
            ]
            const recorded = yield* store.record(batch)
            assert.deepStrictEqual(recorded, batch.map(recordedAs))
            for (const delivery of batch) {
              assert.deepStrictEqual(yield* store.find(delivery.id), Option.some(recordedAs(delivery)))
            }
            assert.deepStrictEqual(yield* store.record([]), [])
            assert.isTrue(Option.isNone(yield* store.find(`dlv_${randomBytes(12).toString("hex")}`)))
          }))

        it.effect("a known (subscription, event) pair records nothing and keeps the first delivery", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const [subscription, other] = [yield* storedSubscription(), yield* storedSubscription()]
            const first = sampleDelivery(subscription.id, 1)
            yield* store.record([first])
            const again = { ...first, id: `dlv_${randomBytes(12).toString("hex")}`, state: "skipped" as const }
            assert.deepStrictEqual(yield* store.record([again]), [])
            assert.isTrue(Option.isNone(yield* store.find(again.id)))
            assert.deepStrictEqual(yield* store.find(first.id), Option.some(recordedAs(first)))

            // The same event for another subscription is another delivery; a pair twice in a batch counts once.
            const forOther = sampleDelivery(other.id, 1, { eventId: first.eventId })
            const fresh = sampleDelivery(subscription.id, 2)
            const twice = { ...fresh, id: `dlv_${randomBytes(12).toString("hex")}` }
            const recorded = yield* store.record([again, fresh, forOther, twice])
            assert.deepStrictEqual(recorded, [fresh, forOther].map(recordedAs))
            assert.isTrue(Option.isNone(yield* store.find(twice.id)))
            assert.deepStrictEqual(idsOf(yield* store.list(subscription.id, { limit: 10 })), [fresh.id, first.id])
          }))

        it.effect("a batch with a delivery of an unknown subscription fails and records none of it", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const subscription = yield* storedSubscription()
            const valid = sampleDelivery(subscription.id, 1)
            const orphan = sampleDelivery(`wh_${randomBytes(12).toString("hex")}`, 1)
            const error = yield* Effect.flip(store.record([valid, orphan]))
            assert.strictEqual(error._tag, "StorageError")
            assert.isTrue(Option.isNone(yield* store.find(valid.id)))
            assert.deepStrictEqual(yield* store.record([valid]), [recordedAs(valid)])
          }))

        it.effect("concurrent recorders of one batch create each delivery once", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const subscriptions = [yield* storedSubscription(), yield* storedSubscription()]
            const batch = Arr.range(1, 3).flatMap((sequence) =>
              subscriptions.map((subscription) =>
                sampleDelivery(subscription.id, sequence, { eventId: `evt_${sequence}_${subscriptions[0]!.id}` })
              )
            )
            // Half the recorders get the batch reversed, as dispatchers that list subscriptions in another order.
            const outcomes = yield* Effect.all(
              Arr.makeBy(8, (n) => store.record(n % 2 === 0 ? batch : [...batch].reverse())),
              { concurrency: "unbounded" }
            )
            const recorded = outcomes.flat()
            assert.deepStrictEqual([...idsOf(recorded)].sort(), [...idsOf(batch)].sort())
            assert.deepStrictEqual(
              [...recorded].sort((a, b) => a.id.localeCompare(b.id)),
              [...batch].sort((a, b) => a.id.localeCompare(b.id)).map(recordedAs)
            )
            for (const subscription of subscriptions) {
              assert.strictEqual((yield* store.list(subscription.id, { limit: 100 })).length, 3)
            }
          }))

        it.effect("recordAttempt counts attempts and moves a delivery to pending, delivered or failed", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const subscription = yield* storedSubscription()
            const retried = sampleDelivery(subscription.id, 1)
            const abandoned = sampleDelivery(subscription.id, 2)
            yield* store.record([retried, abandoned])
            const at = createdAt + 10_000

            const afterFirst = yield* store.recordAttempt(retried.id, {
              atMillis: at,
              status: 503,
              error: "HTTP 503",
              state: "pending",
              nextAttemptAtMillis: at + 60_000
            })
            const expectedFirst: Delivery = {
              ...recordedAs(retried),
              attempts: 1,
              lastAttemptAtMillis: at,
              lastStatus: 503,
              lastError: "HTTP 503",
              nextAttemptAtMillis: at + 60_000
            }
            assert.deepStrictEqual(afterFirst, Option.some(expectedFirst))

            const afterSecond = yield* store.recordAttempt(retried.id, {
              atMillis: at + 60_000,
              status: 204,
              error: null,
              state: "delivered",
              nextAttemptAtMillis: null
            })
            const expectedSecond: Delivery = {
              ...expectedFirst,
              state: "delivered",
              attempts: 2,
              lastAttemptAtMillis: at + 60_000,
              lastStatus: 204,
              lastError: null,
              nextAttemptAtMillis: null,
              deliveredAtMillis: at + 60_000
            }
            assert.deepStrictEqual(afterSecond, Option.some(expectedSecond))
            assert.deepStrictEqual(yield* store.find(retried.id), Option.some(expectedSecond))

            for (const n of [1, 2, 3]) {
              yield* store.recordAttempt(abandoned.id, {
                atMillis: at + n,
                status: null,
                error: "timed out after 10 s",
                state: n < 3 ? "pending" : "failed",
                nextAttemptAtMillis: n < 3 ? at + n * 1_000 : null
              })
            }
            assert.deepStrictEqual(
              yield* store.find(abandoned.id),
              Option.some({
                ...recordedAs(abandoned),
                state: "failed" as const,
                attempts: 3,
                lastAttemptAtMillis: at + 3,
                lastError: "timed out after 10 s"
              })
            )

            const unknown = yield* store.recordAttempt(`dlv_${randomBytes(12).toString("hex")}`, {
              atMillis: at,
              status: 200,
              error: null,
              state: "delivered",
              nextAttemptAtMillis: null
            })
            assert.isTrue(Option.isNone(unknown))
          }))

        it.effect("markSkipped sets a pending delivery aside, attempts kept; unknown ids are none", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const subscription = yield* storedSubscription()
            const pending = sampleDelivery(subscription.id, 1)
            yield* store.record([pending])
            const skipped = { ...recordedAs(pending), state: "skipped" as const }
            assert.deepStrictEqual(yield* store.markSkipped(pending.id), Option.some(skipped))
            assert.deepStrictEqual(yield* store.find(pending.id), Option.some(skipped))
            assert.isTrue(Option.isNone(yield* store.markSkipped(uniqueName("dlv"))))
          }))

        it.effect("requeue makes a delivery pending again and keeps its attempts", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const subscription = yield* storedSubscription()
            const failed = sampleDelivery(subscription.id, 1)
            const skipped = sampleDelivery(subscription.id, 2, { state: "skipped" })
            yield* store.record([failed, skipped])
            yield* store.recordAttempt(failed.id, {
              atMillis: createdAt + 5,
              status: 410,
              error: "HTTP 410",
              state: "pending",
              nextAttemptAtMillis: createdAt + 1_000
            })
            const attempted = Option.getOrThrow(
              yield* store.recordAttempt(failed.id, {
                atMillis: createdAt + 2_000,
                status: 410,
                error: "HTTP 410",
                state: "failed",
                nextAttemptAtMillis: null
              })
            )
            const requeued = { ...attempted, state: "pending" as const, nextAttemptAtMillis: null }
            assert.deepStrictEqual(yield* store.requeue(failed.id), Option.some(requeued))
            assert.deepStrictEqual(yield* store.find(failed.id), Option.some(requeued))
            assert.strictEqual(requeued.attempts, 2)

            assert.deepStrictEqual(
              yield* store.requeue(skipped.id),
              Option.some({ ...recordedAs(skipped), state: "pending" as const })
            )
            assert.isTrue(Option.isNone(yield* store.requeue(`dlv_${randomBytes(12).toString("hex")}`)))
          }))

        it.effect("lists a subscription's deliveries newest event first, paged by sequence", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const [subscription, other] = [yield* storedSubscription(), yield* storedSubscription()]
            const batch = [12, 10, 14, 11, 13].map((sequence) => sampleDelivery(subscription.id, sequence))
            yield* store.record([...batch, sampleDelivery(other.id, 15), sampleDelivery(other.id, 11)])
            const sequences = (deliveries: ReadonlyArray<Delivery>) => deliveries.map((d) => d.eventSequence)

            const all = yield* store.list(subscription.id, { limit: 100 })
            assert.deepStrictEqual(sequences(all), [14, 13, 12, 11, 10])
            assert.deepStrictEqual(all[0], recordedAs(batch[2]!))

            const pages: Array<ReadonlyArray<number>> = []
            let before: number | undefined = undefined
            while (pages.length < 10) {
              const page: ReadonlyArray<Delivery> = yield* store.list(subscription.id, {
                limit: 2,
                beforeSequence: before
              })
              if (page.length === 0) break
              pages.push(sequences(page))
              before = page[page.length - 1]!.eventSequence
            }
            assert.deepStrictEqual(pages, [[14, 13], [12, 11], [10]])
            assert.deepStrictEqual(sequences(yield* store.list(subscription.id, { limit: 100, beforeSequence: 13 })), [
              12,
              11,
              10
            ])
            assert.deepStrictEqual(yield* store.list(subscription.id, { limit: 100, beforeSequence: 10 }), [])
            assert.deepStrictEqual(yield* store.list(subscription.id, { limit: 0 }), [])
            assert.deepStrictEqual(sequences(yield* store.list(other.id, { limit: 100 })), [15, 11])
            assert.deepStrictEqual(yield* store.list(`wh_${randomBytes(12).toString("hex")}`, { limit: 100 }), [])
          }))

        it.effect("undeliveredSince: a subscription's skipped and failed deliveries created at or after a time, oldest first", () =>
          Effect.gen(function*() {
            const store = yield* DeliveryStore
            const [subscription, other] = [yield* storedSubscription(), yield* storedSubscription()]
            const since = createdAt + 1_000_000
            const skipped = (sequence: number, at: number) =>
              sampleDelivery(subscription.id, sequence, { state: "skipped", createdAtMillis: at })
            const before = skipped(1, since - 1)
            const atSince = skipped(2, since)
            const later = sampleDelivery(subscription.id, 3, { createdAtMillis: since + 10 })
            const latest = skipped(4, since + 20)
            const recovered = skipped(5, since + 5)
            const pending = sampleDelivery(subscription.id, 6, { createdAtMillis: since + 7 })
            const delivered = sampleDelivery(subscription.id, 8, { createdAtMillis: since + 8 })
            const othersSkipped = sampleDelivery(other.id, 7, { state: "skipped", createdAtMillis: since + 1 })
            yield* store.record([latest, later, pending, delivered, before, recovered, atSince, othersSkipped])
            yield* store.requeue(recovered.id)
            const attempted = (state: "failed" | "delivered") => ({
              atMillis: since + 30,
              status: state === "failed" ? 500 : 204,
              error: state === "failed" ? "HTTP 500" : null,
              state,
              nextAttemptAtMillis: null
            })
            const failed = yield* store.recordAttempt(later.id, attempted("failed"))
            yield* store.recordAttempt(delivered.id, attempted("delivered"))

            assert.deepStrictEqual(
              yield* store.undeliveredSince(subscription.id, since),
              [recordedAs(atSince), Option.getOrThrow(failed), recordedAs(latest)]
            )
            assert.deepStrictEqual(
              idsOf(yield* store.undeliveredSince(subscription.id, since + 1)),
              idsOf([later, latest])
            )
            assert.deepStrictEqual(idsOf(yield* store.undeliveredSince(subscription.id, since + 20)), [latest.id])
            assert.deepStrictEqual(yield* store.undeliveredSince(subscription.id, since + 21), [])
            assert.deepStrictEqual(
              idsOf(yield* store.undeliveredSince(subscription.id, 0)),
              idsOf([before, atSince, later, latest])
            )
            assert.deepStrictEqual(idsOf(yield* store.undeliveredSince(other.id, since)), [othersSkipped.id])
            assert.deepStrictEqual(yield* store.undeliveredSince(`wh_${randomBytes(12).toString("hex")}`, 0), [])
          }))
      })
    })
  })
