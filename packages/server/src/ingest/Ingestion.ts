/**
 * Ingestion of one filing file: parse it into Markdown, work out its metadata (from the file and
 * from what the caller says), and store it as one idempotent write.
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
}

export interface Service {
  readonly ingest: (
    request: IngestRequest
  ) => Effect.Effect<Admin.IngestResult, ApiError.UnreadableFiling | StorageError.StorageError>
}

export class Ingestion extends Context.Tag("@filings/server/Ingestion")<Ingestion, Service>() {}
