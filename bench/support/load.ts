/**
 * Load runs with autocannon, and what they add up to. autocannon's own latency histogram keeps
 * whole milliseconds, too coarse for a baseline that answers in well under one, so each response
 * time is kept as autocannon measured it (sub-millisecond) and percentiles are taken from those.
 */
import autocannon from "autocannon"

export interface LoadOptions {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly connections: number
  /** Seconds. */
  readonly duration: number
  /** Seconds before a request counts as timed out (and fails the run); 10 when absent. */
  readonly timeout?: number | undefined
  /** Paths (with their query) asked in turn, one per request; `url`'s own path when absent. */
  readonly paths?: ReadonlyArray<string> | undefined
  /** `GET` when absent. */
  readonly method?: "GET" | "POST" | undefined
  /** The request body, sent with every request (a `POST`'s JSON). */
  readonly body?: string | undefined
}

/** One run: every response was a 2xx, or the run failed. */
export interface LoadRun {
  readonly requests: number
  readonly seconds: number
  /** Milliseconds, one per response. */
  readonly latencies: Float64Array
}

/** A growable list of numbers that does not box each one. */
class Samples {
  private values = new Float64Array(1 << 16)
  private length = 0

  add(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.length++] = value
  }

  toArray(): Float64Array {
    return this.values.slice(0, this.length)
  }
}

/** Runs autocannon against `url` for the duration; fails on any error, timeout or non-2xx response. */
export const load = async (options: LoadOptions): Promise<LoadRun> => {
  const latencies = new Samples()
  const paths = options.paths
  let next = 0
  const instance = autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.duration,
    timeout: options.timeout ?? 10,
    ...(options.method === undefined ? {} : { method: options.method }),
    ...(options.body === undefined ? {} : { body: options.body }),
    ...(paths === undefined || paths.length === 0 ? {} : {
      requests: [{
        setupRequest: (request: Record<string, unknown>) => ({ ...request, path: paths[next++ % paths.length] })
      }]
    })
  })
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.add(responseTime)
  })
  const result = await instance
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(
      `${options.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx responses ` +
        `(status codes: ${JSON.stringify(result.statusCodeStats)})`
    )
  }
  if (result.requests.total === 0) throw new Error(`${options.url}: no request completed`)
  return { requests: result.requests.total, seconds: result.duration, latencies: latencies.toArray() }
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: Float64Array, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN

export interface Summary {
  /** Every completed request over every measured second. */
  readonly requestsPerSecond: number
  /** Each run's requests per second, in the order they ran. */
  readonly requestsPerSecondByRun: ReadonlyArray<number>
  readonly p50: number
  readonly p99: number
  readonly responses: number
}

/** Pools several runs of one target: total throughput, and percentiles over every response of every run. */
export const summarize = (runs: ReadonlyArray<LoadRun>): Summary => {
  const pooled = new Float64Array(runs.reduce((total, run) => total + run.latencies.length, 0))
  let offset = 0
  for (const run of runs) {
    pooled.set(run.latencies, offset)
    offset += run.latencies.length
  }
  pooled.sort()
  return {
    requestsPerSecond: runs.reduce((total, run) => total + run.requests, 0) /
      runs.reduce((total, run) => total + run.seconds, 0),
    requestsPerSecondByRun: runs.map((run) => run.requests / run.seconds),
    p50: percentile(pooled, 50),
    p99: percentile(pooled, 99),
    responses: pooled.length
  }
}
