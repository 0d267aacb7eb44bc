/**
 * The company store: the companies the service knows, keyed by central index key, with their
 * current ticker and name: those of the newest filing seen. A company renames itself over the years
 * (APPLE COMPUTER INC became Apple Inc.), so storing an old filing after a newer one must not bring
 * the old name back; each document keeps the name it was filed under on its own.
 *
 * @module
 */
import { Ids } from "@filings/domain"
import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageError } from "./StorageError.js"

/** A company: its key, its current ticker and name. Encoded, its keys are the SQL columns'. */
export const Company = Schema.Struct({
  cik: Ids.Cik,
  ticker: Ids.Ticker,
  name: Schema.String,
  /**
   * The filing date (`YYYY-MM-DD`) the ticker and name are taken from. Absent for a company known
   * from a listing rather than a filing.
   */
  asOf: Schema.optional(Schema.String).pipe(Schema.fromKey("as_of"))
})
export type Company = typeof Company.Type

/**
 * Whether `next` replaces `current`: a dated record gives way only to one of the same date or
 * later, and an undated one (a listing) to anything; an undated one never replaces a dated one.
 */
export const supersedes = (next: Company, current: Company): boolean =>
  current.asOf === undefined || next.asOf !== undefined && next.asOf >= current.asOf

/**
 * What a company store does. Absent companies are none, never an error; every operation fails with
 * `StorageError` only when the backing store does.
 */
export interface Service {
  /**
   * Adds the company, or, when the key is known, replaces its ticker and name if the record given
   * is not older than the stored one (see `supersedes`).
   */
  readonly upsert: (company: Company) => Effect.Effect<void, StorageError>
  /** The company with this central index key, with its current ticker and name. */
  readonly findByCik: (cik: Ids.Cik) => Effect.Effect<Option.Option<Company>, StorageError>
  /** The company whose current ticker this is: after a ticker change, the old one finds nothing. */
  readonly findByTicker: (ticker: Ids.Ticker) => Effect.Effect<Option.Option<Company>, StorageError>
}

/** The company store as an Effect service, provided by `MemoryStorage.companyStore` or an adapter's layer. */
export class CompanyStore extends Context.Tag("@filings/storage/CompanyStore")<CompanyStore, Service>() {}
