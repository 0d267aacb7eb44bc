/**
 * Table sizes after a simulated year of following EDGAR, with retention as the server runs it and
 * without it (the behaviour before retention), side by side in one run, each on a fresh PostgreSQL
 * database made from `FILINGS_TEST_DATABASE_URL` (both dropped afterwards).
 *
 * Each simulated day, through the storage ports and the server's own code where it writes: the
 * day's filings are enqueued on the filing queue (unique key: the accession number), taken and
 * completed by workers; their events (`filing.new`, `filing.8k_material` for a material 8-K,
 * `press_release.new` for an earnings 8-K's release) are recorded; the real `dispatchOnce` turns
 * them into deliveries and delivery jobs for the subscriptions that want them; workers take each
 * delivery job and record its attempt: most are delivered at once, some after a failed attempt,
 * a few fail for good after six. With retention, the server's hourly pass (`Retention.pruneOnce`,
 * 7 days for jobs, 30 for deliveries) runs every simulated hour. Documents are not stored: their
 * size is the users' data, which retention does not bound.
 *
 * Time is the Effect `Clock`, which the simulation sets, so completion and delivery times span the
 * year. A year takes minutes, far too fast for autovacuum's own schedule, so autovacuum is off on
 * the measured tables and the simulation vacuums and analyzes a table when autovacuum would (the
 * server's thresholds, checked at the end of every simulated hour, on the changes the simulation
 * counts). At the end: row counts and sizes as the year left them, after `VACUUM`, and after
 * `VACUUM FULL` (the live size).
 *
 *   FILINGS_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     node --import tsx bench/retention.ts [--filings-per-day 400] [--days 365] [--subscriptions 20]
 *     [--workers 4] [--extrapolate-to 3000] [--output bench/results/retention-latest.md]
 */
import { SqlClient } from "@effect/sql"
import type { Ids } from "@filings/domain"
import { filingEvents, pressReleaseEvent } from "@filings/server/ingest/FilingEvents"
import { secUrl } from "@filings/server/ingest/StoredForms"
import * as Retention from "@filings/server/maintenance/Retention"
import { FilingJob, FilingQueue } from "@filings/server/pipeline/FilingJob"
import { DeliveryJob, DeliveryQueue, dispatchOnce } from "@filings/server/webhooks/Dispatcher"
import { DeliveryStore, type DocumentStore, EventStore, JobQueue, WebhookStore } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import { Clock, Duration, Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted, Schema } from "effect"
import { createHash } from "node:crypto"
import { cpus, loadavg, release, totalmem } from "node:os"
import { join, relative } from "node:path"
import { parseArgs } from "node:util"
import pg from "pg"
import { createDatabase } from "../test/support/postgres.js"
import { progressReporter, publishReport, wholeNumber } from "./support/commandLine.js"
import { Cleanup, repositoryRoot } from "./support/processes.js"
import { letterTicker } from "./support/tickers.js"

// --- Settings ------------------------------------------------------------------------------------

const { values: argv } = parseArgs({
  options: {
    "filings-per-day": { type: "string" },
    days: { type: "string" },
    subscriptions: { type: "string" },
    workers: { type: "string" },
    "extrapolate-to": { type: "string" },
    output: { type: "string" }
  },
  strict: true
})

const filingsPerDay = wholeNumber("filings-per-day", argv["filings-per-day"], 100)
const days = wholeNumber("days", argv.days, 365)
const subscriptionCount = wholeNumber("subscriptions", argv.subscriptions, 20)
/** Queue workers per database. The simulation is CPU-bound: more only add idle takes. */
const workers = wholeNumber("workers", argv.workers, 2)
const extrapolatedPerDay = wholeNumber("extrapolate-to", argv["extrapolate-to"], 3000)
const outputFile = join(repositoryRoot, argv.output ?? "bench/results/retention-latest.md")

const admin = process.env.FILINGS_TEST_DATABASE_URL
if (admin === undefined || admin === "") {
  process.stderr.write(
    "bench/retention.ts measures PostgreSQL's tables: set FILINGS_TEST_DATABASE_URL to an admin URL of a\n" +
      "PostgreSQL server (it creates two databases there and drops them afterwards)\n"
  )
  process.exit(1)
}

/** The server's defaults: `FILINGS_JOB_RETENTION` and `FILINGS_DELIVERY_RETENTION`. */
const retention: Retention.Options = { jobRetention: Duration.days(7), deliveryRetention: Duration.days(30) }

/** The simulated year starts here, a Wednesday; only the spacing of the days matters. */
const yearStart = Date.UTC(2025, 0, 1)
const hourMillis = 3_600_000
/** Filings arrive over the regulator's day, 06:00 to 22:00, evenly. */
const firstFilingHour = 6
const filingHours = 16

const startedAt = performance.now()
/** Progress on standard error, with the seconds since the start. */
const progress = progressReporter(startedAt)

// --- A clock the simulation sets -----------------------------------------------------------------

/**
 * What the stores read as now is the simulated time; sleeping (the connection pool's time-outs)
 * still takes real time, so nothing waits a simulated hour.
 */
class SimulatedClock implements Clock.Clock {
  readonly [Clock.ClockTypeId]: Clock.ClockTypeId = Clock.ClockTypeId
  private readonly real = Clock.make()
  private millis: number

  constructor(millis: number) {
    this.millis = millis
  }

  set(millis: number): void {
    this.millis = millis
  }

  unsafeCurrentTimeMillis(): number {
    return this.millis
  }

  readonly currentTimeMillis: Effect.Effect<number> = Effect.sync(() => this.millis)

  unsafeCurrentTimeNanos(): bigint {
    return BigInt(this.millis) * BigInt(1_000_000)
  }

  readonly currentTimeNanos: Effect.Effect<bigint> = Effect.sync(() => this.unsafeCurrentTimeNanos())

  sleep(duration: Duration.Duration): Effect.Effect<void> {
    return this.real.sleep(duration)
  }
}

// --- What the regulator publishes ----------------------------------------------------------------

/**
 * A number in [0, 1) fixed by `text`: every choice of the workload is one, so both databases get
 * the same filings, events and delivery outcomes, run after run.
 */
const unit = (text: string): number => createHash("sha256").update(text).digest().readUInt32BE(0) / 2 ** 32

const weighted = <A>(choices: ReadonlyArray<readonly [A, number]>, u: number): A => {
  let left = u
  for (const [choice, weight] of choices) {
    if (left < weight) return choice
    left -= weight
  }
  return choices[choices.length - 1]![0]
}

/**
 * Rough shares of the forms the server keeps. They set how many 8-K events there are (and so
 * deliveries); the rows per filing are alike for every form.
 */
const forms: ReadonlyArray<readonly [DocumentStore.DocumentMetadata["docType"], number]> = [
  ["8-K", 0.46],
  ["10-Q", 0.2],
  ["6-K", 0.17],
  ["10-K", 0.07],
  ["DEF 14A", 0.05],
  ["S-1", 0.04],
  ["20-F", 0.01]
]

/**
 * Rough shares of an 8-K's items: 14 % report a material item (1.01, 1.02, 2.01, 4.01), which
 * adds `filing.8k_material`; 22 % report results (2.02), whose press release adds `press_release.new`.
 */
const eightKItems: ReadonlyArray<readonly [ReadonlyArray<string>, number]> = [
  [["Item 2.02", "Item 9.01"], 0.22],
  [["Item 7.01", "Item 9.01"], 0.18],
  [["Item 8.01", "Item 9.01"], 0.18],
  [["Item 5.02", "Item 9.01"], 0.14],
  [["Item 1.01", "Item 2.03", "Item 9.01"], 0.08],
  [["Item 5.07"], 0.08],
  [["Item 5.03", "Item 9.01"], 0.05],
  [["Item 2.01", "Item 9.01"], 0.03],
  [["Item 1.02"], 0.02],
  [["Item 4.01", "Item 9.01"], 0.01],
  [["Item 3.01", "Item 8.01"], 0.01]
]

const companyCount = 4_000
const firstWords = ["Acme", "Global", "American", "United", "Pacific", "Atlantic", "Northern", "Summit", "Liberty"]
const secondWords = ["Energy", "Bancorp", "Therapeutics", "Semiconductor", "Industries", "Financial", "Realty", "Foods"]
const suffixes = ["Inc.", "Corp", "Co", "Ltd", "Group Inc", "Holdings Corp", "PLC"]

const companyOf = (company: number) => ({
  cik: String(1_000_000 + company * 37).padStart(10, "0") as Ids.Cik,
  ticker: letterTicker(company),
  name: `${firstWords[company % firstWords.length]} ${secondWords[Math.floor(company / 9) % secondWords.length]} ${
    suffixes[Math.floor(company / 72) % suffixes.length]
  }`
})

interface Filing {
  /** The filing job's payload, as discovery enqueues it. */
  readonly job: FilingJob
  /** The events the ingestion records for it. */
  readonly events: ReadonlyArray<EventStore.NewEvent>
}

const isoDate = (millis: number) => new Date(millis).toISOString().slice(0, 10)

/** Filing `serial` of the year, discovered at `discoveredAt`: its job's payload and its events. */
const filingOf = (serial: number, discoveredAt: number): Filing => {
  const company = companyOf(Math.floor(unit(`company ${serial}`) * companyCount))
  const docType = weighted(forms, unit(`form ${serial}`))
  const items = docType === "8-K" ? weighted(eightKItems, unit(`items ${serial}`)) : []
  // The filer's key, the year and a sequence number, as the regulator numbers them.
  const accession = `${company.cik}-${String(25 + Math.floor(serial / 1_000_000)).padStart(2, "0")}-${
    String(serial % 1_000_000).padStart(6, "0")
  }` as Ids.PublicationId
  const filingDate = isoDate(discoveredAt)
  const quarter = Math.ceil(Number(filingDate.slice(5, 7)) / 3)
  const period = docType === "10-K" || docType === "20-F"
    ? `FY ${Number(filingDate.slice(0, 4)) - 1}`
    : `Q${quarter} ${filingDate.slice(0, 4)}`
  const acceptedAt = new Date(discoveredAt - 45_000).toISOString()
  const timestamp = new Date(discoveredAt).toISOString()
  const metadata: DocumentStore.DocumentMetadata = {
    publicationId: accession,
    ticker: company.ticker,
    companyName: company.name,
    cik: company.cik,
    docType,
    title: `${company.name} ${docType} ${period}`,
    filingDate: filingDate as DocumentStore.DocumentMetadata["filingDate"],
    period: period as DocumentStore.DocumentMetadata["period"],
    secUrl: secUrl(company.cik, accession, `${company.ticker.toLowerCase()}-${filingDate.replaceAll("-", "")}.htm`),
    wordCount: 1_000 + Math.floor(unit(`words ${serial}`) * 60_000),
    items
  }
  const events = [...filingEvents(metadata, timestamp)]
  if (items.includes("Item 2.02")) {
    const releaseId = `${accession}-ex99.1` as Ids.PublicationId
    events.push(pressReleaseEvent(
      {
        ...metadata,
        publicationId: releaseId,
        docType: "PRESS_RELEASE",
        title: `${company.name} Reports ${period} Results`,
        items: []
      },
      acceptedAt,
      accession,
      timestamp
    ))
  }
  return {
    job: {
      accessionNumber: accession,
      cik: company.cik,
      form: docType,
      ticker: company.ticker,
      companyName: company.name,
      acceptedAt,
      discoveredAtMillis: discoveredAt
    },
    events
  }
}

/** The filings discovered in one hour of a day: `filingsPerDay` spread over the filing hours. */
const filingsOfHour = (day: number, hour: number, hourStart: number): ReadonlyArray<Filing> => {
  const slot = hour - firstFilingHour
  if (slot < 0 || slot >= filingHours) return []
  const first = day * filingsPerDay + Math.ceil((slot * filingsPerDay) / filingHours)
  const end = day * filingsPerDay + Math.ceil(((slot + 1) * filingsPerDay) / filingHours)
  return Array.from({ length: end - first }, (_, index) => filingOf(first + index, hourStart))
}

/**
 * Subscription `index`, of three kinds of customer: every fifth wants every material 8-K, the next
 * every 10-K and 10-Q, the other three a watch list of 50 companies (the most a filter names),
 * both event types.
 */
const subscriptionOf = (index: number): WebhookStore.Subscription => {
  const name = createHash("sha256").update(`subscription ${index}`).digest("hex")
  const kind = index % 5
  const watchList = Array.from({ length: 50 }, (_, n) => letterTicker((index * 50 + n) % companyCount))
  return {
    id: `wh_${name.slice(0, 24)}`,
    ownerKeyId: `key_${name.slice(24, 48)}`,
    url: `https://hooks.customer-${index}.example.com/filings/edgar`,
    events: kind === 0 ? ["filing.8k_material"] : ["filing.new", "filing.8k_material"],
    filters: kind === 0 ? {} : kind === 1 ? { docTypes: ["10-K", "10-Q"] } : { tickers: watchList },
    secret: Redacted.make(`whsec_${name.slice(0, 40)}`),
    status: "active",
    createdAtMillis: yearStart,
    lastTriggeredAtMillis: null,
    startSequence: 0
  }
}

/**
 * How many of a delivery's attempts fail: none for most, the first for 2 % (a receiver answering 503
 * for a while), all six for 1 % (a receiver gone). Fixed by the pair, the same on both sides.
 */
const failedAttemptsOf = (subscriptionId: string, eventSequence: number): number => {
  const u = unit(`delivery ${subscriptionId} ${eventSequence}`)
  return u < 0.01 ? 6 : u < 0.03 ? 1 : 0
}

// --- Autovacuum, on the simulated clock ----------------------------------------------------------

const measuredTables = ["jobs", "deliveries", "events"] as const
type Table = typeof measuredTables[number]

interface AutovacuumSettings {
  readonly serverVersion: string
  readonly vacuumThreshold: number
  readonly vacuumScaleFactor: number
  readonly insertThreshold: number
  readonly insertScaleFactor: number
  readonly analyzeThreshold: number
  readonly analyzeScaleFactor: number
}

/** What autovacuum counts of a table: rows dead and inserted since its last vacuum, changed since its last analyze. */
interface TableChanges {
  dead: number
  inserted: number
  changed: number
  reltuples: number
  vacuums: number
  analyzes: number
}

const newChanges = (): Record<Table, TableChanges> => ({
  jobs: { dead: 0, inserted: 0, changed: 0, reltuples: 0, vacuums: 0, analyzes: 0 },
  deliveries: { dead: 0, inserted: 0, changed: 0, reltuples: 0, vacuums: 0, analyzes: 0 },
  events: { dead: 0, inserted: 0, changed: 0, reltuples: 0, vacuums: 0, analyzes: 0 }
})

/** Counts rows written: an update or a delete leaves one dead row, as autovacuum counts them. */
const wrote = (changes: TableChanges, kind: "inserted" | "dead", rows: number) => {
  changes[kind] += rows
  changes.changed += rows
}

/**
 * Vacuums and analyzes each table whose changes pass autovacuum's thresholds, as its launcher
 * would (with the table's row estimate from its last vacuum or analyze).
 */
const autovacuum = (changes: Record<Table, TableChanges>, settings: AutovacuumSettings) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const table of measuredTables) {
      const counted = changes[table]
      const rows = Math.max(0, counted.reltuples)
      const vacuum = counted.dead > settings.vacuumThreshold + settings.vacuumScaleFactor * rows ||
        counted.inserted > settings.insertThreshold + settings.insertScaleFactor * rows
      const analyze = counted.changed > settings.analyzeThreshold + settings.analyzeScaleFactor * rows
      if (!vacuum && !analyze) continue
      yield* sql.unsafe(
        vacuum && analyze ? `VACUUM (ANALYZE) ${table}` : vacuum ? `VACUUM ${table}` : `ANALYZE ${table}`
      )
      if (vacuum) {
        counted.dead = 0
        counted.inserted = 0
        counted.vacuums += 1
      }
      if (analyze) {
        counted.changed = 0
        counted.analyzes += 1
      }
      const [estimate] = yield* sql<{ readonly reltuples: number }>`
        SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = ${table}::regclass`
      counted.reltuples = estimate?.reltuples ?? 0
    }
  })

// --- The simulated year --------------------------------------------------------------------------

const phases = ["filing jobs", "events", "dispatch", "delivery jobs", "retention pass", "vacuum and analyze"] as const
type Phase = typeof phases[number]

interface YearTotals {
  filings: number
  events: number
  deliveries: number
  deliveryAttempts: number
  prunedJobs: number
  prunedDeliveries: number
  /** Real milliseconds of each retention pass. */
  readonly passMillis: Array<number>
  /** Real milliseconds spent in each phase over the year. */
  readonly phaseMillis: Record<Phase, number>
  seconds: number
}

/** Runs `effect`, adding its real time to `phase`. */
const timed = <A, E, R>(totals: YearTotals, phase: Phase, effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const began = performance.now()
    return Effect.ensuring(
      effect,
      Effect.sync(() => {
        totals.phaseMillis[phase] += performance.now() - began
      })
    )
  })

/**
 * Takes jobs of `queue` with `workers` workers until none is due, each job handled by `handle`,
 * which completes it or gives it back; answers how many jobs were taken.
 */
const drain = <E, R>(
  queueName: string,
  lease: Duration.Duration,
  changes: Record<Table, TableChanges>,
  handle: (job: JobQueue.Job) => Effect.Effect<"complete" | "retry", E, R>
) =>
  Effect.gen(function*() {
    const queue = yield* JobQueue.JobQueue
    let taken = 0
    const worker = Effect.gen(function*() {
      while (true) {
        const job = yield* queue.take(queueName, lease)
        if (Option.isNone(job)) return
        taken += 1
        const next = yield* handle(job.value)
        const settled = next === "complete" ? yield* queue.complete(job.value) : yield* queue.retry(job.value, 0)
        if (!settled) return yield* Effect.dieMessage(`the lease of job ${job.value.id} was lost`)
        // The take and the settling each update the job's row.
        wrote(changes.jobs, "dead", 2)
      }
    })
    yield* Effect.all(Array.from({ length: workers }, () => worker), { concurrency: "unbounded", discard: true })
    return taken
  })

/**
 * One database's year: every simulated hour, the hour's filings through the queue, their events,
 * the dispatch and the delivery attempts; with `prunes`, the server's retention pass; then the
 * vacuums autovacuum would run.
 */
const simulateYear = (
  label: string,
  prunes: boolean,
  clock: SimulatedClock,
  settings: AutovacuumSettings,
  changes: Record<Table, TableChanges>
) =>
  Effect.gen(function*() {
    const queue = yield* JobQueue.JobQueue
    const events = yield* EventStore.EventStore
    const deliveries = yield* DeliveryStore.DeliveryStore
    const webhooks = yield* WebhookStore.WebhookStore
    const totals: YearTotals = {
      filings: 0,
      events: 0,
      deliveries: 0,
      deliveryAttempts: 0,
      prunedJobs: 0,
      prunedDeliveries: 0,
      passMillis: [],
      phaseMillis: Object.fromEntries(phases.map((phase) => [phase, 0])) as Record<Phase, number>,
      seconds: 0
    }
    const began = performance.now()
    clock.set(yearStart)
    for (let index = 0; index < subscriptionCount; index++) yield* webhooks.create(subscriptionOf(index))

    const deliver = (job: JobQueue.Job) =>
      Effect.gen(function*() {
        const { deliveryId } = Schema.decodeUnknownSync(DeliveryJob)(job.payload)
        const found = yield* deliveries.find(deliveryId)
        if (Option.isNone(found) || found.value.state !== "pending") return "complete" as const
        const delivery = found.value
        // The dispatcher inserted the delivery and its job together; this is the job's first take.
        if (job.attempts === 1) {
          wrote(changes.deliveries, "inserted", 1)
          wrote(changes.jobs, "inserted", 1)
        }
        const failing = failedAttemptsOf(delivery.subscriptionId, delivery.eventSequence)
        const attempt = delivery.attempts + 1
        const now = yield* Clock.currentTimeMillis
        const fails = attempt <= failing
        // The sixth failed attempt fails the delivery; the job has done its work and completes.
        const state = !fails ? "delivered" : attempt < 6 ? "pending" : "failed"
        yield* deliveries.recordAttempt(delivery.id, {
          atMillis: now,
          status: fails ? (failing === 6 ? null : 503) : 204,
          error: fails ? (failing === 6 ? "connection refused" : "HTTP 503") : null,
          state,
          nextAttemptAtMillis: state === "pending" ? now + 60_000 : null
        })
        wrote(changes.deliveries, "dead", 1)
        totals.deliveryAttempts += 1
        if (state === "delivered" || state === "failed") totals.deliveries += 1
        // The retry's wait is not simulated: the job is due again at once, in the same hour.
        return state === "pending" ? "retry" as const : "complete" as const
      })

    for (let day = 0; day < days; day++) {
      for (let hour = 0; hour < 24; hour++) {
        const hourStart = yearStart + (day * 24 + hour) * hourMillis
        clock.set(hourStart)
        const filings = filingsOfHour(day, hour, hourStart)
        if (filings.length > 0) {
          yield* timed(
            totals,
            "filing jobs",
            Effect.gen(function*() {
              const enqueued = yield* queue.enqueueAll(
                FilingQueue,
                filings.map((filing) => ({
                  payload: Schema.encodeSync(FilingJob)(filing.job),
                  uniqueKey: filing.job.accessionNumber
                }))
              )
              wrote(changes.jobs, "inserted", enqueued)
              totals.filings += yield* drain(
                FilingQueue,
                Duration.minutes(5),
                changes,
                () => Effect.succeed("complete")
              )
            })
          )
          // In the order the filings were discovered, so both databases number their events alike.
          const recorded = yield* timed(totals, "events", events.record(filings.flatMap((filing) => filing.events)))
          wrote(changes.events, "inserted", recorded.length)
          totals.events += recorded.length
          // Every event of the hour is dispatched before its deliveries are attempted.
          yield* timed(
            totals,
            "dispatch",
            Effect.iterate(1, { while: (read) => read > 0, body: () => dispatchOnce })
          )
          yield* timed(totals, "delivery jobs", drain(DeliveryQueue, Duration.minutes(2), changes, deliver))
        }
        if (prunes) {
          clock.set(hourStart + 30 * 60_000)
          const began = performance.now()
          const pruned = yield* timed(totals, "retention pass", Retention.pruneOnce(retention))
          totals.passMillis.push(performance.now() - began)
          totals.prunedJobs += pruned.jobs
          totals.prunedDeliveries += pruned.deliveries
          wrote(changes.jobs, "dead", pruned.jobs)
          wrote(changes.deliveries, "dead", pruned.deliveries)
        }
        yield* timed(totals, "vacuum and analyze", autovacuum(changes, settings))
      }
      if ((day + 1) % 30 === 0 || day === days - 1) {
        progress(`${label}: day ${day + 1} of ${days}, ${totals.filings.toLocaleString("en-US")} filings`)
      }
    }
    totals.seconds = (performance.now() - began) / 1000
    return totals
  })

// --- Measuring -----------------------------------------------------------------------------------

interface TableSize {
  readonly total: number
  readonly heap: number
  readonly indexes: number
}

type Sizes = Record<Table, TableSize>

const measureSizes = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const sizes: Partial<Sizes> = {}
  for (const table of measuredTables) {
    const [row] = yield* sql<{ readonly total: number; readonly heap: number; readonly indexes: number }>`
      SELECT pg_total_relation_size(${table}::regclass)::float8 AS total,
        pg_relation_size(${table}::regclass)::float8 AS heap,
        pg_indexes_size(${table}::regclass)::float8 AS indexes`
    sizes[table] = { total: row?.total ?? 0, heap: row?.heap ?? 0, indexes: row?.indexes ?? 0 }
  }
  return sizes as Sizes
})

interface Rows {
  readonly jobs: Record<string, number>
  readonly deliveries: Record<string, number>
  readonly events: number
  /** Pruned jobs that still hold a payload, or lost their key: none, if pruning does what it says. */
  readonly prunedWithPayload: number
  readonly prunedWithoutKey: number
  /** When the oldest completed job still whole was completed, and the oldest kept delivery delivered. */
  readonly oldestDoneMillis: number | null
  readonly oldestDeliveredMillis: number | null
}

const countRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const byState = (rows: ReadonlyArray<{ readonly label: string; readonly count: number }>) =>
    Object.fromEntries(rows.map((row) => [row.label, row.count]))
  const jobs = yield* sql<{ readonly label: string; readonly count: number }>`
    SELECT queue || ' ' || state AS label, count(*)::int AS count FROM jobs GROUP BY 1 ORDER BY 1`
  const deliveryStates = yield* sql<{ readonly label: string; readonly count: number }>`
    SELECT state AS label, count(*)::int AS count FROM deliveries GROUP BY 1 ORDER BY 1`
  const [events] = yield* sql<{ readonly count: number }>`SELECT count(*)::int AS count FROM events`
  const [pruned] = yield* sql<{ readonly withPayload: number; readonly withoutKey: number }>`
    SELECT count(*) FILTER (WHERE payload <> 'null'::jsonb)::int AS "withPayload",
      count(*) FILTER (WHERE unique_key IS NULL)::int AS "withoutKey"
    FROM jobs WHERE state = 'pruned'`
  const [oldest] = yield* sql<{ readonly done: number | null; readonly delivered: number | null }>`
    SELECT (SELECT min(completed_at_ms)::float8 FROM jobs WHERE state = 'done') AS done,
      (SELECT min(delivered_at_ms)::float8 FROM deliveries WHERE state = 'delivered') AS delivered`
  return {
    jobs: byState(jobs),
    deliveries: byState(deliveryStates),
    events: events?.count ?? 0,
    prunedWithPayload: pruned?.withPayload ?? 0,
    prunedWithoutKey: pruned?.withoutKey ?? 0,
    oldestDoneMillis: oldest?.done ?? null,
    oldestDeliveredMillis: oldest?.delivered ?? null
  } satisfies Rows
})

const vacuumAll = (full: boolean) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const table of measuredTables) yield* sql.unsafe(`VACUUM ${full ? "FULL " : ""}${table}`)
  })

interface Outcome {
  readonly settings: AutovacuumSettings
  readonly totals: YearTotals
  readonly changes: Record<Table, TableChanges>
  readonly rows: Rows
  readonly atYearEnd: Sizes
  readonly vacuumed: Sizes
  readonly live: Sizes
  readonly vacuumSeconds: number
  readonly vacuumFullSeconds: number
}

const readSettings = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly name: string; readonly setting: string }>`
    SELECT name, setting FROM pg_settings WHERE name LIKE 'autovacuum_%'`
  const setting = (name: string) => Number(rows.find((row) => row.name === name)?.setting)
  const [version] = yield* sql<{ readonly version: string }>`SELECT current_setting('server_version') AS version`
  return {
    serverVersion: version?.version ?? "unknown",
    vacuumThreshold: setting("autovacuum_vacuum_threshold"),
    vacuumScaleFactor: setting("autovacuum_vacuum_scale_factor"),
    insertThreshold: setting("autovacuum_vacuum_insert_threshold"),
    insertScaleFactor: setting("autovacuum_vacuum_insert_scale_factor"),
    analyzeThreshold: setting("autovacuum_analyze_threshold"),
    analyzeScaleFactor: setting("autovacuum_analyze_scale_factor")
  } satisfies AutovacuumSettings
})

/**
 * A fresh database for one side: commits do not wait for the disk (which changes how fast the
 * simulation runs, not what it writes), and autovacuum leaves the measured tables to the simulation.
 */
const openDatabase = async (cleanup: Cleanup, adminUrl: string) => {
  const database = await createDatabase(adminUrl)
  cleanup.add("drop a benchmark database", database.drop)
  const name = new URL(database.url).pathname.slice(1)
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(`ALTER DATABASE ${name} SET synchronous_commit = off`)
  } finally {
    await client.end()
  }
  const runtime = ManagedRuntime.make(
    SqlStorage.layer.pipe(
      Layer.provideMerge(
        Database.layerPostgres({ url: Redacted.make(database.url), maxConnections: workers + 2 }).pipe(
          // Not the migrations' log line for each database.
          Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
        )
      )
    )
  )
  cleanup.add("close a benchmark database's connections", () => runtime.dispose())
  await runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const table of measuredTables) {
      yield* sql.unsafe(`ALTER TABLE ${table} SET (autovacuum_enabled = off, toast.autovacuum_enabled = off)`)
    }
  }))
  return runtime
}

const runSide = async (label: string, prunes: boolean, cleanup: Cleanup, adminUrl: string): Promise<Outcome> => {
  const runtime = await openDatabase(cleanup, adminUrl)
  const clock = new SimulatedClock(yearStart)
  const changes = newChanges()
  return runtime.runPromise(Effect.gen(function*() {
    const settings = yield* readSettings
    const totals = yield* simulateYear(label, prunes, clock, settings, changes).pipe(
      Effect.withClock(clock),
      // The retention pass logs what it pruned every hour.
      Logger.withMinimumLogLevel(LogLevel.Warning)
    )
    const rows = yield* countRows
    const atYearEnd = yield* measureSizes
    let began = performance.now()
    yield* vacuumAll(false)
    const vacuumSeconds = (performance.now() - began) / 1000
    const vacuumed = yield* measureSizes
    began = performance.now()
    yield* vacuumAll(true)
    const vacuumFullSeconds = (performance.now() - began) / 1000
    const live = yield* measureSizes
    return {
      settings,
      totals,
      changes,
      rows,
      atYearEnd,
      vacuumed,
      live,
      vacuumSeconds,
      vacuumFullSeconds
    } satisfies Outcome
  }))
}

// --- Report --------------------------------------------------------------------------------------

const grouped = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : "–"
const megabytes = (bytes: number) => `${grouped(bytes / 2 ** 20, bytes >= 100 * 2 ** 20 ? 0 : 1)} MB`
const gigabytes = (bytes: number) =>
  bytes >= 2 ** 30 ? `${grouped(bytes / 2 ** 30, 1)} GB` : `${grouped(bytes / 2 ** 20, 0)} MB`
const millis = (ms: number) => (ms >= 10 ? `${grouped(ms)} ms` : `${ms.toFixed(1)} ms`)
const quantile = (values: ReadonlyArray<number>, q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN
}
const percent = (fraction: number) => `${grouped(fraction * 100)} %`
const ratio = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "–")

const totalOf = (sizes: Sizes, part: keyof TableSize = "total") =>
  measuredTables.reduce((sum, table) => sum + sizes[table][part], 0)
const sizeOf = (sizes: Sizes, table: Table | "total", part: keyof TableSize = "total") =>
  table === "total" ? totalOf(sizes, part) : sizes[table][part]

const rowsOf = (rows: Rows, table: Table | "total"): number => {
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, count) => total + count, 0)
  if (table === "jobs") return sum(rows.jobs)
  if (table === "deliveries") return sum(rows.deliveries)
  if (table === "events") return rows.events
  return sum(rows.jobs) + sum(rows.deliveries) + rows.events
}

const ageAtYearEnd = (millis: number | null) =>
  millis === null ? "(none)" : `${((yearStart + days * 86_400_000 - millis) / 86_400_000).toFixed(2)} days`

const stateList = (counts: Record<string, number>) =>
  Object.entries(counts).map(([state, count]) => `${grouped(count)} ${state}`).join(", ")

const report = (kept: Outcome, baseline: Outcome, startLoad: ReadonlyArray<number>) => {
  const command = [
    "node --import tsx bench/retention.ts",
    ...(argv["filings-per-day"] === undefined ? [] : [`--filings-per-day ${filingsPerDay}`]),
    ...(argv.days === undefined ? [] : [`--days ${days}`]),
    ...(argv.subscriptions === undefined ? [] : [`--subscriptions ${subscriptionCount}`]),
    ...(argv.workers === undefined ? [] : [`--workers ${workers}`]),
    ...(argv["extrapolate-to"] === undefined ? [] : [`--extrapolate-to ${extrapolatedPerDay}`])
  ].join(" ")
  const processors = cpus()
  const settings = kept.settings
  const filings = kept.totals.filings
  const tables: ReadonlyArray<Table | "total"> = [...measuredTables, "total"]
  const name = (table: Table | "total") => (table === "total" ? "**total**" : `\`${table}\``)
  const scale = (extrapolatedPerDay * days) / filings

  const mainRows = tables.map((table) =>
    `| ${name(table)} | ${grouped(rowsOf(kept.rows, table))} | ${grouped(rowsOf(baseline.rows, table))} | ${
      ratio(rowsOf(kept.rows, table) / rowsOf(baseline.rows, table))
    } | ${megabytes(sizeOf(kept.vacuumed, table))} | ${megabytes(sizeOf(baseline.vacuumed, table))} | **${
      ratio(sizeOf(kept.vacuumed, table) / sizeOf(baseline.vacuumed, table))
    }** | ${megabytes(sizeOf(kept.live, table))} | ${megabytes(sizeOf(baseline.live, table))} | ${
      ratio(sizeOf(kept.live, table) / sizeOf(baseline.live, table))
    } |`
  )
  const stageRows = (label: string, outcome: Outcome) =>
    tables.map((table) =>
      `| ${label} | ${name(table)} | ${megabytes(sizeOf(outcome.atYearEnd, table))} | ${
        megabytes(sizeOf(outcome.vacuumed, table))
      } | ${megabytes(sizeOf(outcome.live, table))} | ${megabytes(sizeOf(outcome.live, table, "heap"))} | ${
        megabytes(sizeOf(outcome.live, table, "indexes"))
      } |`
    )
  const perFilingRows = tables.map((table) =>
    `| ${name(table)} | ${grouped(sizeOf(kept.vacuumed, table) / filings)} | ${
      grouped(sizeOf(kept.live, table) / filings)
    } | ${grouped(sizeOf(baseline.vacuumed, table) / filings)} | ${grouped(sizeOf(baseline.live, table) / filings)} | ${
      gigabytes(sizeOf(kept.vacuumed, table) * scale)
    } | ${gigabytes(sizeOf(baseline.vacuumed, table) * scale)} |`
  )
  const maintenanceRows = ([["retention", kept], ["no pruning", baseline]] as const).flatMap(([label, outcome]) =>
    measuredTables.map((table) =>
      `| ${label} | \`${table}\` | ${grouped(outcome.changes[table].vacuums)} | ${
        grouped(outcome.changes[table].analyzes)
      } |`
    )
  )
  const keyedJobs = Object.entries(kept.rows.jobs).filter(([label]) => label.endsWith(" pruned"))
    .reduce((sum, [, count]) => sum + count, 0)
  const deliveriesPerFiling = kept.totals.deliveries / filings
  const eventsPerFiling = kept.totals.events / filings

  return [
    "# Retention: table sizes after a simulated year",
    "",
    `Command: \`FILINGS_TEST_DATABASE_URL=... ${command}\``,
    "(after `npx tsc -b`).",
    "",
    `Run ${new Date().toISOString()}; Node.js ${process.version} on ${process.platform} ${release()}; ${
      processors[0]?.model ?? "unknown CPU"
    } × ${processors.length}, ${
      (totalmem() / 2 ** 30).toFixed(1)
    } GiB; PostgreSQL ${settings.serverVersion} on the same machine; load average at the start ${
      startLoad.map((value) => value.toFixed(2)).join(", ")
    }.`,
    "",
    "## What was simulated",
    "",
    `Two fresh PostgreSQL databases, side by side in one process, each through the storage ports and the server's own code where it writes; both got the same filings, events and delivery outcomes.`,
    "",
    `- **Filings**: ${grouped(days)} days of ${grouped(filingsPerDay)} a day, ${
      grouped(filings)
    } in all, in rough EDGAR shares of the forms kept (46 % 8-K, 20 % 10-Q, 17 % 6-K, 7 % 10-K, 5 % DEF 14A, 4 % S-1, 1 % 20-F), discovered every hour from 06:00 to 22:00. One job each on \`edgar.filings\` (unique key: the accession number; the payload discovery enqueues), taken and completed by ${workers} workers.`,
    `- **Events**: ${grouped(kept.totals.events)} (${
      eventsPerFiling.toFixed(2)
    } a filing): \`filing.new\`, \`filing.8k_material\` for a material 8-K, \`press_release.new\` for an earnings 8-K's release, with the payloads the server's \`FilingEvents\` builds.`,
    `- **Webhooks**: ${subscriptionCount} subscriptions (every fifth wants every material 8-K, the next every 10-K and 10-Q, the other three a watch list of 50 of the 4,000 companies filing). The server's \`dispatchOnce\` made ${
      grouped(kept.totals.deliveries)
    } deliveries (${
      deliveriesPerFiling.toFixed(2)
    } a filing), each with its job on \`webhooks.deliveries\` (unique key: the delivery id), which the workers take to record the attempt: 97 % delivered at once, 2 % after one failed attempt (the job given back), 1 % failed after six (${
      grouped(kept.totals.deliveryAttempts)
    } attempts).`,
    `- **Retention**: the server's hourly pass (\`Retention.pruneOnce\`: \`pruneCompleted\` of 7 days, \`pruneDelivered\` of 30) at the middle of every simulated hour, ${
      grouped(kept.totals.passMillis.length)
    } passes, which pruned ${grouped(kept.totals.prunedJobs)} jobs and removed ${
      grouped(kept.totals.prunedDeliveries)
    } deliveries.`,
    "- **No pruning**: the same year without the pass, as the server ran before retention.",
    "",
    "Not stored: documents, passages, extractions and feed items (the users' data, which retention does not bound and which dwarfs these tables), and the jobs of other queues (summaries by a model, upcoming calls).",
    "",
    "The time is the Effect `Clock`, set by the simulation, so completion and delivery times span the year. Autovacuum cannot keep pace with a year run in minutes, so it is off on the three tables and the simulation runs `VACUUM` and `ANALYZE` on a table when autovacuum would, by the server's thresholds, on the rows the simulation wrote, checked at the end of every simulated hour:",
    `vacuum after more than ${grouped(settings.vacuumThreshold)} + ${
      percent(settings.vacuumScaleFactor)
    } of the rows dead or ${grouped(settings.insertThreshold)} + ${
      percent(settings.insertScaleFactor)
    } inserted since the last, analyze after ${grouped(settings.analyzeThreshold)} + ${
      percent(settings.analyzeScaleFactor)
    } changed. Commits do not wait for the disk (\`synchronous_commit = off\`), which changes the run time, not what is written.`,
    "",
    "## Rows and sizes after the year",
    "",
    "Sizes are `pg_total_relation_size` (rows, indexes and TOAST) after a `VACUUM` at the end of the",
    "year, which makes dead rows' space reusable but gives little back to the operating system: the",
    "files stay as large as they grew. After `VACUUM FULL` (the tables rewritten), only the live rows:",
    "",
    "| table | rows, retention | rows, no pruning | ratio | size, retention | size, no pruning | **ratio** | live size, retention | live size, no pruning | ratio |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...mainRows,
    "",
    `- \`jobs\` with retention: ${stateList(kept.rows.jobs)}. No pruning: ${stateList(baseline.rows.jobs)}.`,
    `  Every job here has a unique key, so each one pruned stays as a row of its key (${grouped(keyedJobs)} rows,`,
    "  one for every filing and every delivery ever made): these rows keep growing for as long as the",
    `  server runs. Of the pruned rows, ${grouped(kept.rows.prunedWithPayload)} still hold a payload and ${
      grouped(kept.rows.prunedWithoutKey)
    } lost their key; the oldest completed job still whole was completed ${
      ageAtYearEnd(kept.rows.oldestDoneMillis)
    } before the year's end.`,
    `- \`deliveries\` with retention: ${stateList(kept.rows.deliveries)}. No pruning: ${
      stateList(baseline.rows.deliveries)
    }.`,
    `  The oldest delivered delivery kept was delivered ${
      ageAtYearEnd(kept.rows.oldestDeliveredMillis)
    } before the year's end; failed deliveries are kept whatever their age.`,
    `- \`events\`: kept whole on both sides (${eventsPerFiling.toFixed(2)} a filing).`,
    "",
    "Each stage, with the live size split into rows (heap, with TOAST) and indexes:",
    "",
    "| side | table | as the year left it | after `VACUUM` | after `VACUUM FULL` | of which rows | of which indexes |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ...stageRows("retention", kept),
    ...stageRows("no pruning", baseline),
    "",
    `\`VACUUM\` of the three tables at the end took ${kept.vacuumSeconds.toFixed(1)} s with retention and ${
      baseline.vacuumSeconds.toFixed(1)
    } s without; \`VACUUM FULL\` ${kept.vacuumFullSeconds.toFixed(1)} and ${baseline.vacuumFullSeconds.toFixed(1)} s.`,
    "",
    "## Per filing, and extrapolated",
    "",
    `Bytes per filing of the year (${grouped(filings)} filings). The last two columns are an extrapolation,`,
    `not a measurement: the sizes after \`VACUUM\` scaled to ${grouped(extrapolatedPerDay)} filings a day for ${
      grouped(days)
    } days`,
    "(the same mix of forms, subscriptions and outcomes; every row here is per filing or per delivery).",
    "",
    `| table | retention, B/filing | live | no pruning, B/filing | live | retention, ${
      grouped(extrapolatedPerDay)
    }/day | no pruning, ${grouped(extrapolatedPerDay)}/day |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...perFilingRows,
    "",
    "## Vacuums during the year",
    "",
    "What the simulation ran where autovacuum would have:",
    "",
    "| side | table | `VACUUM` | `ANALYZE` |",
    "| --- | --- | ---: | ---: |",
    ...maintenanceRows,
    "",
    "## Time",
    "",
    "Real seconds of each phase over the year, both sides running at once on the same cores (so each",
    "slows the other while both run):",
    "",
    `| side | ${phases.join(" | ")} | whole year |`,
    `| --- | ${phases.map(() => "---:").join(" | ")} | ---: |`,
    ...([["retention", kept], ["no pruning", baseline]] as const).map(([label, outcome]) =>
      `| ${label} | ${phases.map((phase) => (outcome.totals.phaseMillis[phase] / 1000).toFixed(1)).join(" | ")} | ${
        outcome.totals.seconds.toFixed(0)
      } |`
    ),
    "",
    `One retention pass (both statements, every simulated hour): median ${
      millis(quantile(kept.totals.passMillis, 0.5))
    }, p99 ${millis(quantile(kept.totals.passMillis, 0.99))}, longest ${
      millis(quantile(kept.totals.passMillis, 1))
    }. Whole run ${((performance.now() - startedAt) / 1000).toFixed(0)} s.`,
    ""
  ].join("\n")
}

// --- Main ----------------------------------------------------------------------------------------

const main = async (adminUrl: string) => {
  const cleanup = new Cleanup()
  try {
    const startLoad = loadavg()
    progress(`simulating ${days} days of ${filingsPerDay} filings, with retention and without, side by side`)
    const [kept, baseline] = await Promise.all([
      runSide("retention", true, cleanup, adminUrl),
      runSide("no pruning", false, cleanup, adminUrl)
    ])
    const text = report(kept, baseline, startLoad)
    await publishReport(outputFile, text)
    progress(`report written to ${relative(repositoryRoot, outputFile)}`)
  } finally {
    await cleanup.run()
  }
}

void main(admin).catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
