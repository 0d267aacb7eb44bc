/**
 * A delivery job: one attempt of one delivery. The callback address is checked again at every
 * attempt (names move), the body is the event's payload as recorded, signed with the
 * subscription's secret. A 2xx delivers it; a failure schedules the next attempt per the
 * specification; the 6th failure fails the delivery and the subscription. A subscription paused
 * or failed meanwhile gets the delivery recorded as skipped. Attempts to one subscription are
 * bounded in this process: a delivery whose subscription already has its attempts in flight waits
 * a second for one of them to end (a quick receiver's burst goes on at full speed), then is put
 * back on the queue for a few seconds without counting an attempt, so one slow receiver holds at
 * most two workers (and a third for a second at a time) and never starves the other subscriptions.
 */
import { DeliveryStore, EventStore, type JobQueue, WebhookStore } from "@filings/storage"
import { WebhookSignature } from "@filings/webhook-signer"
import { Clock, Duration, Effect, Option, Redacted, Schema } from "effect"
import { JobFailure } from "../jobs/QueueWorkers.js"
import { countWebhookAttempt } from "../observability/ServerMetrics.js"
import { type AllowList, checkCallback } from "./CallbackAddress.js"
import { send, type SenderOptions } from "./DeliverySender.js"
import { DeliveryJob } from "./Dispatcher.js"
import { delayAfter } from "./RetrySchedule.js"

/** Attempts at once to one subscription from this process. */
export const PerSubscriptionConcurrency = 2

/** How long a worker waits for one of a busy subscription's attempts to end before putting the job back. */
export const GateWait = Duration.seconds(1)

/** How long a delivery to a busy subscription waits before it is taken again: 5 s, spread over 5 more. */
const busyDelay = (): Duration.Duration => Duration.millis(5_000 + Math.floor(Math.random() * 5_000))

const transient = (reason: string) => new JobFailure({ reason, permanent: false })

export interface DeliveryOptions {
  /** Hosts and ranges the operator opened (`FILINGS_WEBHOOK_ALLOW_HOSTS`). */
  readonly allow: AllowList
  readonly sender?: SenderOptions | undefined
}

export const makeDeliveryHandler = (options: DeliveryOptions) =>
  Effect.gen(function*() {
    const deliveries = yield* DeliveryStore.DeliveryStore
    const webhooks = yield* WebhookStore.WebhookStore
    const events = yield* EventStore.EventStore
    // One gate per subscription with attempts in flight; dropped when its last attempt ends.
    const gates = new Map<string, { readonly gate: Effect.Semaphore; users: number }>()
    const throughGate = (subscriptionId: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(
        Effect.sync(() => {
          let entry = gates.get(subscriptionId)
          if (entry === undefined) {
            entry = { gate: Effect.unsafeMakeSemaphore(PerSubscriptionConcurrency), users: 0 }
            gates.set(subscriptionId, entry)
          }
          entry.users += 1
          return entry
        }),
        (entry) =>
          // Waits a moment for a permit, in the semaphore's line: a quick receiver frees one in
          // milliseconds, and putting the job back at once would push a burst to one subscription
          // seconds into the future (asking again every few milliseconds instead measured a third of
          // the throughput). Should the time-out and a grant ever land together and the permit be
          // lost, it is lost only until the gate is dropped, when the last attempt using it ends.
          Effect.uninterruptibleMask((restore) =>
            Effect.gen(function*() {
              const permitted = yield* restore(entry.gate.take(1).pipe(Effect.timeoutOption(GateWait)))
              if (Option.isNone(permitted)) return Option.none<A>()
              return yield* restore(effect).pipe(Effect.map(Option.some), Effect.ensuring(entry.gate.release(1)))
            })
          ),
        (entry) =>
          Effect.sync(() => {
            entry.users -= 1
            if (entry.users === 0) gates.delete(subscriptionId)
          })
      )

    const attempt = (job: JobQueue.Job) =>
      Effect.gen(function*() {
        const { deliveryId } = yield* Schema.decodeUnknown(DeliveryJob)(job.payload).pipe(
          Effect.mapError(() => new JobFailure({ reason: "the job's payload is not a delivery", permanent: true }))
        )
        const found = yield* deliveries.find(deliveryId)
        if (Option.isNone(found) || found.value.state !== "pending") return
        const delivery = found.value
        const subscription = yield* webhooks.findById(delivery.subscriptionId)
        if (Option.isNone(subscription)) return
        if (subscription.value.status !== "active") {
          yield* deliveries.markSkipped(delivery.id)
          return
        }
        const [event] = yield* events.after(delivery.eventSequence - 1, 1)
        if (event === undefined || event.id !== delivery.eventId) {
          return yield* new JobFailure({ reason: `event ${delivery.eventId} is missing`, permanent: true })
        }

        const body = new TextEncoder().encode(JSON.stringify(event.payload))
        const attempted = yield* throughGate(subscription.value.id)(
          Effect.gen(function*() {
            const checked = yield* Effect.either(checkCallback(subscription.value.url, { allow: options.allow }))
            if (checked._tag === "Left") return { delivered: false, status: null, error: checked.left.message }
            const signature = yield* Effect.promise(() =>
              WebhookSignature.sign(Redacted.value(subscription.value.secret), body)
            )
            return yield* send(
              checked.right,
              { body, signature, eventType: event.type, deliveryId: delivery.id },
              options.sender
            )
          })
        )
        if (Option.isNone(attempted)) {
          return yield* new JobFailure({
            reason: `webhook ${subscription.value.id} has ${PerSubscriptionConcurrency} attempts in flight`,
            permanent: false,
            retryIn: busyDelay(),
            routine: true
          })
        }
        const outcome = attempted.value

        const now = yield* Clock.currentTimeMillis
        if (outcome.delivered) {
          yield* deliveries.recordAttempt(delivery.id, {
            atMillis: now,
            status: outcome.status,
            error: null,
            state: "delivered",
            nextAttemptAtMillis: null
          })
          yield* countWebhookAttempt("delivered")
          yield* webhooks.markTriggered(subscription.value.id, now)
          return
        }
        const failed = delivery.attempts + 1
        const next = delayAfter(failed)
        yield* deliveries.recordAttempt(delivery.id, {
          atMillis: now,
          status: outcome.status,
          error: outcome.error,
          state: Option.isSome(next) ? "pending" : "failed",
          nextAttemptAtMillis: Option.isSome(next) ? now + Duration.toMillis(next.value) : null
        })
        yield* countWebhookAttempt(Option.isSome(next) ? "retrying" : "failed")
        if (Option.isNone(next)) {
          // The spec's rule: the 6th failed attempt of one delivery fails the subscription.
          yield* webhooks.setStatus(subscription.value.id, "failed")
          yield* Effect.logWarning(`webhook ${subscription.value.id} failed after ${failed} attempts: ${outcome.error}`)
          return
        }
        return yield* new JobFailure({
          reason: `attempt ${failed} of ${delivery.id}: ${outcome.error}`,
          permanent: false,
          retryIn: next.value
        })
      }).pipe(
        Effect.catchTags({ StorageError: (error) => Effect.fail(transient(error.message)) })
      )

    return attempt
  })
