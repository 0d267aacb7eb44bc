/**
 * `EffectPromise.run`, the runner behind every Promise door: values, typed failures and defects as
 * themselves (never a FiberFailure), and abort signals as `fetch` treats them.
 */
import { assert, describe, it } from "@effect/vitest"
import * as EffectPromise from "@filings/filings-parser/EffectPromise"
import { Data, Effect } from "effect"

class Refused extends Data.TaggedError("Refused")<{ readonly why: string }> {}

const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(() => assert.fail("expected the promise to reject"), (error: unknown) => error)

describe("EffectPromise.run", () => {
  it("resolves with the effect's value", async () => {
    assert.strictEqual(await EffectPromise.run(Effect.succeed(42)), 42)
  })

  it("rejects with the typed failure itself", async () => {
    const failure = new Refused({ why: "closed" })
    const error = await rejectionOf(EffectPromise.run(Effect.fail(failure)))
    assert.strictEqual(error, failure)
    assert.strictEqual((error as Refused)._tag, "Refused")
  })

  it("rejects with the original exception of a defect", async () => {
    const bug = new RangeError("a bug")
    assert.strictEqual(await rejectionOf(EffectPromise.run(Effect.die(bug))), bug)
    const thrown = new TypeError("thrown in sync code")
    assert.strictEqual(
      await rejectionOf(EffectPromise.run(Effect.sync(() => {
        throw thrown
      }))),
      thrown
    )
  })

  it("rejects with the reason of a signal aborted before the run, without running", async () => {
    const controller = new AbortController()
    const reason = new Error("cancelled")
    controller.abort(reason)
    let ran = false
    const error = await rejectionOf(EffectPromise.run(Effect.sync(() => (ran = true)), { signal: controller.signal }))
    assert.strictEqual(error, reason)
    assert.isFalse(ran)
  })

  it("interrupts the effect and rejects with the signal's reason when aborted during the run", async () => {
    const controller = new AbortController()
    const reason = new Error("cancelled")
    let finalized = false
    const running = EffectPromise.run(
      Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => (finalized = true)))),
      { signal: controller.signal }
    )
    setTimeout(() => controller.abort(reason), 10)
    assert.strictEqual(await rejectionOf(running), reason)
    assert.isTrue(finalized)
  })
})
