/**
 * Effects run as Promises for the libraries' Promise doors (`parseFiling`, `extractFiling`,
 * `summarize`): the promise rejects with the failure itself, the typed error the Effect API fails
 * with or the original exception of a defect, never Effect's `FiberFailure` wrapper, so callers can
 * use `instanceof` and `_tag`.
 *
 * It lives in the parser because every library with a Promise door is built on the parser: they
 * share this one runner (`@filings/filings-parser/EffectPromise`) without a package of its own, and
 * the schemas package holds no runtime.
 *
 * @module
 */
import { Cause, Effect, Exit } from "effect"

/** How `run` may be stopped. */
export interface RunOptions {
  /** Interrupts the effect; the promise then rejects with the signal's reason, as `fetch` does. */
  readonly signal?: AbortSignal | undefined
}

// A function, so that the check after the run is not narrowed away by the one before it.
const isAborted = (signal: AbortSignal): boolean => signal.aborted

/**
 * Runs `effect` to a promise that resolves with its value or rejects with its failure.
 *
 * @example
 * ```ts
 * import * as EffectPromise from "@filings/filings-parser/EffectPromise"
 * import { Effect } from "effect"
 *
 * await EffectPromise.run(Effect.fail(new Error("no"))) // rejects with that very Error
 * ```
 */
export const run = async <A, E>(effect: Effect.Effect<A, E>, options: RunOptions = {}): Promise<A> => {
  const { signal } = options
  // Effect listens for the "abort" event only, which an already-aborted signal never sends again.
  if (signal !== undefined && isAborted(signal)) throw signal.reason
  const exit = await Effect.runPromiseExit(effect, signal === undefined ? undefined : { signal })
  if (Exit.isSuccess(exit)) return exit.value
  if (signal !== undefined && isAborted(signal) && Cause.isInterruptedOnly(exit.cause)) throw signal.reason
  throw Cause.squash(exit.cause)
}
