/**
 * The company store: the companies the service knows, keyed by central index key, with the ticker
 * and name that documents are filed under.
 */
import type { Ids } from "@filings/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

export interface Company {
  readonly cik: Ids.Cik
  readonly ticker: Ids.Ticker
  readonly name: string
}

export interface Service {
  /** Adds the company, or updates its ticker and name when the key is known. */
  readonly upsert: (company: Company) => Effect.Effect<void, StorageError>
  readonly findByCik: (cik: Ids.Cik) => Effect.Effect<Option.Option<Company>, StorageError>
  readonly findByTicker: (ticker: Ids.Ticker) => Effect.Effect<Option.Option<Company>, StorageError>
}

export class CompanyStore extends Context.Tag("@filings/storage/CompanyStore")<CompanyStore, Service>() {}
