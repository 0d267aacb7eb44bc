/**
 * Endpoints that are part of the contract but not built yet: they answer 501 `not_implemented`
 * in the error envelope (after authentication and rate limiting, like every `/v1` route). The
 * README lists them.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, ApiError } from "@filings/domain"
import { Effect } from "effect"

const notYet = (endpoint: string) => () => Effect.fail(ApiError.NotImplemented.forEndpoint(endpoint))

export const layer = HttpApiBuilder.group(
  Api.FilingsApi,
  "feed",
  (handlers) => handlers.handle("feed", notYet("POST /v1/feed"))
)
