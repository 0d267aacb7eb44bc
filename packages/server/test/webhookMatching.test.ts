/**
 * Which subscriptions an event goes to, the delivery id of each pair, and the retry schedule.
 */
import { assert, describe, it } from "@effect/vitest"
import type { EventStore, WebhookStore } from "@filings/storage"
import { Duration, Option, Redacted } from "effect"
import { deliveryIdOf, subjectOf, wants } from "../src/webhooks/Matching.js"
import { delayAfter, MaxAttempts } from "../src/webhooks/RetrySchedule.js"

const subscription = (overrides: Partial<WebhookStore.Subscription> = {}): WebhookStore.Subscription => ({
  id: "wh_1",
  ownerKeyId: "key_1",
  url: "https://hooks.example.com",
  events: ["filing.new", "press_release.new"],
  filters: {},
  secret: Redacted.make("whsec_test"),
  status: "active",
  createdAtMillis: 0,
  lastTriggeredAtMillis: null,
  startSequence: 10,
  ...overrides
})

const event = (type: string, data: Record<string, unknown>, sequence = 11): EventStore.StoredEvent => ({
  sequence,
  id: `evt_${sequence}`,
  type,
  key: `${type}:${sequence}`,
  payload: { event: type, timestamp: "2026-11-22T00:00:00.000Z", data },
  recordedAtMillis: 0
})

describe("matching events to subscriptions", () => {
  it("takes the subscribed types, after the subscription's start", () => {
    const filing = event("filing.new", { ticker: "AAPL", doc_type: "8-K" })
    assert.isTrue(wants(subscription(), filing))
    assert.isFalse(wants(subscription({ events: ["filing.8k_material"] }), filing))
    assert.isFalse(wants(subscription({ startSequence: 11 }), filing))
  })

  it("a ticker filter naming another class of the event's company wants the event", () => {
    const secondClass = subscription({ filters: { tickers: ["GOOG"] } })
    const filing = event("filing.new", { ticker: "GOOGL", doc_type: "10-Q" })
    assert.isTrue(wants(secondClass, filing, ["GOOGL", "GOOG"]))
    assert.isFalse(wants(secondClass, filing))
    assert.isFalse(wants(secondClass, event("filing.new", { ticker: "AAPL", doc_type: "10-Q" }), ["AAPL"]))
  })

  it("applies ticker and document type filters, with the implied types of releases and calls", () => {
    const filtered = subscription({ filters: { tickers: ["AAPL"], docTypes: ["PRESS_RELEASE"] } })
    assert.isTrue(wants(filtered, event("press_release.new", { ticker: "AAPL" })))
    assert.isFalse(wants(filtered, event("press_release.new", { ticker: "MSFT" })))
    assert.isFalse(wants(filtered, event("filing.new", { ticker: "AAPL", doc_type: "8-K" })))
    assert.deepStrictEqual(subjectOf(event("earnings_call.upcoming", { ticker: "AAPL" })), {
      ticker: "AAPL",
      docType: "EARNINGS_CALL"
    })
    assert.isTrue(wants(subscription({ filters: { tickers: [], docTypes: [] } }), event("filing.new", {})))
  })

  it("names each pair's delivery the same every time, and different pairs differently", () => {
    assert.strictEqual(deliveryIdOf("wh_1", "evt_1"), deliveryIdOf("wh_1", "evt_1"))
    assert.match(deliveryIdOf("wh_1", "evt_1"), /^dlv_[0-9a-f]{24}$/)
    assert.notStrictEqual(deliveryIdOf("wh_1", "evt_1"), deliveryIdOf("wh_1", "evt_2"))
    assert.notStrictEqual(deliveryIdOf("wh_1", "evt_12"), deliveryIdOf("wh_11", "evt_2"))
  })
})

describe("the retry schedule", () => {
  it("waits 1 min, 5 min, 30 min, 2 h and 8 h, then gives up after the 6th attempt", () => {
    assert.deepStrictEqual(
      [1, 2, 3, 4, 5].map((failed) => Option.map(delayAfter(failed), Duration.toMillis)),
      [60_000, 300_000, 1_800_000, 7_200_000, 28_800_000].map(Option.some)
    )
    assert.strictEqual(MaxAttempts, 6)
    assert.isTrue(Option.isNone(delayAfter(6)))
    assert.isTrue(Option.isNone(delayAfter(0)))
  })
})
