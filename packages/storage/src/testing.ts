/**
 * The storage conformance suite: the behaviour every adapter of the storage ports must show. An
 * adapter author runs it with vitest against their own layer:
 *
 *   import { conformance } from "@filings/storage/testing"
 *   conformance("my adapter", MyStorage.layer)
 *
 * The suite shares one layer (one database) across its tests, so each test works on ids, tickers,
 * keys and queue names of its own. Time is read from the Effect Clock, which the suite drives with
 * TestClock; adapters must take "now" from the Clock, not from the database or Date.now().
 */
import { describe, layer } from "@effect/vitest"
import type { Layer } from "effect"
import { accessSuite } from "./internal/accessSuite.js"
import { companySuite } from "./internal/companySuite.js"
import { sampleDocument, uniqueTicker } from "./internal/conformanceSamples.js"
import { coordinationSuite } from "./internal/coordinationSuite.js"
import { documentSuite } from "./internal/documentSuite.js"
import { eventSuite } from "./internal/eventSuite.js"
import { extractionSuite } from "./internal/extractionSuite.js"
import { feedSuite } from "./internal/feedSuite.js"
import { queueSuite } from "./internal/queueSuite.js"
import { searchIndexSuite } from "./internal/searchSuite.js"
import { webhookSuite } from "./internal/webhookSuite.js"
import type { Stores } from "./Stores.js"

export { sampleDocument, sampleFeedItem } from "./internal/conformanceSamples.js"

/** Runs the whole suite against `storage`, under a describe block named after the adapter. */
export const conformance = <E>(
  name: string,
  storage: Layer.Layer<Stores, E>,
  options?: { readonly timeout?: number }
) =>
  describe(`storage conformance: ${name}`, () => {
    layer(storage, { timeout: options?.timeout ?? 60_000 })((it) => {
      documentSuite(it)
      searchIndexSuite(it, { ticker: uniqueTicker, document: sampleDocument })
      extractionSuite(it)
      feedSuite(it)
      companySuite(it)
      accessSuite(it)
      coordinationSuite(it)
      eventSuite(it)
      queueSuite(it)
      webhookSuite(it)
    })
  })
