/**
 * Handlers of the search group: `GET /v1/search`, the stored passages holding a query's words, best
 * first, each with its document, pages and a snippet of its best sentences.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api } from "@filings/domain"
import { SearchIndex } from "@filings/storage"
import { Effect } from "effect"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import { searchPassages } from "./Search.js"

export const layer = HttpApiBuilder.group(Api.FilingsApi, "search", (handlers) =>
  Effect.gen(function*() {
    const index = yield* SearchIndex.SearchIndex
    return handlers.handle("search", ({ urlParams }) =>
      searchPassages(urlParams).pipe(Effect.provideService(SearchIndex.SearchIndex, index), orServiceUnavailable))
  }))
