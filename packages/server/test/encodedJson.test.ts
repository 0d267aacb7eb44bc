import { assert, describe, it } from "@effect/vitest"
import { Document, Feed, Ids } from "@filings/domain"
import type { DocumentStore } from "@filings/storage"
import { sampleDocument, sampleFeedItem } from "@filings/storage/testing"
import { Effect, Schema } from "effect"
import { keptEncoding } from "../src/caches/KeptEncodings.js"
import { toListItem } from "../src/documents/DocumentResponses.js"
import { toFeedItem } from "../src/feed/FeedHandlers.js"
import { pageAnswer } from "../src/http/EncodedJson.js"

// A page put together from kept parts is byte for byte what the HttpApi's encoding of the whole page
// sends; a part is encoded once per stored object.

const metadataOf = (index: number): DocumentStore.DocumentMetadata => {
  const { body: _body, chunks: _chunks, exhibits: _exhibits, sections: _sections, ...metadata } = sampleDocument({
    publicationId: Ids.PublicationId.make(`0000123456-24-${String(index).padStart(6, "0")}`),
    title: `Report "${index}" with a \\ and a $& in it`
  })
  return metadata
}

const bodyText = (response: { readonly body: unknown }) =>
  new TextDecoder().decode((response.body as { readonly body: Uint8Array }).body)

describe("EncodedJson", () => {
  it("a list page from kept parts is the bytes of the whole page encoded through its schema", () => {
    const stored = [1, 2, 3].map(metadataOf)
    const listItemJson = keptEncoding(Document.DocumentListItem, toListItem)
    const answer = pageAnswer(Document.DocumentList, "documents")
    const envelope = new Document.DocumentList({ documents: [], total: 3, limit: 50, offset: 0 })
    const response = answer(envelope, stored.map(listItemJson))
    const whole = new Document.DocumentList({ documents: stored.map(toListItem), total: 3, limit: 50, offset: 0 })
    assert.strictEqual(bodyText(response), JSON.stringify(Schema.encodeSync(Document.DocumentList)(whole)))
    assert.strictEqual(
      response.headers["content-type"] ?? (response.body as { contentType: string }).contentType,
      "application/json"
    )
    const empty = answer(new Document.DocumentList({ documents: [], total: 0, limit: 50, offset: 0 }), [])
    assert.strictEqual(bodyText(empty), "{\"documents\":[],\"total\":0,\"limit\":50,\"offset\":0}")
  })

  it("a feed page from kept parts is the bytes of the whole page encoded through its schema", () => {
    const stored = [
      sampleFeedItem({ id: "a", title: "First \"quoted\"" }),
      sampleFeedItem({ id: "b", stockChange: null })
    ]
    const envelope = new Feed.FeedResponse({
      items: [],
      total_items: 2,
      date_range: { start: "2024-01-01", end: "2024-01-02" },
      has_more: true,
      next_cursor: "abc"
    })
    const response = pageAnswer(Feed.FeedResponse, "items")(
      envelope,
      stored.map(keptEncoding(Feed.FeedItem, toFeedItem))
    )
    const whole = new Feed.FeedResponse({ ...envelope, items: stored.map(toFeedItem) })
    assert.strictEqual(bodyText(response), JSON.stringify(Schema.encodeSync(Feed.FeedResponse)(whole)))
  })

  it.effect("encodes a stored object once, and a new object (a changed row) again", () =>
    Effect.sync(() => {
      let encodings = 0
      const json = keptEncoding(Document.DocumentListItem, (stored: DocumentStore.DocumentMetadata) => {
        encodings++
        return toListItem(stored)
      })
      const stored = metadataOf(7)
      assert.strictEqual(json(stored), json(stored))
      const changed = { ...stored, title: "Restated" }
      assert.include(json(changed), "Restated")
      assert.strictEqual(encodings, 2)
    }))
})
