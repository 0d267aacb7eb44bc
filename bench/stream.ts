/**
 * `GET /v1/stream` benchmark, on PostgreSQL, against one `filings serve` process:
 *
 * 1. **Idle streams.** The server's resident memory and CPU time over `--idle-seconds` with no
 *    stream open (the baseline), then with `--idle` streams open and nothing happening (the log
 *    polled every 250 ms, a heartbeat every 15 s): the cost of the streams is the difference.
 * 2. **A burst.** `--filings` filings' events (`filing.new`, and `filing.8k_material` for every
 *    third, an 8-K) recorded by this process through the SQL event store, as another instance
 *    would, as fast as it can, to `--listeners` EventSource clients (the `eventsource` package);
 *    one of them goes through a proxy that cuts its connection halfway, so it reconnects with
 *    Last-Event-ID. Latency is the time from an event's `recorded_at` to a client having it (one
 *    clock: everything runs on this machine). Side by side in the same run, the baseline: a reader
 *    of the database itself, polling `EventStore.after` every 250 ms as the server's tail does,
 *    which is the floor a poll of that interval allows.
 *
 *   FILINGS_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     node --import tsx bench/stream.ts [--idle 1000] [--idle-seconds 30] [--filings 1000]
 *     [--listeners 10] [--output bench/results/stream-latest.md]
 */
import { Webhooks } from "@filings/domain"
import type { EventStore } from "@filings/storage"
import { EventSource } from "eventsource"
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises"
import { Agent, request } from "node:http"
import { cpus, release, tmpdir, totalmem } from "node:os"
import { join, relative } from "node:path"
import { parseArgs } from "node:util"
import { startCuttableProxy } from "../test/support/cuttableProxy.js"
import { openEventRecorder, syntheticFilingEvents } from "../test/support/eventRecorder.js"
import { createDatabase } from "../test/support/postgres.js"
import { cpuSeconds } from "./support/processCpu.js"
import { Cleanup, createBenchKey, filingsProgram, repositoryRoot, startListening } from "./support/processes.js"

const { values: argv } = parseArgs({
  options: {
    idle: { type: "string", default: "1000" },
    "idle-seconds": { type: "string", default: "30" },
    filings: { type: "string", default: "1000" },
    listeners: { type: "string", default: "10" },
    output: { type: "string", default: "bench/results/stream-latest.md" }
  }
})
const idleStreams = Number(argv.idle)
const idleSeconds = Number(argv["idle-seconds"])
const filings = Number(argv.filings)
const listenerCount = Math.max(1, Number(argv.listeners))

const admin = process.env.FILINGS_TEST_DATABASE_URL
if (admin === undefined || admin === "") {
  console.error("set FILINGS_TEST_DATABASE_URL to a PostgreSQL admin URL: the burst is recorded by another process")
  process.exit(1)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** The process's resident memory in MB and its CPU time (user + system) in seconds, from /proc. */
const usageOf = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, "utf8")
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return { rssMb: rssKb / 1024, cpuSeconds: cpuSeconds(pid) ?? Number.NaN }
}

/** CPU share of one core and resident memory over `seconds` of nothing happening. */
const idleCost = async (pid: number, seconds: number) => {
  const before = await usageOf(pid)
  await sleep(seconds * 1000)
  const after = await usageOf(pid)
  return { rssMb: after.rssMb, corePercent: (100 * (after.cpuSeconds - before.cpuSeconds)) / seconds }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

const summary = (latencies: ReadonlyArray<number>) => {
  const sorted = [...latencies].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN }
}

const cleanup = new Cleanup()
try {
  const database = await createDatabase(admin)
  cleanup.add("drop the database", database.drop)
  const scratch = await mkdtemp(join(tmpdir(), "filings-bench-stream-"))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FILINGS_DATABASE_URL: database.url,
    FILINGS_LOG_LEVEL: "WARN",
    FILINGS_STREAMS_PER_KEY: String(idleStreams + listenerCount + 10)
  }
  delete env.FILINGS_DATA_DIR
  delete env.FILINGS_SERVER_URL
  delete env.FILINGS_ADMIN_TOKEN
  delete env.NODE_OPTIONS
  const key = await createBenchKey(env, "stream-bench")
  const server = await startListening({
    name: "filings serve",
    nodeArgs: [filingsProgram, "serve", "--port", "0", "--json"],
    env,
    logFile: join(scratch, "server.log")
  })
  cleanup.add("stop the server", server.stop)
  const recorder = openEventRecorder(database.url)
  cleanup.add("close the recorder", recorder.close)
  await sleep(2_000)

  // --- 1. Idle streams --------------------------------------------------------------------------
  console.error(`idle: ${idleSeconds} s without streams`)
  const withoutStreams = await idleCost(server.pid, idleSeconds)
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity })
  const open: Array<{ readonly close: () => void }> = []
  console.error(`idle: opening ${idleStreams} streams`)
  await Promise.all(Array.from({ length: idleStreams }, () =>
    new Promise<void>((resolve, reject) => {
      const outgoing = request(`${server.url}/v1/stream`, { agent, headers: { authorization: `Bearer ${key}` } })
      outgoing.on("response", (response) => {
        if (response.statusCode !== 200) return reject(new Error(`a stream answered ${response.statusCode}`))
        response.once("data", () => resolve())
        open.push({ close: () => outgoing.destroy() })
      })
      outgoing.on("error", reject)
      outgoing.end()
    })))
  console.error(`idle: ${idleSeconds} s with ${idleStreams} streams open`)
  const withStreams = await idleCost(server.pid, idleSeconds)
  for (const stream of open) stream.close()
  await sleep(1_000)

  // --- 2. A burst -------------------------------------------------------------------------------
  const proxy = await startCuttableProxy(server.url)
  cleanup.add("close the proxy", proxy.close)
  const start = await recorder.latestSequence()
  interface Listener {
    readonly arrivals: Map<number, number>
    readonly order: Array<number>
    readonly source: EventSource
  }
  const listeners: Array<Listener> = Array.from({ length: listenerCount }, (_, n) => {
    const base = n === 0 ? proxy.url : server.url
    const source = new EventSource(`${base}/v1/stream?after=${start}`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } })
    })
    const listener: Listener = { arrivals: new Map(), order: [], source }
    for (const type of Webhooks.EventTypes) {
      source.addEventListener(type, (event) => {
        const id = Number(event.lastEventId)
        listener.order.push(id)
        listener.arrivals.set(id, Date.now())
      })
    }
    return listener
  })
  // The baseline: this process polling the database as the tail does.
  const polled = new Map<number, number>()
  let polling = true
  const poller = (async () => {
    let after = start
    while (polling) {
      const read = await recorder.after(after, 1_000)
      const now = Date.now()
      for (const event of read) polled.set(event.sequence, now)
      if (read.length > 0) after = read[read.length - 1]!.sequence
      await sleep(250)
    }
  })()
  await sleep(1_500)

  console.error(`burst: ${filings} filings`)
  const recorded: Array<EventStore.StoredEvent> = []
  const burstStart = Date.now()
  for (let filing = 0; filing < filings; filing += 10) {
    const batch = Array.from({ length: Math.min(10, filings - filing) }, (_, n) =>
      (filing + n) % 3 === 0
        ? syntheticFilingEvents(filing + n, { ticker: "BRST", docType: "8-K", items: ["Item 1.01"] })
        : syntheticFilingEvents(filing + n, { ticker: "BRST", docType: "10-Q" })).flat()
    recorded.push(...await recorder.record(batch))
    if (filing === Math.floor(filings / 20) * 10) proxy.cut()
  }
  const burstSeconds = (Date.now() - burstStart) / 1000
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline && listeners.some((listener) => listener.arrivals.size < recorded.length)) {
    await sleep(100)
  }
  await sleep(500)
  polling = false
  await poller
  for (const listener of listeners) listener.source.close()

  const expected = recorded.map((event) => event.sequence)
  const complete = listeners.map((listener) =>
    listener.order.length === expected.length && listener.order.every((id, index) => id === expected[index])
  )
  const latencies = (arrivals: Map<number, number>) =>
    recorded.flatMap((event) => {
      const at = arrivals.get(event.sequence)
      return at === undefined ? [] : [at - event.recordedAtMillis]
    })
  const all = summary(listeners.flatMap((listener) => latencies(listener.arrivals)))
  const reconnecting = summary(latencies(listeners[0]!.arrivals))
  const steady = summary(listeners.slice(1).flatMap((listener) => latencies(listener.arrivals)))
  const baseline = summary(latencies(polled))

  const round = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : "n/a")
  const report = [
    "# Streams benchmark",
    "",
    `Run: ${new Date().toISOString()}; ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${
      (totalmem() / 2 ** 30).toFixed(0)
    } GB, Linux ${release()}, Node ${process.version}; PostgreSQL.`,
    "",
    `Command: \`FILINGS_TEST_DATABASE_URL=... node --import tsx bench/stream.ts --idle ${idleStreams} --idle-seconds ${idleSeconds} --filings ${filings} --listeners ${listenerCount}\``,
    "",
    "## Idle streams (one `filings serve` process)",
    "",
    "| | resident memory | CPU, share of one core |",
    "|---|---:|---:|",
    `| no stream open (baseline) | ${withoutStreams.rssMb.toFixed(0)} MB | ${
      withoutStreams.corePercent.toFixed(2)
    } % |`,
    `| ${idleStreams} streams open | ${withStreams.rssMb.toFixed(0)} MB | ${withStreams.corePercent.toFixed(2)} % |`,
    `| the streams' cost | ${(withStreams.rssMb - withoutStreams.rssMb).toFixed(0)} MB | ${
      (withStreams.corePercent - withoutStreams.corePercent).toFixed(2)
    } % |`,
    "",
    `## A burst of ${filings} filings (${recorded.length} events recorded in ${burstSeconds.toFixed(1)} s)`,
    "",
    "Latency from an event's `recorded_at` to a client having it, in ms.",
    "",
    "| reader | p50 | p99 | max | every event, in order, once |",
    "|---|---:|---:|---:|---|",
    `| ${listenerCount} EventSource clients, all | ${round(all.p50)} | ${round(all.p99)} | ${round(all.max)} | ${
      complete.every(Boolean) ? "yes" : `no (${complete.filter((ok) => !ok).length} incomplete)`
    } |`,
    `| the one whose connection was cut (reconnects after 1 s) | ${round(reconnecting.p50)} | ${
      round(reconnecting.p99)
    } | ${round(reconnecting.max)} | ${complete[0] ? "yes" : "no"} |`,
    `| the others | ${round(steady.p50)} | ${round(steady.p99)} | ${round(steady.max)} | ${
      complete.slice(1).every(Boolean) ? "yes" : "no"
    } |`,
    `| baseline: the database polled every 250 ms by this process | ${round(baseline.p50)} | ${round(baseline.p99)} | ${
      round(baseline.max)
    } | ${polled.size === recorded.length ? "yes" : "no"} |`,
    "",
    `p99 of the clients that kept their connection over the baseline's: ${(steady.p99 / baseline.p99).toFixed(2)}×.`,
    ""
  ].join("\n")
  const output = join(repositoryRoot, argv.output)
  await mkdir(join(output, ".."), { recursive: true })
  await writeFile(output, report)
  console.log(report)
  console.error(`written to ${relative(process.cwd(), output)}`)
} finally {
  await cleanup.run()
}
