/**
 * The set of storage ports a complete adapter provides, as one type for layers and the
 * conformance suite.
 *
 * @module
 */
import type { ApiKeyStore } from "./ApiKeyStore.js"
import type { CompanyStore } from "./CompanyStore.js"
import type { Coordination } from "./Coordination.js"
import type { CursorStore } from "./CursorStore.js"
import type { DeliveryStore } from "./DeliveryStore.js"
import type { DocumentStore } from "./DocumentStore.js"
import type { EventStore } from "./EventStore.js"
import type { ExtractionStore } from "./ExtractionStore.js"
import type { FeedStore } from "./FeedStore.js"
import type { JobQueue } from "./JobQueue.js"
import type { RateLimitStore } from "./RateLimitStore.js"
import type { SearchIndex } from "./SearchIndex.js"
import type { WebhookStore } from "./WebhookStore.js"

/**
 * Every storage port: what `MemoryStorage.layer` provides and what the conformance suite asks of an
 * adapter's layer.
 */
export type Stores =
  | DocumentStore
  | SearchIndex
  | ExtractionStore
  | CompanyStore
  | ApiKeyStore
  | RateLimitStore
  | Coordination
  | JobQueue
  | EventStore
  | CursorStore
  | WebhookStore
  | DeliveryStore
  | FeedStore
