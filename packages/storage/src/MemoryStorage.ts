/**
 * In-memory layers of every storage port: for tests, examples and a throwaway server. Nothing
 * survives the process.
 */
import { Layer } from "effect"
import { ApiKeyStore } from "./ApiKeyStore.js"
import { CompanyStore } from "./CompanyStore.js"
import { DocumentStore } from "./DocumentStore.js"
import { makeApiKeyStore, makeRateLimitStore } from "./internal/memoryAccess.js"
import { makeCompanyStore, makeDocumentStore } from "./internal/memoryDocuments.js"
import { makeJobQueue } from "./internal/memoryQueue.js"
import { JobQueue } from "./JobQueue.js"
import { RateLimitStore } from "./RateLimitStore.js"
import type { Stores } from "./Stores.js"

export const documentStore = Layer.effect(DocumentStore, makeDocumentStore)
export const companyStore = Layer.effect(CompanyStore, makeCompanyStore)
export const apiKeyStore = Layer.effect(ApiKeyStore, makeApiKeyStore)
export const rateLimitStore = Layer.effect(RateLimitStore, makeRateLimitStore)
export const jobQueue = Layer.effect(JobQueue, makeJobQueue)

/** Every port, in memory. */
export const layer: Layer.Layer<Stores> = Layer.mergeAll(
  documentStore,
  companyStore,
  apiKeyStore,
  rateLimitStore,
  jobQueue
)
