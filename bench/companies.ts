/**
 * The company search (`q` of `GET /v1/companies`) over a full company list: 10,000 synthetic
 * companies (12,000 tickers: every sixth company has a second class) stored with one
 * `saveListing`, then searched in this process through the SQL company store, on embedded PGlite
 * and, when `FILINGS_TEST_DATABASE_URL` names a PostgreSQL server, on a fresh database there. With
 * the corpus beside the repository, the regulator's own `company_tickers.json` (9,610 tickers) is
 * searched the same way on PGlite. Reports how long the listing took to store, and p50/p99 per kind
 * of query (an exact ticker, a ticker's beginning, a central index key, name words, no `q` with an
 * exchange), 50 per page with the total. Writes `bench/results/companies-latest.md`.
 *
 *   node --import tsx bench/companies.ts [--companies 10000] [--rounds 300]
 */
import type { Ids } from "@filings/domain"
import { CompanyTickers } from "@filings/edgar"
import { CompanyStore } from "@filings/storage"
import { SqlStorage, TestDatabase } from "@filings/storage-sql"
import { Effect, Layer, Redacted } from "effect"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { letterTicker } from "./support/tickers.js"

const { values: argv } = parseArgs({
  options: { companies: { type: "string", default: "10000" }, rounds: { type: "string", default: "300" } },
  strict: true
})
const companyCount = Number(argv.companies)
const rounds = Number(argv.rounds)

const firstWords = [
  "Acme",
  "Global",
  "American",
  "United",
  "First",
  "Pacific",
  "Atlantic",
  "Northern",
  "Southern",
  "Western",
  "Eastern",
  "Micro",
  "Quantum",
  "Blue",
  "Green",
  "Silver",
  "Golden",
  "Apex",
  "Summit",
  "Pioneer",
  "Liberty",
  "Eagle",
  "Harbor",
  "Frontier",
  "Sterling",
  "Vertex",
  "Nova",
  "Orion",
  "Titan",
  "Zenith"
]
const secondWords = [
  "Energy",
  "Bancorp",
  "Therapeutics",
  "Systems",
  "Technologies",
  "Holdings",
  "Industries",
  "Pharmaceuticals",
  "Financial",
  "Networks",
  "Semiconductor",
  "Resources",
  "Capital",
  "Realty",
  "Foods",
  "Motors",
  "Biosciences",
  "Software",
  "Communications",
  "Logistics"
]
const suffixes = ["Inc.", "Corp", "Co", "Ltd", "Group Inc", "Holdings Corp", "PLC", "LLC"]
const exchanges = ["Nasdaq", "NYSE", "OTC", "CBOE"]

const synthetic = (count: number): ReadonlyArray<CompanyStore.ListedTicker> => {
  const rows: Array<CompanyStore.ListedTicker> = []
  for (let index = 0; index < count; index++) {
    const cik = String(1_000_000 + index).padStart(10, "0") as Ids.Cik
    const name = `${firstWords[index % firstWords.length]} ${
      secondWords[Math.floor(index / firstWords.length) % secondWords.length]
    } ${suffixes[index % suffixes.length]}`
    const exchange = exchanges[index % exchanges.length]
    rows.push({ cik, ticker: letterTicker(index), name, exchange })
    if (index % 6 === 0) rows.push({ cik, ticker: `${letterTicker(index)}-B` as Ids.Ticker, name, exchange })
  }
  return rows
}

const corpusList = new URL("../../shared/corpus/feeds/company_tickers.json", import.meta.url)

const fromCorpus = (): Effect.Effect<ReadonlyArray<CompanyStore.ListedTicker>, unknown> =>
  Effect.map(
    CompanyTickers.readCompanyTickers(readFileSync(corpusList, "utf8")),
    ({ companies }) =>
      companies.flatMap((company) =>
        /^[A-Z0-9][A-Z0-9.-]{0,11}$/.test(company.ticker)
          ? [{ cik: company.cik, ticker: company.ticker as Ids.Ticker, name: company.name }]
          : []
      )
  )

interface Workload {
  readonly name: string
  readonly queries: ReadonlyArray<CompanyStore.CompanySearch>
}

const page = { limit: 50, offset: 0 }

/** The kinds of query, each a rotation of values drawn from the list itself. */
const workloads = (listed: ReadonlyArray<CompanyStore.ListedTicker>): ReadonlyArray<Workload> => {
  const pick = <A>(values: ReadonlyArray<A>, n: number) =>
    Array.from({ length: n }, (_, index) => values[(index * 7919) % values.length]!)
  const tickers = pick(listed.map((entry) => entry.ticker), 50)
  const words = [...new Set(listed.flatMap((entry) => CompanyStore.nameWords(entry.name)))]
  return [
    { name: "exact ticker (`q=MSFT`)", queries: tickers.map((q) => ({ q, ...page })) },
    { name: "one letter (`q=a`)", queries: [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((q) => ({ q, ...page })) },
    {
      name: "a ticker's beginning (`q=MS`)",
      queries: tickers.map((ticker) => ({ q: ticker.slice(0, 2), ...page }))
    },
    {
      name: "central index key (`q=320193`)",
      queries: pick(listed, 50).map((entry) => ({ q: String(Number(entry.cik)), ...page }))
    },
    {
      name: "a name word's beginning (`q=therap`)",
      queries: pick(words, 50).map((w) => ({ q: w.slice(0, 5), ...page }))
    },
    {
      name: "two name words (`q=global energy`)",
      queries: pick(listed, 50).map((entry) => ({
        q: CompanyStore.nameWords(entry.name).slice(0, 2).join(" "),
        ...page
      }))
    },
    {
      name: "no q, one exchange, page 3 (`exchange=NYSE&offset=100`)",
      queries: exchanges.map((exchange) => ({ exchange, limit: 50, offset: 100 }))
    }
  ]
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0

const measure = (listed: ReadonlyArray<CompanyStore.ListedTicker>) =>
  Effect.gen(function*() {
    const store = yield* CompanyStore.CompanyStore
    const start = performance.now()
    const saved = yield* store.saveListing(listed)
    const storeMillis = performance.now() - start
    const rows: Array<string> = []
    for (const workload of workloads(listed)) {
      const times: Array<number> = []
      let matches = 0
      for (let round = 0; round < rounds + 20; round++) {
        const query = workload.queries[round % workload.queries.length]!
        const began = performance.now()
        const result = yield* store.search(query)
        // The first 20 warm the caches and the JIT.
        if (round >= 20) {
          times.push(performance.now() - began)
          matches += result.total
        }
      }
      times.sort((a, b) => a - b)
      rows.push(
        `| ${workload.name} | ${Math.round(matches / rounds).toLocaleString("en-US")} | ${
          percentile(times, 0.5).toFixed(2)
        } | ${percentile(times, 0.99).toFixed(2)} |`
      )
    }
    return { saved, storeMillis, rows }
  })

const report = (title: string, result: Effect.Effect.Success<ReturnType<typeof measure>>) =>
  [
    `### ${title}`,
    "",
    `Stored ${result.saved.companies.toLocaleString("en-US")} companies with ${
      result.saved.tickers.toLocaleString("en-US")
    } tickers in one \`saveListing\`: ${(result.storeMillis / 1000).toFixed(2)} s. ${rounds} searches per kind, ms:`,
    "",
    "| query | matches (mean total) | p50 ms | p99 ms |",
    "|---|--:|--:|--:|",
    ...result.rows,
    ""
  ].join("\n")

const run = <E>(layer: Layer.Layer<CompanyStore.CompanyStore, E>, listed: ReadonlyArray<CompanyStore.ListedTicker>) =>
  Effect.runPromise(Effect.scoped(Effect.provide(measure(listed), layer)))

const onPglite = () => SqlStorage.companyStore.pipe(Layer.provide(TestDatabase.layerPglite()))

const main = async () => {
  const listed = synthetic(companyCount)
  const out: Array<string> = [
    `Node ${process.version}; ${rounds} measured searches per kind (after 20 unmeasured), limit 50 with the total.`,
    ""
  ]
  out.push(report(`Synthetic list on PGlite (in memory)`, await run(onPglite(), listed)))
  const admin = process.env.FILINGS_TEST_DATABASE_URL
  if (admin !== undefined && admin !== "") {
    const layer = SqlStorage.companyStore.pipe(Layer.provide(TestDatabase.layerPostgres(Redacted.make(admin))))
    out.push(report("Synthetic list on PostgreSQL (local server, fresh database)", await run(layer, listed)))
  } else {
    out.push("(PostgreSQL skipped: set FILINGS_TEST_DATABASE_URL to an admin URL.)\n")
  }
  if (existsSync(corpusList)) {
    const regulators = await Effect.runPromise(fromCorpus())
    out.push(report("The regulator's company_tickers.json (corpus) on PGlite", await run(onPglite(), regulators)))
  }
  const text = out.join("\n")
  writeFileSync(new URL("results/companies-latest.md", import.meta.url), `# Company search\n\n${text}`)
  console.log(text)
}

await main()
