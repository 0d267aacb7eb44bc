/**
 * `/healthz`: answers 200 when the server can reach its storage, 503 when it cannot.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, Ids } from "@filings/domain"
import { DocumentStore } from "@filings/storage"
import { Effect } from "effect"
import { orServiceUnavailable } from "./StorageFailures.js"

// Looking up an id that cannot exist is the cheapest query that still goes to the store.
const probeId = Ids.PublicationId.make("0000000000-00-000000")

export const layer = HttpApiBuilder.group(
  Api.FilingsApi,
  "system",
  (handlers) =>
    Effect.map(DocumentStore.DocumentStore, (store) =>
      handlers.handle("health", () =>
        store.findMetadata(probeId).pipe(
          Effect.as({ status: "ok" as const }),
          orServiceUnavailable
        )))
)
