/**
 * @filings/storage: the storage ports of Filings and their in-memory layers. The conformance suite
 * that every adapter passes is exported separately, from `@filings/storage/testing`.
 */
export * as ApiKeyStore from "./ApiKeyStore.js"
export * as CompanyStore from "./CompanyStore.js"
export * as Coordination from "./Coordination.js"
export * as CursorStore from "./CursorStore.js"
export * as DeliveryStore from "./DeliveryStore.js"
export * as DocumentStore from "./DocumentStore.js"
export * as EventStore from "./EventStore.js"
export * as ExtractionStore from "./ExtractionStore.js"
export * as FeedStore from "./FeedStore.js"
export * as FinancialTerms from "./FinancialTerms.js"
export * as JobQueue from "./JobQueue.js"
export * as MemoryStorage from "./MemoryStorage.js"
export * as NamedCompanies from "./NamedCompanies.js"
export * as RateLimitStore from "./RateLimitStore.js"
export * as SearchIndex from "./SearchIndex.js"
export * as SearchText from "./SearchText.js"
export * as StorageError from "./StorageError.js"
export * as Stores from "./Stores.js"
export * as WebhookStore from "./WebhookStore.js"
