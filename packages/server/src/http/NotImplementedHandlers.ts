/**
 * Endpoints that are part of the contract but not built yet: they answer 501 `not_implemented`
 * in the error envelope (after authentication and rate limiting, like every `/v1` route). The
 * README lists them.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, ApiError } from "@filings/domain"
import { Effect, Layer } from "effect"

const notYet = (endpoint: string) => () => Effect.fail(ApiError.NotImplemented.forEndpoint(endpoint))

export const layer = Layer.mergeAll(
  HttpApiBuilder.group(Api.FilingsApi, "feed", (handlers) => handlers.handle("feed", notYet("POST /v1/feed"))),
  HttpApiBuilder.group(Api.FilingsApi, "webhooks", (handlers) =>
    handlers
      .handle("createWebhook", notYet("POST /v1/webhooks"))
      .handle("listWebhooks", notYet("GET /v1/webhooks"))
      .handle("updateWebhook", notYet("PATCH /v1/webhooks/{webhook_id}"))
      .handle("deleteWebhook", notYet("DELETE /v1/webhooks/{webhook_id}"))
      .handle("reactivateWebhook", notYet("POST /v1/webhooks/{webhook_id}/reactivate"))
      .handle("recoverWebhook", notYet("POST /v1/webhooks/{webhook_id}/recover")))
)
