/**
 * Every storage port on `@effect/sql`: the same statements on embedded PGlite and on PostgreSQL.
 * Provide a migrated `SqlClient` (see `Database`) and these layers give the ports.
 *
 * @module
 */
import type { SqlClient } from "@effect/sql"
import {
  ApiKeyStore,
  CompanyStore,
  Coordination,
  CursorStore,
  DeliveryStore,
  DocumentStore,
  EventStore,
  ExtractionStore,
  FeedStore,
  JobQueue,
  RateLimitStore,
  SearchIndex,
  WebhookStore
} from "@filings/storage"
import type { Stores } from "@filings/storage/Stores"
import { Layer } from "effect"
import { makeApiKeyStore } from "./internal/sqlAccess.js"
import { makeCoordination } from "./internal/sqlCoordination.js"
import { makeCompanyStore, makeDocumentStore } from "./internal/sqlDocuments.js"
import { makeCursorStore, makeEventStore } from "./internal/sqlEvents.js"
import { makeExtractionStore } from "./internal/sqlExtractions.js"
import { makeFeedStore } from "./internal/sqlFeed.js"
import { makeJobQueue } from "./internal/sqlQueue.js"
import { makeRateLimitStore } from "./internal/sqlRateLimit.js"
import { makeSearchIndex } from "./internal/sqlSearch.js"
import { makeDeliveryStore, makeWebhookStore } from "./internal/sqlWebhooks.js"

/** Parsed documents with their metadata, Markdown body, sections and exhibits, in SQL. */
export const documentStore = Layer.effect(DocumentStore.DocumentStore, makeDocumentStore)
/** Every stored passage found by its words, ranked by BM25; the document store writes it as it saves. */
export const searchIndex = Layer.effect(SearchIndex.SearchIndex, makeSearchIndex)
/** Each document's extraction (metrics, tables, exhibits, signatures), in SQL. */
export const extractionStore = Layer.effect(ExtractionStore.ExtractionStore, makeExtractionStore)
/** The companies known, by central index key, with the ticker and name of their newest filing, in SQL. */
export const companyStore = Layer.effect(CompanyStore.CompanyStore, makeCompanyStore)
/** API keys, stored as hashes only, in SQL. */
export const apiKeyStore = Layer.effect(ApiKeyStore.ApiKeyStore, makeApiKeyStore)
/**
 * Shares each key's limit between every process on the database; each process leases part of a
 * window at a time and counts it out in memory, so a busy key does not cost a statement per request.
 */
export const rateLimitStore = Layer.effect(RateLimitStore.RateLimitStore, makeRateLimitStore)
/** Request budgets and leases shared by every instance on the database. */
export const coordination = Layer.effect(Coordination.Coordination, makeCoordination)
/** The durable job queue: each job held by one worker at a time under a lease that a dead worker loses, in SQL. */
export const jobQueue = Layer.effect(JobQueue.JobQueue, makeJobQueue)
/** Recorders on every process take turns (an advisory lock), so readers see sequences in order. */
export const eventStore = Layer.effect(EventStore.EventStore, makeEventStore)
/** Named cursors that survive a restart (how far a poller has read a source), in SQL. */
export const cursorStore = Layer.effect(CursorStore.CursorStore, makeCursorStore)
/** Subscriptions, each visible to the API key that created it only. */
export const webhookStore = Layer.effect(WebhookStore.WebhookStore, makeWebhookStore)
/** One delivery per (subscription, event), however many dispatchers record it; removed with its subscription. */
export const deliveryStore = Layer.effect(DeliveryStore.DeliveryStore, makeDeliveryStore)
/** Feed items, read by ticker, newest first. */
export const feedStore = Layer.effect(FeedStore.FeedStore, makeFeedStore)

/** Every port. */
export const layer: Layer.Layer<Stores, never, SqlClient.SqlClient> = Layer.mergeAll(
  documentStore,
  searchIndex,
  extractionStore,
  companyStore,
  apiKeyStore,
  rateLimitStore,
  coordination,
  jobQueue,
  eventStore,
  cursorStore,
  webhookStore,
  deliveryStore,
  feedStore
)
