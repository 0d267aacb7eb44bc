// The CompanyStore part of the conformance suite: companies, their tickers and details.
import { assert, describe, type Vitest } from "@effect/vitest"
import type { Ids } from "@filings/domain"
import { Array as Arr, Effect, Option, TestClock } from "effect"
import { randomBytes } from "node:crypto"
import { type CompanyDetails, CompanyStore } from "../CompanyStore.js"
import type { Stores } from "../Stores.js"
import { uniqueCik, uniqueTicker } from "./conformanceSamples.js"

/** Registers the CompanyStore tests on a layer's `it`. */
export const companySuite = (it: Vitest.MethodsNonLive<Stores>) => {
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
}
