/**
 * Daily closes remembered for a while, in front of a provider that is asked over the network: the
 * documents of one company and day (an 8-K, its press release and its slides) ask the same
 * question, and a quote provider counts every request against its rate limit. Answers are kept for
 * `timeToLive` (15 minutes by default), short enough that a session closing shows up soon; failures
 * are not kept, so a provider that was down is asked again at the next question.
 */
import { Cache, Duration, Effect, Exit, Fiber, Layer } from "effect"
import { type DailyClose, MarketData, type MarketDataError, type Service } from "./MarketData.js"

export interface CacheOptions {
  readonly timeToLive?: Duration.DurationInput | undefined
  /** Questions remembered at most; the least recently used go first. */
  readonly capacity?: number | undefined
}

export const DefaultTimeToLive = Duration.minutes(15)

/** `provider` with its answers remembered. */
export const cached = (provider: Service, options: CacheOptions = {}): Effect.Effect<Service> =>
  Effect.gen(function*() {
    const timeToLive = Duration.decode(options.timeToLive ?? DefaultTimeToLive)
    const answers = yield* Cache.make({
      capacity: options.capacity ?? 10_000,
      // The lookup answers every asker of the same question, so it runs in a fiber of its own: the
      // first asker giving up (a client that hung up) must not take the answer from the others.
      lookup: (question: string): Effect.Effect<ReadonlyArray<DailyClose>, MarketDataError> => {
        const [ticker = "", fromDate = "", toDate = ""] = question.split("\n")
        // Interruptible within, or the provider's time-out could not end it.
        return Effect.forkDaemon(Effect.interruptible(provider.dailyCloses(ticker, fromDate, toDate))).pipe(
          Effect.flatMap(Fiber.join)
        )
      },
      timeToLive
    })
    return MarketData.of({
      dailyCloses: (ticker, fromDate, toDate) => {
        const question = `${ticker}\n${fromDate}\n${toDate}`
        // Uninterruptible, as the cache hands the first asker's interruption on to every other asker;
        // the wait is the provider's, which its time-out bounds. A failure is forgotten at once;
        // those asking meanwhile share it.
        return Effect.uninterruptible(answers.get(question)).pipe(
          Effect.onExit((exit) => (Exit.isFailure(exit) ? answers.invalidate(question) : Effect.void))
        )
      }
    })
  })

/** The market data of `layer`, remembered. */
export const layer = <E, R>(
  layer: Layer.Layer<MarketData, E, R>,
  options: CacheOptions = {}
): Layer.Layer<MarketData, E, R> =>
  Layer.effect(MarketData, Effect.flatMap(MarketData, (provider) => cached(provider, options))).pipe(
    Layer.provide(layer)
  )
