/**
 * The regulator's request budget shared by every instance on one database: `FairAccess` takes each
 * start from the `Coordination` store's budget as well as from its own count, and a pause for the
 * regulator's "rate threshold exceeded" page stops every instance. A store that cannot answer (the
 * database is away) means waiting, never starting uncounted: a second later the start is asked for
 * again.
 */
import { EdgarConfig, FairAccess } from "@filings/edgar"
import { Coordination } from "@filings/storage"
import { Effect, Layer } from "effect"

/** The budget's name in the store. */
export const BudgetName = "edgar.requests"

/** How long to wait before asking a store that failed to answer. */
const retryAfterFailureMillis = 1_000

/** Shared starts on the `Coordination` store. */
export const make = Effect.map(
  Coordination.Coordination,
  (coordination): FairAccess.SharedStarts => ({
    take: (limit, window) =>
      coordination.takeStart(BudgetName, limit, window).pipe(
        Effect.map((decision) => (decision._tag === "Started" ? 0 : decision.millis)),
        Effect.catchAll((error) =>
          Effect.as(
            Effect.logWarning(`the shared EDGAR request budget could not be read: ${error.message}`),
            retryAfterFailureMillis
          )
        )
      ),
    pause: (duration) =>
      coordination.pauseStarts(BudgetName, duration).pipe(
        Effect.catchAll((error) =>
          Effect.logWarning(`other instances could not be told to pause EDGAR requests: ${error.message}`)
        )
      )
  })
)

/** The process's `FairAccess` gate at `EdgarConfig`'s rate, drawing every start from the shared budget too. */
export const fairAccessLayer: Layer.Layer<
  FairAccess.FairAccess,
  never,
  EdgarConfig.EdgarConfig | Coordination.Coordination
> = Layer.effect(
  FairAccess.FairAccess,
  Effect.gen(function*() {
    const { maxRequestsPerSecond } = yield* EdgarConfig.EdgarConfig
    return yield* FairAccess.make({ maxRequestsPerSecond, shared: yield* make })
  })
)
