/**
 * In-memory layers of every storage port: for tests, examples and a throwaway server. Nothing
 * survives the process.
 *
 * @module
 */
import { Context, Effect, Layer } from "effect"
import { ApiKeyStore } from "./ApiKeyStore.js"
import { CompanyStore } from "./CompanyStore.js"
import { Coordination } from "./Coordination.js"
import { CursorStore } from "./CursorStore.js"
import { DeliveryStore } from "./DeliveryStore.js"
import { DocumentStore } from "./DocumentStore.js"
import { EventStore } from "./EventStore.js"
import { ExtractionStore } from "./ExtractionStore.js"
import { FeedStore } from "./FeedStore.js"
import { makeApiKeyStore, makeRateLimitStore } from "./internal/memoryAccess.js"
import { makeCoordination } from "./internal/memoryCoordination.js"
import { makeCompanyStore, makeDocumentStoreWithIndex } from "./internal/memoryDocuments.js"
import { makeCursorStore, makeEventStore } from "./internal/memoryEvents.js"
import { makeExtractionStore } from "./internal/memoryExtractions.js"
import { makeFeedStore } from "./internal/memoryFeed.js"
import { makeJobQueue } from "./internal/memoryQueue.js"
import { makeDeliveryStore, makeWebhookStore } from "./internal/memoryWebhooks.js"
import { JobQueue } from "./JobQueue.js"
import { RateLimitStore } from "./RateLimitStore.js"
import { SearchIndex } from "./SearchIndex.js"
import type { Stores } from "./Stores.js"
import { WebhookStore } from "./WebhookStore.js"

/** A `DocumentStore` in memory, with the `SearchIndex` of its documents' passages. */
export const documentStore: Layer.Layer<DocumentStore | SearchIndex> = Layer.effectContext(
  Effect.map(
    makeDocumentStoreWithIndex,
    ({ documents, index }) => Context.make(DocumentStore, documents).pipe(Context.add(SearchIndex, index))
  )
)
/** A `CompanyStore` in memory. */
export const companyStore = Layer.effect(CompanyStore, makeCompanyStore)
/** An `ApiKeyStore` in memory. */
export const apiKeyStore = Layer.effect(ApiKeyStore, makeApiKeyStore)
/** A `RateLimitStore` in memory: it counts the requests of one process only. */
export const rateLimitStore = Layer.effect(RateLimitStore, makeRateLimitStore)
/** A `Coordination` in memory: its budgets and leases are shared by the fibers of one process only. */
export const coordination = Layer.effect(Coordination, makeCoordination)
/** A `JobQueue` in memory: its workers must run in the same process. */
export const jobQueue = Layer.effect(JobQueue, makeJobQueue)
/** An `EventStore` in memory. */
export const eventStore = Layer.effect(EventStore, makeEventStore)
/** A `CursorStore` in memory: its cursors last as long as the process, not across a restart. */
export const cursorStore = Layer.effect(CursorStore, makeCursorStore)
/** Reads document metadata from the DocumentStore it is given. */
export const extractionStore = Layer.effect(ExtractionStore, makeExtractionStore)
/** A `WebhookStore` in memory. */
export const webhookStore = Layer.effect(WebhookStore, makeWebhookStore)
/** A `FeedStore` in memory. */
export const feedStore = Layer.effect(FeedStore, makeFeedStore)
/**
 * Keeps the deliveries of the subscriptions in the WebhookStore it is given: one for a subscription
 * that is not there cannot be recorded, and a removed subscription's deliveries go with it.
 */
export const deliveryStore = Layer.effect(DeliveryStore, makeDeliveryStore)

/**
 * Every port, in memory, with the extraction store over the document store and the delivery store
 * over the webhook store, as they are in a database.
 *
 * @example
 * ```ts
 * const program = Effect.gen(function*() {
 *   const queue = yield* JobQueue.JobQueue
 *   yield* queue.enqueue("ingest", { publicationId: "0000320193-24-000123" })
 *   return yield* queue.pendingCount("ingest")
 * })
 * Effect.runPromise(program.pipe(Effect.provide(MemoryStorage.layer))) // 1
 * ```
 */
export const layer: Layer.Layer<Stores> = Layer.mergeAll(
  Layer.provideMerge(extractionStore, documentStore),
  companyStore,
  apiKeyStore,
  rateLimitStore,
  coordination,
  jobQueue,
  eventStore,
  cursorStore,
  Layer.provideMerge(deliveryStore, webhookStore),
  feedStore
)
