/**
 * Webhook delivery benchmark, three parts, all in this process:
 *
 * 1. Deliveries per second from one instance to a local HTTPS receiver (`test/support/webhookReceiver.ts`,
 *    a real TLS server on loopback answering 204) with 1, 100 and 10,000 subscriptions: the real
 *    dispatcher (`dispatchOnce`), queue workers (`startWorkers`) and delivery handler
 *    (`makeDeliveryHandler`) on the SQL storage, embedded PGlite and, when `FILINGS_TEST_DATABASE_URL`
 *    names a PostgreSQL server, a fresh database there (dropped afterwards). Each case also runs a
 *    baseline before and after it, with as many requests in flight as there are workers: bare undici
 *    POSTs of the same body and headers to the same receiver, (a) with a new Agent per request, so a
 *    new TLS connection each time as every delivery attempt makes, and (b) with one keep-alive Agent.
 * 2. One event against 10,000 subscriptions: `dispatchOnce` for one event (list every subscription,
 *    match, record 10,000 deliveries, enqueue 10,000 jobs), its parts timed alone, and `wants` alone
 *    in memory over a mix of filters against a hand-written filter of the same rules.
 * 3. Signing one body: `WebhookSignature.sign` (Web Crypto) against `node:crypto` `createHmac`, on
 *    500 B and 5 kB bodies, and its share of a delivery's CPU time.
 *
 *   node --import tsx bench/webhooks.ts [--cases 1x500,1x500w2,100x20,10000x1] [--workers 8]
 *     [--poll-interval 50] [--baseline-requests 1000] [--match-subscriptions 10000]
 *     [--dispatch-rounds 5] [--match-rounds 51] [--sign-seconds 1] [--timeout 600]
 *     [--stores pglite,postgres] [--output bench/results/webhooks-latest.md]
 *
 * A case is `<subscriptions>x<events per subscription>`, optionally `w<workers>` when it runs with
 * other than `--workers` workers; every subscription wants every event, so a case makes
 * subscriptions × events deliveries. `--workers` defaults to `FILINGS_WEBHOOK_WORKERS`, else 8.
 * The baseline of a case sends `--baseline-requests` requests, or the case's deliveries if fewer.
 */
import { SqlClient } from "@effect/sql"
import { startWorkers } from "@filings/server/jobs/QueueWorkers"
import { parseAllowList } from "@filings/server/webhooks/CallbackAddress"
import { GateWait, makeDeliveryHandler, PerSubscriptionConcurrency } from "@filings/server/webhooks/DeliveryWorker"
import { DeliveryQueue, dispatchOnce } from "@filings/server/webhooks/Dispatcher"
import { deliveryIdOf, wants } from "@filings/server/webhooks/Matching"
import { DeliveryStore, EventStore, JobQueue, WebhookStore } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import type { Stores } from "@filings/storage/Stores"
import { WebhookSignature } from "@filings/webhook-signer"
import { Duration, Effect, Either, Layer, Logger, LogLevel, Redacted } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { cpus, loadavg, release, tmpdir, totalmem } from "node:os"
import { join, relative } from "node:path"
import { parseArgs } from "node:util"
import { Agent, request } from "undici"
import { createDatabase } from "../test/support/postgres.js"
import { startWebhookReceiver, type WebhookReceiver } from "../test/support/webhookReceiver.js"
import { commandLines, progressReporter, publishReport, wholeNumber } from "./support/commandLine.js"
import { Cleanup, repositoryRoot } from "./support/processes.js"

// --- Settings ------------------------------------------------------------------------------------

const { values: argv } = parseArgs({
  options: {
    cases: { type: "string" },
    workers: { type: "string" },
    "poll-interval": { type: "string" },
    "baseline-requests": { type: "string" },
    "match-subscriptions": { type: "string" },
    "dispatch-rounds": { type: "string" },
    "match-rounds": { type: "string" },
    "sign-seconds": { type: "string" },
    timeout: { type: "string" },
    stores: { type: "string" },
    output: { type: "string" }
  },
  strict: true
})

const workers = wholeNumber("workers", argv.workers ?? process.env.FILINGS_WEBHOOK_WORKERS, 8)

interface CaseSpec {
  readonly subscriptions: number
  readonly events: number
  /** Delivery workers, and requests in flight in its baseline. */
  readonly workers: number
}

const defaultCases = "1x500,1x500w2,100x20,10000x1"
const cases: ReadonlyArray<CaseSpec> = (argv.cases ?? defaultCases).split(",").map((text) => {
  const match = /^\s*(\d+)x(\d+)(?:w(\d+))?\s*$/.exec(text)
  const [subscriptions, events, caseWorkers] = [Number(match?.[1]), Number(match?.[2]), Number(match?.[3] ?? workers)]
  if (match === null || subscriptions < 1 || events < 1 || caseWorkers < 1) {
    throw new Error(`--cases: "${text}" is not <subscriptions>x<events>[w<workers>], each at least 1`)
  }
  return { subscriptions, events, workers: caseWorkers }
})
const caseName = (spec: CaseSpec) =>
  `${spec.subscriptions}x${spec.events}${spec.workers === workers ? "" : `w${spec.workers}`}`
const pollIntervalMillis = wholeNumber("poll-interval", argv["poll-interval"], 50)
const baselineRequests = wholeNumber("baseline-requests", argv["baseline-requests"], 1000)
const matchSubscriptions = wholeNumber("match-subscriptions", argv["match-subscriptions"], 10_000)
const dispatchRounds = wholeNumber("dispatch-rounds", argv["dispatch-rounds"], 5)
const matchRounds = wholeNumber("match-rounds", argv["match-rounds"], 51)
const signSeconds = Number(argv["sign-seconds"] ?? 1)
if (!(signSeconds > 0)) throw new Error("--sign-seconds must be above 0")
const timeoutMillis = wholeNumber("timeout", argv.timeout, 600) * 1000
const storeNames = (argv.stores ?? "pglite,postgres").split(",").map((name) => name.trim().toLowerCase())
if (storeNames.some((name) => name !== "pglite" && name !== "postgres")) {
  throw new Error("--stores is a comma-separated list of pglite and postgres")
}
const outputFile = argv.output ?? join(repositoryRoot, "bench", "results", "webhooks-latest.md")

const startedAt = performance.now()
/** Progress on standard error, with the seconds since the start. */
const progress = progressReporter(startedAt)

// --- Numbers -------------------------------------------------------------------------------------

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  if (sorted.length === 0) return Number.NaN
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const mean = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0) / values.length
const grouped = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : "–"
const millis = (ms: number) =>
  ms >= 100 ? `${grouped(ms)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`
const micros = (us: number) => us >= 100 ? `${grouped(us)} µs` : `${us.toFixed(1)} µs`
const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system

// --- What is delivered ---------------------------------------------------------------------------

const tickers = ["ACME", "BNCH", "CORP"] as const
const docTypes = ["8-K", "10-K", "10-Q"] as const

/** A `filing.new` event as the ingestion records it (see `FilingEvents.ts`): about 450 bytes of JSON. */
const filingEvent = (serial: number, run: string): EventStore.NewEvent => {
  const ticker = tickers[serial % tickers.length]!
  const docType = docTypes[serial % docTypes.length]!
  const cik = String(9_200_000_000 + serial).padStart(10, "0")
  const publicationId = `${cik}-26-${String(serial).padStart(6, "0")}`
  return {
    type: "filing.new",
    key: `filing.new:${run}:${publicationId}`,
    payload: {
      event: "filing.new",
      timestamp: new Date().toISOString(),
      data: {
        publication_id: publicationId,
        ticker,
        company_name: `${ticker} Benchmark Holdings Inc`,
        doc_type: docType,
        title: `${ticker} ${docType} filed 2026-11-25`,
        filing_date: "2026-11-25",
        items: docType === "8-K" ? ["Item 2.02", "Item 9.01"] : [],
        url: `/v1/documents/${publicationId}`,
        sec_url: `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${publicationId}-index.htm`
      }
    }
  }
}

/**
 * Subscription `index` of a delivery case. Every one wants every benchmark event, through a mix of
 * ways: no filter, a ticker filter naming the events' tickers, a document-type filter naming theirs.
 */
const deliveringSubscription = (index: number, url: string): WebhookStore.Subscription => ({
  id: `wh_bench${String(index).padStart(8, "0")}`,
  ownerKeyId: `key_bench_${index % 50}`,
  url,
  events: index % 2 === 0 ? ["filing.new"] : ["filing.new", "filing.8k_material"],
  filters: index % 3 === 0 ? {} : index % 3 === 1 ? { tickers: [...tickers] } : { docTypes: [...docTypes] },
  secret: Redacted.make(`whsec_${randomBytes(24).toString("base64url")}`),
  status: "active",
  createdAtMillis: Date.now(),
  lastTriggeredAtMillis: null,
  startSequence: 0
})

const bodyOf = (event: EventStore.NewEvent) => new TextEncoder().encode(JSON.stringify(event.payload))

// --- Baseline: bare undici POSTs -----------------------------------------------------------------

type BaselineMode = "new Agent per request" | "one keep-alive Agent"

interface BaselineRun {
  readonly perSecond: number
  readonly cpuMillisPerRequest: number
}

/**
 * `count` POSTs of `body` with the headers a delivery carries, `inFlight` at a time, to the receiver.
 * A new Agent per request opens a new TLS connection each time and is destroyed after the answer, as
 * the sender does; one keep-alive Agent keeps a connection per request in flight.
 */
const baseline = async (
  receiver: WebhookReceiver,
  mode: BaselineMode,
  count: number,
  inFlight: number
): Promise<BaselineRun> => {
  const body = bodyOf(filingEvent(0, "baseline"))
  const signature = `sha256=${createHmac("sha256", "whsec_baseline").update(body).digest("hex")}`
  const agentOptions = { connect: { ca: receiver.certificate }, headersTimeout: 0, bodyTimeout: 0 }
  const shared = mode === "one keep-alive Agent" ? new Agent(agentOptions) : undefined
  const url = receiver.url("/baseline")
  let next = 0
  let notDelivered = 0
  const cpuStart = process.cpuUsage()
  const start = performance.now()
  const loop = async () => {
    while (next < count) {
      const index = next++
      const dispatcher = shared ?? new Agent(agentOptions)
      try {
        const response = await request(url, {
          method: "POST",
          dispatcher,
          headers: {
            "content-type": "application/json",
            "x-service-signature": signature,
            "x-service-event": "filing.new",
            "x-service-delivery-id": `dlv_baseline${String(index).padStart(16, "0")}`,
            "user-agent": "Filings-Webhooks/1"
          },
          body
        })
        await response.body.dump({ limit: 64 * 1024 })
        if (response.statusCode < 200 || response.statusCode >= 300) notDelivered++
      } finally {
        if (shared === undefined) await dispatcher.destroy()
      }
    }
  }
  await Promise.all(Array.from({ length: inFlight }, loop))
  const elapsed = performance.now() - start
  const cpu = cpuMicros(process.cpuUsage(cpuStart))
  await shared?.close()
  receiver.received.length = 0
  if (notDelivered > 0) throw new Error(`baseline (${mode}): ${notDelivered} of ${count} requests not answered 2xx`)
  return { perSecond: (count / elapsed) * 1000, cpuMillisPerRequest: cpu / 1000 / count }
}

const baselinePair = async (receiver: WebhookReceiver, count: number, inFlight: number) => ({
  fresh: await baseline(receiver, "new Agent per request", count, inFlight),
  keepAlive: await baseline(receiver, "one keep-alive Agent", count, inFlight)
})

// --- 1. Deliveries per second --------------------------------------------------------------------

interface DeliveryResult {
  readonly store: string
  readonly spec: CaseSpec
  readonly deliveries: number
  readonly setupMillis: number
  /** From the first event recorded: the events recorded, dispatch done (returned 0), last delivery recorded. */
  readonly recordedMillis: number
  readonly dispatchedMillis: number
  readonly totalMillis: number
  readonly perSecond: number
  readonly cpuMillisPerDelivery: number
  /** Attempts put back because the subscription had its attempts in flight (no attempt counted). */
  readonly busyPutBacks: number
  /** Jobs taken from the queue, put-backs included. */
  readonly takes: number
  readonly received: number
  readonly bodyBytes: number
  readonly before: { readonly fresh: BaselineRun; readonly keepAlive: BaselineRun }
  readonly after: { readonly fresh: BaselineRun; readonly keepAlive: BaselineRun }
}

const allowLocalhost = Either.getOrThrow(parseAllowList("localhost"))

const createSubscriptions = (count: number, receiver: WebhookReceiver) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookStore.WebhookStore
    const start = performance.now()
    for (let index = 0; index < count; index++) {
      yield* webhooks.create(deliveringSubscription(index, receiver.url(`/hooks/${index}`)))
    }
    return performance.now() - start
  })

/** Sends every delivery of `spec` and measures; the subscriptions exist already. */
const deliverAll = (store: string, spec: CaseSpec, receiver: WebhookReceiver, setupMillis: number) =>
  Effect.gen(function*() {
    const events = yield* EventStore.EventStore
    const queue = yield* JobQueue.JobQueue
    const sql = yield* SqlClient.SqlClient
    const expected = spec.subscriptions * spec.events
    const requests = Math.min(expected, baselineRequests)
    const newEvents = Array.from({ length: spec.events }, (_, serial) => filingEvent(serial, store))

    progress(`${store} ${caseName(spec)}: baseline before (${requests} requests each)`)
    const before = yield* Effect.promise(() => baselinePair(receiver, requests, spec.workers))
    receiver.received.length = 0

    let delivered = 0
    let lastDeliveredAt = 0
    let busyPutBacks = 0
    const failures: Array<string> = []
    const attempt = yield* makeDeliveryHandler({
      allow: allowLocalhost,
      sender: { certificateAuthorities: receiver.certificate }
    })
    // The real handler, counted: a success with a receiver answering 204 is a delivery recorded.
    const handle = (job: JobQueue.Job) =>
      attempt(job).pipe(
        Effect.tap(() =>
          Effect.sync(() => {
            delivered++
            lastDeliveredAt = performance.now()
          })
        ),
        Effect.tapError((failure) =>
          Effect.sync(() => {
            if (failure.routine === true) busyPutBacks++
            else failures.push(failure.reason)
          })
        )
      )

    progress(`${store} ${caseName(spec)}: delivering ${expected}`)
    const measured = yield* Effect.scoped(Effect.gen(function*() {
      const running = yield* startWorkers({
        queue: DeliveryQueue,
        concurrency: spec.workers,
        lease: "2 minutes",
        pollInterval: Duration.millis(pollIntervalMillis),
        maxAttempts: Number.POSITIVE_INFINITY,
        handle
      })
      const cpuStart = process.cpuUsage()
      const start = performance.now()
      yield* events.record(newEvents)
      const recorded = performance.now()
      while ((yield* dispatchOnce) > 0) yield* running.wake.pipe(Effect.repeatN(spec.workers - 1))
      const dispatched = performance.now()
      while (delivered < expected) {
        if (failures.length > 0) return yield* Effect.dieMessage(`${store}: a delivery failed: ${failures[0]}`)
        if (performance.now() - start > timeoutMillis) {
          return yield* Effect.dieMessage(`${store}: ${delivered} of ${expected} delivered after ${timeoutMillis} ms`)
        }
        yield* Effect.sleep(Duration.millis(5))
      }
      const cpu = cpuMicros(process.cpuUsage(cpuStart))
      // Let the workers complete the last jobs before they stop.
      const settleBy = performance.now() + 10_000
      while ((yield* queue.pendingCount(DeliveryQueue)) > 0 && performance.now() < settleBy) {
        yield* Effect.sleep(Duration.millis(20))
      }
      return {
        recordedMillis: recorded - start,
        dispatchedMillis: dispatched - start,
        totalMillis: lastDeliveredAt - start,
        cpuMillisPerDelivery: cpu / 1000 / expected
      }
    }))

    const [counted] = yield* sql<{ readonly delivered: number }>`
      SELECT count(*)::int AS delivered FROM deliveries WHERE state = 'delivered'`
    const [jobs] = yield* sql<{ readonly takes: number }>`
      SELECT coalesce(sum(attempts), 0)::int AS takes FROM jobs WHERE queue = ${DeliveryQueue}`
    const received = receiver.received.length
    receiver.received.length = 0
    if (counted?.delivered !== expected) {
      return yield* Effect.dieMessage(`${store}: ${counted?.delivered} deliveries recorded delivered, not ${expected}`)
    }

    progress(`${store} ${caseName(spec)}: baseline after`)
    const after = yield* Effect.promise(() => baselinePair(receiver, requests, spec.workers))
    const result: DeliveryResult = {
      store,
      spec,
      deliveries: expected,
      setupMillis,
      ...measured,
      perSecond: (expected / measured.totalMillis) * 1000,
      busyPutBacks,
      takes: jobs?.takes ?? 0,
      received,
      bodyBytes: mean(newEvents.map((event) => bodyOf(event).length)),
      before,
      after
    }
    progress(
      `${store} ${caseName(spec)}: ${grouped(result.perSecond)} deliveries/s; baseline ${
        grouped(mean([before.fresh.perSecond, after.fresh.perSecond]))
      } (new Agent), ${grouped(mean([before.keepAlive.perSecond, after.keepAlive.perSecond]))} (keep-alive)`
    )
    return result
  })

// --- 2. One event against many subscriptions ----------------------------------------------------

interface DispatchResult {
  readonly store: string
  readonly subscriptions: number
  readonly deliveriesPerEvent: number
  readonly dispatchMillis: ReadonlyArray<number>
  readonly listAllMillis: ReadonlyArray<number>
  readonly matchMillis: ReadonlyArray<number>
  readonly recordMillis: ReadonlyArray<number>
  /** `JobQueue.enqueueAll`, as the dispatcher enqueues. */
  readonly enqueueAllMillis: ReadonlyArray<number>
  /** One `JobQueue.enqueue` per job, for comparison. */
  readonly enqueueEachMillis: ReadonlyArray<number>
}

/** Rounds of the dispatch's parts alone: enqueuing 10,000 jobs takes seconds. */
const partRounds = Math.min(3, dispatchRounds)

/**
 * `dispatchOnce` for one new event at a time, no worker running, and, in the same rounds, its parts
 * alone: listing the subscriptions, matching them in memory, recording a delivery for each (under an
 * event id of its own) and enqueuing a job for each (on queues of their own, which no worker reads),
 * in one `enqueueAll` as the dispatcher does, and with one `enqueue` per job for comparison.
 */
const measureDispatch = (store: string, subscriptions: number) =>
  Effect.gen(function*() {
    const events = yield* EventStore.EventStore
    const webhooks = yield* WebhookStore.WebhookStore
    const deliveries = yield* DeliveryStore.DeliveryStore
    const queue = yield* JobQueue.JobQueue
    const sql = yield* SqlClient.SqlClient
    // Whatever a delivery case left undispatched is dispatched first, untimed.
    while ((yield* dispatchOnce) > 0) continue

    const dispatchMillis: Array<number> = []
    const listAllMillis: Array<number> = []
    const matchMillis: Array<number> = []
    const recordMillis: Array<number> = []
    const enqueueAllMillis: Array<number> = []
    const enqueueEachMillis: Array<number> = []
    let deliveriesPerEvent = 0
    for (let round = 0; round < dispatchRounds; round++) {
      const [event] = yield* events.record([filingEvent(1_000_000 + round, `${store}-dispatch`)])
      const start = performance.now()
      const read = yield* dispatchOnce
      dispatchMillis.push(performance.now() - start)
      const [made] = yield* sql<{ readonly count: number }>`
        SELECT count(*)::int AS count FROM deliveries WHERE event_id = ${event!.id}`
      deliveriesPerEvent = made?.count ?? 0
      if (read !== 1 || deliveriesPerEvent !== subscriptions) {
        return yield* Effect.dieMessage(`${store}: dispatch read ${read} events, made ${deliveriesPerEvent} deliveries`)
      }

      const listStart = performance.now()
      const listed = yield* webhooks.listAll
      listAllMillis.push(performance.now() - listStart)
      const matchStart = performance.now()
      listed.filter((subscription) => wants(subscription, event!))
      matchMillis.push(performance.now() - matchStart)
      if (round < partRounds) {
        const eventId = `evt_dispatch_parts_${round}`
        const planned: Array<DeliveryStore.NewDelivery> = listed.map((subscription) => ({
          id: deliveryIdOf(subscription.id, eventId),
          subscriptionId: subscription.id,
          eventId,
          eventSequence: event!.sequence,
          eventType: "filing.new",
          state: "pending",
          createdAtMillis: Date.now()
        }))
        const recordStart = performance.now()
        yield* deliveries.record(planned)
        recordMillis.push(performance.now() - recordStart)
        const jobs = planned.map((delivery) => ({ payload: { deliveryId: delivery.id }, uniqueKey: delivery.id }))
        const allStart = performance.now()
        const added = yield* queue.enqueueAll("bench.enqueue-all", jobs)
        enqueueAllMillis.push(performance.now() - allStart)
        const eachStart = performance.now()
        for (const job of jobs) yield* queue.enqueue("bench.enqueue-each", job.payload, { uniqueKey: job.uniqueKey })
        enqueueEachMillis.push(performance.now() - eachStart)
        if (added !== jobs.length) {
          return yield* Effect.dieMessage(`${store}: enqueueAll added ${added} of ${jobs.length}`)
        }
      }
      progress(
        `${store}: dispatchOnce for one event and ${subscriptions} subscriptions: ${millis(dispatchMillis.at(-1)!)}${
          round < partRounds
            ? `; alone: record ${millis(recordMillis.at(-1)!)}, enqueueAll ${
              millis(enqueueAllMillis.at(-1)!)
            }, enqueue one by one ${millis(enqueueEachMillis.at(-1)!)}`
            : ""
        }`
      )
    }
    return {
      store,
      subscriptions,
      deliveriesPerEvent,
      dispatchMillis,
      listAllMillis,
      matchMillis,
      recordMillis,
      enqueueAllMillis,
      enqueueEachMillis
    } satisfies DispatchResult
  })

interface MatchingResult {
  readonly subscriptions: number
  readonly matched: number
  readonly wantsMicros: ReadonlyArray<number>
  readonly handMicros: ReadonlyArray<number>
}

/** 10,000 subscriptions with a mix of event types and filters; about a third want the test event. */
const mixedSubscriptions = (count: number): ReadonlyArray<WebhookStore.Subscription> => {
  const eventSets = [
    ["filing.new"],
    ["filing.new", "filing.8k_material"],
    ["press_release.new", "earnings_call.new"],
    ["filing.new", "filing.8k_material", "press_release.new", "earnings_call.new", "earnings_call.upcoming"]
  ]
  const tickerOf = (n: number) => (n % 97 === 0 ? "ACME" : `T${String(n % 2000).padStart(4, "0")}`)
  return Array.from({ length: count }, (_, index): WebhookStore.Subscription => {
    const kind = index % 10
    const pickedTickers = [tickerOf(index * 7), tickerOf(index * 13 + 1), tickerOf(index * 31 + 2)]
    const filters: WebhookStore.SubscriptionFilters = kind < 4
      ? {}
      : kind < 7
      ? { tickers: pickedTickers }
      : kind < 9
      ? { docTypes: index % 2 === 0 ? ["8-K"] : ["10-K", "10-Q"] }
      : { tickers: pickedTickers, docTypes: ["8-K"] }
    return {
      id: `wh_match${String(index).padStart(8, "0")}`,
      ownerKeyId: `key_${index % 50}`,
      url: `https://hooks${index % 100}.example/filings`,
      events: eventSets[index % eventSets.length]!,
      filters,
      secret: Redacted.make("whsec_match"),
      status: index % 50 === 0 ? "paused" : "active",
      createdAtMillis: 0,
      lastTriggeredAtMillis: null,
      // One in twenty was created after the event.
      startSequence: index % 20 === 0 ? 2_000 : 0
    }
  })
}

/** `wants` over every subscription, against a plain filter of the same rules with the subject read once. */
const measureMatching = (count: number): MatchingResult => {
  const subscriptions = mixedSubscriptions(count)
  const newEvent = filingEvent(0, "match")
  const event: EventStore.StoredEvent = {
    sequence: 1_000,
    id: "evt_match",
    type: newEvent.type,
    key: newEvent.key,
    payload: newEvent.payload,
    recordedAtMillis: 0
  }
  const handFilter = () => {
    const data = (event.payload as { readonly data: { readonly ticker: string; readonly doc_type: string } }).data
    return subscriptions.filter((subscription) => {
      const { docTypes: types, tickers: names } = subscription.filters
      return event.sequence > subscription.startSequence && subscription.events.includes(event.type) &&
        (names === undefined || names.length === 0 || names.includes(data.ticker)) &&
        (types === undefined || types.length === 0 || types.includes(data.doc_type))
    })
  }
  const byWants = () => subscriptions.filter((subscription) => wants(subscription, event))
  const matched = byWants().length
  if (handFilter().length !== matched) throw new Error("the hand-written filter disagrees with wants")
  const wantsMicros: Array<number> = []
  const handMicros: Array<number> = []
  // Ten unmeasured rounds each to warm up, then the two take turns.
  for (let round = -10; round < matchRounds; round++) {
    const first = performance.now()
    byWants()
    const second = performance.now()
    handFilter()
    const third = performance.now()
    if (round < 0) continue
    wantsMicros.push((second - first) * 1000)
    handMicros.push((third - second) * 1000)
  }
  return { subscriptions: count, matched, wantsMicros, handMicros }
}

// --- 3. Signing ----------------------------------------------------------------------------------

interface SigningResult {
  readonly bytes: number
  readonly webCrypto: { readonly perSecond: number; readonly cpuMicros: number }
  readonly nodeHmac: { readonly perSecond: number; readonly cpuMicros: number }
}

/** A `filing.new` body padded (in its title) to exactly `size` bytes. */
const bodyOfSize = (size: number): Uint8Array => {
  const event = filingEvent(0, "sign")
  const payload = event.payload as { data: { title: string } }
  const shortBy = size - JSON.stringify(payload).length
  if (shortBy < 0) throw new Error(`a body of ${size} bytes is too small for the event`)
  payload.data.title += " ".repeat(shortBy)
  const body = new TextEncoder().encode(JSON.stringify(payload))
  if (body.length !== size) throw new Error(`body of ${body.length} bytes, not ${size}`)
  return body
}

/** Runs `operation` one after another for `seconds`: operations per second and CPU µs each. */
const rateOf = async (seconds: number, operation: () => unknown) => {
  const cpuStart = process.cpuUsage()
  const start = performance.now()
  const end = start + seconds * 1000
  let count = 0
  while (performance.now() < end) {
    for (let index = 0; index < 100; index++) await operation()
    count += 100
  }
  const elapsed = performance.now() - start
  return { perSecond: (count / elapsed) * 1000, cpuMicros: cpuMicros(process.cpuUsage(cpuStart)) / count }
}

const measureSigning = async (): Promise<ReadonlyArray<SigningResult>> => {
  const secret = `whsec_${randomBytes(24).toString("base64url")}`
  const results: Array<SigningResult> = []
  for (const size of [500, 5_000]) {
    const body = bodyOfSize(size)
    const nodeSign = () => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`
    if ((await WebhookSignature.sign(secret, body)) !== nodeSign()) throw new Error("the two signatures differ")
    const webCrypto: Array<{ perSecond: number; cpuMicros: number }> = []
    const nodeHmac: Array<{ perSecond: number; cpuMicros: number }> = []
    // Three rounds, taking turns; each side's median.
    for (let round = 0; round < 3; round++) {
      webCrypto.push(await rateOf(signSeconds, () => WebhookSignature.sign(secret, body)))
      nodeHmac.push(await rateOf(signSeconds, nodeSign))
    }
    const medianOf = (runs: ReadonlyArray<{ perSecond: number; cpuMicros: number }>) => ({
      perSecond: median(runs.map((run) => run.perSecond)),
      cpuMicros: median(runs.map((run) => run.cpuMicros))
    })
    results.push({ bytes: size, webCrypto: medianOf(webCrypto), nodeHmac: medianOf(nodeHmac) })
    progress(
      `signing ${size} B: Web Crypto ${grouped(medianOf(webCrypto).perSecond)}/s, createHmac ${
        grouped(medianOf(nodeHmac).perSecond)
      }/s`
    )
  }
  return results
}

// --- One store -----------------------------------------------------------------------------------

interface StoreResults {
  readonly deliveries: ReadonlyArray<DeliveryResult>
  readonly dispatch: DispatchResult
}

/** Opens a fresh, migrated database, and what removes it. */
type OpenDatabase = () => Promise<{
  readonly layer: Layer.Layer<SqlClient.SqlClient | Database.DatabaseEngine, Database.DatabaseError>
  readonly remove: () => Promise<void>
}>

const runOnDatabase = async <A>(
  open: OpenDatabase,
  program: Effect.Effect<A, unknown, Stores | SqlClient.SqlClient>
): Promise<A> => {
  const { layer, remove } = await open()
  try {
    return await Effect.runPromise(
      program.pipe(
        Effect.provide(SqlStorage.layer.pipe(Layer.provideMerge(layer))),
        Logger.withMinimumLogLevel(LogLevel.Warning)
      )
    )
  } finally {
    await remove()
  }
}

/** Each delivery case on a database of its own; dispatch on the one with `--match-subscriptions` subscriptions. */
const measureStore = async (store: string, open: OpenDatabase, receiver: WebhookReceiver): Promise<StoreResults> => {
  const deliveries: Array<DeliveryResult> = []
  let dispatch: DispatchResult | undefined
  for (const spec of cases) {
    progress(`${store} ${caseName(spec)}: creating ${spec.subscriptions} subscriptions`)
    const result = await runOnDatabase(
      open,
      Effect.gen(function*() {
        const setupMillis = yield* createSubscriptions(spec.subscriptions, receiver)
        const delivered = yield* deliverAll(store, spec, receiver, setupMillis)
        const dispatched = spec.subscriptions === matchSubscriptions && dispatch === undefined
          ? yield* measureDispatch(store, spec.subscriptions)
          : undefined
        return { delivered, dispatched }
      })
    )
    deliveries.push(result.delivered)
    dispatch ??= result.dispatched
  }
  if (dispatch === undefined) {
    progress(`${store}: creating ${matchSubscriptions} subscriptions for the dispatch measurement`)
    dispatch = await runOnDatabase(
      open,
      Effect.zipRight(createSubscriptions(matchSubscriptions, receiver), measureDispatch(store, matchSubscriptions))
    )
  }
  return { deliveries, dispatch }
}

// --- The report ----------------------------------------------------------------------------------

const ratio = (value: number) => Number.isFinite(value) ? value.toFixed(value >= 10 ? 1 : 2) : "–"
const caseLabel = (spec: CaseSpec) => `${grouped(spec.subscriptions)} × ${grouped(spec.events)}`
const meanRate = (pair: { readonly fresh: BaselineRun; readonly keepAlive: BaselineRun }, other: typeof pair) => ({
  fresh: mean([pair.fresh.perSecond, other.fresh.perSecond]),
  keepAlive: mean([pair.keepAlive.perSecond, other.keepAlive.perSecond])
})

/** What the 1-subscription cases say, when there is one with the default workers and one with fewer. */
const oneSubscriptionNote = (all: ReadonlyArray<DeliveryResult>): ReadonlyArray<string> => {
  const ones = all.filter((result) => result.spec.subscriptions === 1)
  const lines = [...new Set(ones.map((result) => result.store))].flatMap((store) => {
    const full = ones.find((result) => result.store === store && result.spec.workers === workers)
    const bounded = ones.find((result) =>
      result.store === store && result.spec.workers <= PerSubscriptionConcurrency &&
      result.spec.events === full?.spec.events
    )
    if (full === undefined || bounded === undefined) return []
    return [
      `- ${store}: ${grouped(full.perSecond)} deliveries/s with ${workers} workers (${
        grouped(full.busyPutBacks)
      } put-backs for ${grouped(full.deliveries)} deliveries), ${
        grouped(bounded.perSecond)
      } with ${bounded.spec.workers} (${grouped(bounded.busyPutBacks)} put-backs).`
    ]
  })
  return [
    `With one subscription at most ${PerSubscriptionConcurrency} attempts are in flight in a process`,
    "(`PerSubscriptionConcurrency` in `packages/server/src/webhooks/DeliveryWorker.ts`), whatever the number of",
    "workers: the 1-subscription cases measure that bound. A worker that takes a job of a subscription whose",
    `attempts are all in flight waits up to ${
      Duration.toSeconds(GateWait)
    } s (\`GateWait\`) for one of them to end, then puts the job back`,
    "for 5 to 10 s without an attempt; with as many workers as attempts allowed, no worker ever waits:",
    "",
    ...lines
  ]
}

const report = (
  stores: ReadonlyArray<readonly [string, StoreResults]>,
  skipped: ReadonlyArray<string>,
  matching: MatchingResult,
  signing: ReadonlyArray<SigningResult>,
  startLoad: ReadonlyArray<number>
): string => {
  const command = [
    "node --import tsx bench/webhooks.ts",
    ...(argv.cases === undefined ? [] : [`--cases ${argv.cases}`]),
    ...(argv.workers === undefined ? [] : [`--workers ${workers}`]),
    ...(argv["poll-interval"] === undefined ? [] : [`--poll-interval ${pollIntervalMillis}`]),
    ...(argv["baseline-requests"] === undefined ? [] : [`--baseline-requests ${baselineRequests}`]),
    ...(argv["match-subscriptions"] === undefined ? [] : [`--match-subscriptions ${matchSubscriptions}`]),
    ...(argv["dispatch-rounds"] === undefined ? [] : [`--dispatch-rounds ${dispatchRounds}`]),
    ...(argv["match-rounds"] === undefined ? [] : [`--match-rounds ${matchRounds}`]),
    ...(argv["sign-seconds"] === undefined ? [] : [`--sign-seconds ${signSeconds}`]),
    ...(argv.stores === undefined ? [] : [`--stores ${argv.stores}`])
  ].join(" ")
  const processors = cpus()
  const all = stores.flatMap(([, results]) => results.deliveries)
  const sign500 = signing.find((result) => result.bytes === 500)
  const bodyBytes = all[0]?.bodyBytes ?? Number.NaN

  const deliveryRows = all.map((result) => {
    const base = meanRate(result.before, result.after)
    return `| ${result.store} | ${caseLabel(result.spec)} | ${result.spec.workers} | ${
      grouped(result.deliveries)
    } | **${grouped(result.perSecond)}** | ${millis(result.totalMillis)} | ${millis(result.recordedMillis)} | ${
      millis(result.dispatchedMillis)
    } | ${result.cpuMillisPerDelivery.toFixed(2)} | ${grouped(result.busyPutBacks)} | ${grouped(base.fresh)} | ${
      grouped(base.keepAlive)
    } | ${ratio(result.perSecond / base.fresh)} | ${ratio(result.perSecond / base.keepAlive)} |`
  })
  const baselineRows = all.map((result) =>
    `| ${result.store} | ${caseLabel(result.spec)} | ${result.spec.workers} | ${
      grouped(Math.min(result.deliveries, baselineRequests))
    } | ${grouped(result.before.fresh.perSecond)}, ${grouped(result.after.fresh.perSecond)} | ${
      mean([result.before.fresh.cpuMillisPerRequest, result.after.fresh.cpuMillisPerRequest]).toFixed(2)
    } | ${grouped(result.before.keepAlive.perSecond)}, ${grouped(result.after.keepAlive.perSecond)} | ${
      mean([result.before.keepAlive.cpuMillisPerRequest, result.after.keepAlive.cpuMillisPerRequest]).toFixed(2)
    } | ${grouped(result.takes)} | ${grouped(result.received)} | ${millis(result.setupMillis)} |`
  )
  const dispatchRows = stores.map(([store, { dispatch }]) =>
    `| ${store} | ${grouped(dispatch.subscriptions)} | ${grouped(dispatch.deliveriesPerEvent)} | **${
      millis(median(dispatch.dispatchMillis))
    }** | ${millis(Math.min(...dispatch.dispatchMillis))} – ${millis(Math.max(...dispatch.dispatchMillis))} | ${
      millis(median(dispatch.listAllMillis))
    } | ${millis(median(dispatch.matchMillis))} | ${millis(median(dispatch.recordMillis))} | ${
      millis(median(dispatch.enqueueAllMillis))
    } | ${millis(median(dispatch.enqueueEachMillis))} | ${
      ratio(median(dispatch.enqueueEachMillis) / median(dispatch.enqueueAllMillis))
    } |`
  )
  const signRows = signing.map((result) =>
    `| ${grouped(result.bytes)} B | ${grouped(result.webCrypto.perSecond)} | ${
      micros(1e6 / result.webCrypto.perSecond)
    } | ${micros(result.webCrypto.cpuMicros)} | ${grouped(result.nodeHmac.perSecond)} | ${
      micros(1e6 / result.nodeHmac.perSecond)
    } | ${micros(result.nodeHmac.cpuMicros)} | ${
      ratio((1e6 / result.webCrypto.perSecond) / (1e6 / result.nodeHmac.perSecond))
    } |`
  )
  const shareRows = sign500 === undefined ? [] : all.map((result) => {
    const wallPerDelivery = (result.spec.workers / result.perSecond) * 1e6
    return `| ${result.store} | ${caseLabel(result.spec)} | ${result.spec.workers} | ${
      micros(result.cpuMillisPerDelivery * 1000)
    } | ${((sign500.webCrypto.cpuMicros / (result.cpuMillisPerDelivery * 1000)) * 100).toFixed(1)} % | ${
      millis(wallPerDelivery / 1000)
    } | ${(((1e6 / sign500.webCrypto.perSecond) / wallPerDelivery) * 100).toFixed(2)} % |`
  })

  return [
    "# Webhook delivery benchmark",
    "",
    ...commandLines(command),
    "",
    "Everything runs in this one process: the storage (PGlite in WebAssembly, or the client of a PostgreSQL",
    "server on the same machine), the dispatcher, the queue workers, the delivery handler, and the HTTPS",
    "receiver (`test/support/webhookReceiver.ts`: self-signed RSA-2048 certificate, answers 204) with the TLS",
    "handshakes it accepts. The machine is shared with other work, so each case runs its baseline just before",
    "and just after itself.",
    "",
    `Settings: ${workers} delivery workers unless the case says otherwise (\`FILINGS_WEBHOOK_WORKERS\`), poll interval`,
    `${pollIntervalMillis} ms, lease 2 minutes, \`maxAttempts: Infinity\`, allow-list \`localhost\`; the receiver's`,
    "certificate is given to the sender as its certificate authority. Event bodies: `filing.new` payloads of",
    `${grouped(bodyBytes)} bytes.`,
    "",
    "## 1. Deliveries per second, one instance",
    "",
    "Each case on a fresh database: the subscriptions are created (not timed) and the workers started, then",
    "the clock starts: the events are recorded (one `EventStore.record` call), `dispatchOnce` runs until it",
    "returns 0, waking the workers after each batch of up to 200 events, and the workers send until every",
    "delivery is recorded `delivered` (checked in the database afterwards). Deliveries/s = deliveries / time",
    "from the first record to the last delivery recorded. CPU per delivery is this process's (the receiver",
    "and, on PGlite, the database included). Busy put-backs: jobs a worker took and put back for 5 to 10 s",
    `without an attempt because their subscription had ${PerSubscriptionConcurrency} attempts in flight for all of ${
      Duration.toSeconds(GateWait)
    } s.`,
    "",
    "Baseline, as many requests in flight as the case has workers: bare undici `request` POSTs of the same",
    "body with the same headers to the same receiver; (a) a new `Agent` per request, destroyed after the",
    "answer, so a TLS handshake per request as every delivery attempt makes (its connection is pinned to the",
    "address checked for that attempt): the ratio to it is the cost of storage, queue, address check and",
    "signing; (b) one keep-alive `Agent`: what reusing connections would give. Baseline req/s is the mean of",
    "its run before and its run after the case.",
    "",
    "| store | subscriptions × events | workers | deliveries | deliveries/s | first record → last delivered | events recorded at | dispatch done at | CPU ms / delivery | busy put-backs | baseline (a) new Agent, req/s | baseline (b) keep-alive, req/s | ours / (a) | ours / (b) |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...deliveryRows,
    ...skipped,
    "",
    ...oneSubscriptionNote(all),
    "",
    "| store | subscriptions × events | workers | baseline requests | (a) req/s before, after | (a) CPU ms / request | (b) req/s before, after | (b) CPU ms / request | jobs taken (ours) | requests received (ours) | creating the subscriptions |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...baselineRows,
    "",
    `## 2. One event against ${grouped(matchSubscriptions)} subscriptions`,
    "",
    `\`dispatchOnce\` for one new event that every subscription wants, no worker running: median of ${dispatchRounds}`,
    "rounds, each with a new event. In the same rounds, its parts alone: `WebhookStore.listAll` and `wants` over",
    `the listed subscriptions (medians of ${dispatchRounds}), then, medians of the first ${partRounds} rounds,`,
    "`DeliveryStore.record` of one delivery per subscription (one statement per 500 rows), `JobQueue.enqueueAll`",
    "of one job per delivery as the dispatcher enqueues them (one statement per 1,000 rows), and, for",
    "comparison, one `JobQueue.enqueue` per job. The parts are measured apart from the dispatch and need not",
    "add up to it. The cursor moves only after the jobs are enqueued, so the events after this one wait for",
    "the whole dispatch.",
    "",
    "| store | subscriptions | deliveries made | dispatchOnce, median | min – max | listAll | wants × all | record deliveries | enqueueAll | enqueue one by one | one by one / enqueueAll |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...dispatchRows,
    "",
    `Matching alone, in memory: \`wants(subscription, event)\` over ${grouped(matching.subscriptions)} subscriptions`,
    "with a mix of event types and filters (none; 3 tickers; document types; both; one in twenty created after",
    `the event; one in fifty paused), ${grouped(matching.matched)} of them matching one \`filing.new\` event; against`,
    "a hand-written `Array.filter` of the same rules over the same objects (`events.includes`, the ticker and",
    "document type read from the payload once, where `wants` reads them for every subscription). Median of",
    `${matchRounds} rounds after 10 unmeasured, the two taking turns.`,
    "",
    "| matcher | median | per subscription | ratio to the plain filter |",
    "| --- | ---: | ---: | ---: |",
    `| \`wants\` | ${micros(median(matching.wantsMicros))} | ${
      ((median(matching.wantsMicros) * 1000) / matching.subscriptions).toFixed(0)
    } ns | ${ratio(median(matching.wantsMicros) / median(matching.handMicros))} |`,
    `| plain filter | ${micros(median(matching.handMicros))} | ${
      ((median(matching.handMicros) * 1000) / matching.subscriptions).toFixed(0)
    } ns | 1 |`,
    "",
    "## 3. Signing",
    "",
    "`WebhookSignature.sign(secret, body)` (`@filings/webhook-signer`: Web Crypto, asynchronous, imports the",
    "key at every call) against `node:crypto` `createHmac(\"sha256\", secret).update(body).digest(\"hex\")`, one",
    `after another for ${signSeconds} s, three rounds taking turns, medians. Both give the same signature. CPU µs`,
    "counts every thread of the process (Web Crypto signs on libuv's thread pool).",
    "",
    "| body | Web Crypto, signatures/s | µs each | CPU µs each | createHmac, signatures/s | µs each | CPU µs each | Web Crypto / createHmac, time |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...signRows,
    "",
    "Signing's share of a delivery, 500 B body (the bodies delivered here are about that size): of this",
    "process's CPU time per delivery, and of a delivery's wall time in one worker (workers / deliveries per second).",
    "",
    "| store | subscriptions × events | workers | CPU per delivery | signing's share | wall time per delivery and worker | signing's share |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ...shareRows,
    "",
    "## Machine",
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Node.js ${process.version} on ${process.platform} ${release()} (${process.arch})`,
    `- CPU: ${processors[0]?.model ?? "unknown"} × ${processors.length}; memory ${
      (totalmem() / 2 ** 30).toFixed(1)
    } GiB`,
    `- Load average when the run started: ${startLoad.map((value) => value.toFixed(2)).join(", ")}`,
    `- Whole run: ${((performance.now() - startedAt) / 1000).toFixed(0)} s`,
    "",
    `Reproduce: \`${command}\` from the repository root (see bench/README.md).`,
    ""
  ].join("\n")
}

// --- Main ----------------------------------------------------------------------------------------

const main = async () => {
  const cleanup = new Cleanup()
  try {
    const startLoad = loadavg()
    const workDir = await mkdtemp(join(tmpdir(), "filings-bench-webhooks-"))
    cleanup.add("remove the work directory", () => rm(workDir, { recursive: true, force: true }))
    const receiver = await startWebhookReceiver()
    cleanup.add("close the receiver", receiver.close)

    progress("signing")
    const signing = await measureSigning()
    progress(`matching ${matchSubscriptions} subscriptions in memory`)
    const matching = measureMatching(matchSubscriptions)

    const stores: Array<readonly [string, StoreResults]> = []
    const skipped: Array<string> = []
    let pgliteSerial = 0
    if (storeNames.includes("pglite")) {
      stores.push([
        "PGlite",
        await measureStore("PGlite", async () => {
          const dataDir = join(workDir, `data-${++pgliteSerial}`)
          await mkdir(dataDir)
          return {
            layer: Database.layerPglite({ dataDir: Database.pgliteDataDir(dataDir) }),
            remove: () => rm(dataDir, { recursive: true, force: true })
          }
        }, receiver)
      ])
    }

    const admin = process.env.FILINGS_TEST_DATABASE_URL
    if (!storeNames.includes("postgres")) {
      skipped.push("| PostgreSQL | (not measured: --stores) | | | | | | | | | | | | |")
    } else if (admin !== undefined && admin !== "") {
      stores.push([
        "PostgreSQL",
        await measureStore("PostgreSQL", async () => {
          const database = await createDatabase(admin)
          cleanup.add("drop the PostgreSQL database", database.drop)
          return {
            layer: Database.layerPostgres({ url: Redacted.make(database.url) }),
            remove: database.drop
          }
        }, receiver)
      ])
    } else {
      skipped.push("| PostgreSQL | (skipped: set FILINGS_TEST_DATABASE_URL) | | | | | | | | | | | | |")
    }

    const text = report(stores, skipped, matching, signing, startLoad)
    await publishReport(outputFile, text)
    progress(`report written to ${relative(repositoryRoot, outputFile)}`)
  } finally {
    await cleanup.run()
  }
}

void main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
