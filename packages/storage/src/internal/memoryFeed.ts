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
    findByIds: (ids) =>
      Effect.map(Ref.get(items), (map) =>
        [...new Set(ids)].flatMap((id) => {
          const item = map.get(id)
          return item === undefined ? [] : [structuredClone(item)]
        })),
    withoutStockChange: ({ limit, publishedFromMillis }) =>
      Effect.map(Ref.get(items), (map) =>
        [...map.values()]
          .filter((item) => item.stockChange === null && item.publishedAtMillis >= publishedFromMillis)
          .sort(FeedStore.compareNewestFirst)
          .slice(0, limit)
          .map(({ id, publishedAtMillis, ticker }) => ({ id, ticker, publishedAtMillis }))),
    setStockChange: (id, stockChange) =>
      Ref.modify(items, (map): [boolean, Map<string, FeedStore.StoredFeedItem>] => {
        const item = map.get(id)
        if (item === undefined) return [false, map]
        return [true, new Map(map).set(id, { ...item, stockChange: { ...stockChange } })]
      }),
    query: (query) =>
      Effect.map(Ref.get(items), (map) =>
        [...map.values()]
          .filter(FeedStore.matchesQuery(query))
          .sort(FeedStore.compareNewestFirst)
          .slice(0, query.limit))
  }
  return service
})
