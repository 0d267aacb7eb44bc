/**
 * `/healthz`: answers 200 when the server can reach its storage, 503 when it cannot. `/metrics`:
 * the Prometheus text exposition, open when the operator set no admin token, and only to its
 * holder when one is set.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Api, ApiError, Ids } from "@filings/domain"
import { DocumentStore } from "@filings/storage"
import { Effect, Option, Redacted } from "effect"
import { AdminAccess } from "../admin/AdminAccess.js"
import { PrometheusMetrics } from "../observability/PrometheusMetrics.js"
import { orServiceUnavailable } from "./StorageFailures.js"

// Looking up an id that cannot exist is the cheapest query that still goes to the store.
const probeId = Ids.PublicationId.make("0000000000-00-000000")

const bearer = /^Bearer\s+(\S+)\s*$/i

/** The token of the request's `Authorization: Bearer` header, if it has one. */
const bearerToken = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => Option.map(Option.fromNullable(bearer.exec(request.headers.authorization ?? "")?.[1]), Redacted.make)
)

export const layer = HttpApiBuilder.group(
  Api.FilingsApi,
  "system",
  (handlers) =>
    Effect.gen(function*() {
      const store = yield* DocumentStore.DocumentStore
      const metrics = yield* PrometheusMetrics
      const access = yield* AdminAccess
      return handlers
        .handle("health", () =>
          store.findMetadata(probeId).pipe(
            Effect.as({ status: "ok" as const }),
            orServiceUnavailable
          ))
        .handle("metrics", () =>
          Effect.flatMap(bearerToken, (token) =>
            access.mayScrape(token)
              ? metrics.scrape
              : new ApiError.Unauthorized({
                message: "this server's metrics need its admin token: send Authorization: Bearer <admin token>"
              })))
    })
)
