/**
 * Handlers of the `/admin` routes: ingest an uploaded filing; create, list and revoke API keys; read
 * the event log; search as `GET /v1/search` does and answer as `POST /v1/chat` does (for `filings search`
 * and `filings ask` through a running server).
 */
import { FileSystem, HttpApiBuilder } from "@effect/platform"
import { Admin, Api, ApiError } from "@filings/domain"
import { EventStore } from "@filings/storage"
import { Effect, Layer, Option, Redacted } from "effect"
import { ApiKeys } from "../ApiKeys.js"
import { Answerer, answerOf } from "../chat/Chat.js"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import { Ingestion } from "../ingest/Ingestion.js"
import * as Search from "../search/Search.js"
import { AdminAccess } from "./AdminAccess.js"

export const authorizationLayer = Layer.effect(
  Api.AdminAuthorization,
  Effect.map(AdminAccess, (access) =>
    Api.AdminAuthorization.of({
      adminToken: (token) =>
        access.accepts(token) && Redacted.value(token).length > 0
          ? Effect.void
          : Effect.fail(new ApiError.Unauthorized({ message: "the admin token is missing or wrong" }))
    }))
)

export const layer = HttpApiBuilder.group(Api.FilingsApi, "admin", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const ingestion = yield* Ingestion
    const events = yield* EventStore.EventStore
    const search = yield* Search.PassageSearch
    const answerer = yield* Answerer
    const fs = yield* FileSystem.FileSystem

    return handlers
      .handle("search", ({ urlParams }) => search.search(urlParams).pipe(orServiceUnavailable))
      .handle("chat", ({ payload }) => answerer.ask(payload).pipe(Effect.map(answerOf), orServiceUnavailable))
      .handle("ingestFile", ({ payload: { file, ...overrides } }) =>
        Effect.gen(function*() {
          const bytes = yield* Effect.orDie(fs.readFile(file.path))
          return yield* ingestion.ingest({ fileName: file.name, bytes, contentType: file.contentType, overrides })
        }).pipe(orServiceUnavailable))
      .handle("createApiKey", ({ payload }) =>
        keys.create({ name: payload.name, plan: payload.plan, rateLimit: payload.rate_limit }).pipe(
          Effect.catchTag("InvalidKeySettings", (error) =>
            new ApiError.InvalidRequest({ message: error.message })),
          orServiceUnavailable
        ))
      .handle("listApiKeys", () =>
        keys.list.pipe(
          Effect.map((all) =>
            new Admin.ApiKeyList({ keys: all })
          ),
          orServiceUnavailable
        ))
      .handle("listEvents", ({ urlParams }) =>
        Effect.gen(function*() {
          const after = urlParams.after ?? 0
          const recorded = yield* events.after(after, urlParams.limit ?? 100)
          return new Admin.EventLog({
            events: recorded.map((event) =>
              new Admin.RecordedEvent({
                sequence: event.sequence,
                id: event.id,
                type: event.type,
                recorded_at: new Date(event.recordedAtMillis).toISOString(),
                payload: event.payload
              })
            ),
            next_after: recorded.at(-1)?.sequence ?? after
          })
        }).pipe(orServiceUnavailable))
      .handle("revokeApiKey", ({ path }) =>
        keys.revoke(path.key_id).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new ApiError.InvalidRequest({ message: `no API key with id ${path.key_id}` })),
            onSome: Effect.succeed
          })),
          orServiceUnavailable
        ))
  }))
