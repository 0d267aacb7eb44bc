/**
 * Handlers of the search group: `GET /v1/search`, the stored passages holding a query's words, best
 * first, each with its document, pages and a snippet of its best sentences.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@filings/domain"
import { Effect } from "effect"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import * as Search from "./Search.js"

export const layer = HttpApiBuilder.group(Api.FilingsApi, "search", (handlers) =>
  Effect.gen(function*() {
    const search = yield* Search.PassageSearch
    return handlers.handle("search", ({ urlParams }) => search.search(urlParams).pipe(orServiceUnavailable))
  }))
