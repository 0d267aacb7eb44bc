/**
 * The part of autocannon 8's programmatic API the benchmarks use; the package ships no types and
 * there is no `@types/autocannon` in the workspace.
 */
declare module "autocannon" {
  function autocannon(options: autocannon.Options): autocannon.Instance

  namespace autocannon {
    interface Options {
      readonly url: string
      readonly connections?: number | undefined
      /** Seconds. */
      readonly duration?: number | undefined
      readonly pipelining?: number | undefined
      /** Seconds before a request counts as timed out. */
      readonly timeout?: number | undefined
      readonly headers?: Readonly<Record<string, string>> | undefined
      readonly method?: string | undefined
      readonly body?: string | undefined
      /** The requests each connection sends in turn; `setupRequest` may rewrite one (its path, body) as it goes. */
      readonly requests?:
        | ReadonlyArray<{
          readonly method?: string | undefined
          readonly path?: string | undefined
          readonly headers?: Readonly<Record<string, string>> | undefined
          readonly setupRequest?: ((request: Record<string, unknown>) => Record<string, unknown>) | undefined
        }>
        | undefined
    }

    /** Both an event emitter and a promise of the result. */
    interface Instance extends PromiseLike<Result> {
      /** One completed response; `responseTime` is in milliseconds, with sub-millisecond precision. */
      on(
        event: "response",
        listener: (client: unknown, statusCode: number, responseBytes: number, responseTime: number) => void
      ): this
    }

    interface Histogram {
      readonly average: number
      readonly mean: number
      readonly stddev: number
      readonly min: number
      readonly max: number
      readonly total: number
      readonly p50: number
      readonly p90: number
      readonly p99: number
    }

    interface Result {
      readonly url: string
      readonly connections: number
      /** Seconds the run actually lasted. */
      readonly duration: number
      readonly errors: number
      readonly timeouts: number
      readonly mismatches: number
      readonly resets: number
      readonly non2xx: number
      readonly "2xx": number
      readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>
      /** Milliseconds, recorded as whole milliseconds. */
      readonly latency: Histogram
      /** Requests per second sample; `total` is every completed request. */
      readonly requests: Histogram & { readonly sent: number }
      /** Bytes per second sample; `total` is every byte received. */
      readonly throughput: Histogram
    }
  }

  export = autocannon
}
