/**
 * Ingestion as the tests ask for it: one request to the `Ingestion` service of the layer under test.
 */
import { Effect } from "effect"
import { Ingestion, type IngestRequest } from "../../src/ingest/Ingestion.js"

/** Ingests one file through the service, as the admin endpoint does. */
export const ingest = (request: IngestRequest) => Effect.flatMap(Ingestion, (ingestion) => ingestion.ingest(request))
