/**
 * Ingestion of one filing file: parse it into Markdown, work out its metadata (from the file and
 * from what the caller says), store it as one idempotent write with its extraction, then store the
 * press releases it furnishes and record its events (each once).
 */
import type { Admin, ApiError } from "@filings/domain"
import type { StorageError } from "@filings/storage"
import { Context, type Effect } from "effect"

/** Metadata the caller gives; each field wins over what the file says. */
export type Overrides = Admin.IngestMetadata

export interface IngestRequest {
  readonly fileName: string
  readonly bytes: Uint8Array
  readonly contentType?: string | undefined
  readonly overrides: Overrides
  /** When the regulator accepted the filing (ISO 8601), when the caller knows it better than the file. */
  readonly acceptedAt?: string | undefined
}

export interface Service {
  readonly ingest: (
    request: IngestRequest
  ) => Effect.Effect<Admin.IngestResult, ApiError.UnreadableFiling | StorageError.StorageError>
}

export class Ingestion extends Context.Tag("@filings/server/Ingestion")<Ingestion, Service>() {}
