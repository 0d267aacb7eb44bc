// In-memory FeedStore: a map behind a Ref, for tests and single-process use.
import { Effect, Option, Ref } from "effect"
import * as FeedStore from "../FeedStore.js"

export const makeFeedStore = Effect.gen(function*() {
  const items = yield* Ref.make(new Map<string, FeedStore.StoredFeedItem>())
  const service: FeedStore.Service = {
    save: (item) =>
      Ref.modify(items, (map): [FeedStore.SaveOutcome, Map<string, FeedStore.StoredFeedItem>] => [
        map.has(item.id) ? "updated" : "created",
        new Map(map).set(item.id, structuredClone(item))
      ]),
    findById: (id) => Effect.map(Ref.get(items), (map) => Option.fromNullable(map.get(id))),
    query: (query) =>
      Effect.map(Ref.get(items), (map) =>
        [...map.values()]
          .filter(FeedStore.matchesQuery(query))
          .sort(FeedStore.compareNewestFirst)
          .slice(0, query.limit))
  }
  return service
})
