/**
 * How many streams each API key holds open on this server, so that one key cannot hold them all:
 * a slot is taken for as long as the stream's scope is open, and refused beyond the limit.
 */
import { ApiError } from "@filings/domain"
import { Context, Effect, Layer, Ref, type Scope } from "effect"

export interface Service {
  /** Takes one of the key's `limit` slots until the scope closes; 429 when all are taken. */
  readonly take: (keyId: string, limit: number) => Effect.Effect<void, ApiError.RateLimitExceeded, Scope.Scope>
}

export class StreamSlots extends Context.Tag("@filings/server/StreamSlots")<StreamSlots, Service>() {}

export const make = Effect.gen(function*() {
  const held = yield* Ref.make(new Map<string, number>())
  const release = (keyId: string) =>
    Ref.update(held, (current) => {
      const next = new Map(current)
      const count = (current.get(keyId) ?? 1) - 1
      if (count <= 0) next.delete(keyId)
      else next.set(keyId, count)
      return next
    })
  const service: Service = {
    take: (keyId, limit) =>
      Effect.acquireRelease(
        Effect.flatMap(
          Ref.modify(held, (current) => {
            const count = current.get(keyId) ?? 0
            return count >= limit ? [false, current] : [true, new Map(current).set(keyId, count + 1)]
          }),
          (taken) =>
            taken ? Effect.void : Effect.fail(
              new ApiError.RateLimitExceeded({
                message: `this API key already holds ${limit} open streams on this server; close one first`
              })
            )
        ),
        () => release(keyId)
      )
  }
  return service
})

export const layer: Layer.Layer<StreamSlots> = Layer.effect(StreamSlots, make)
