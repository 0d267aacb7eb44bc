/**
 * Handlers of the documents group: one document in the requested format (or one of its exhibits),
 * one chunk of a document (what a feed citation names), and the filtered, paged document list.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import type { Ids } from "@filings/domain"
import { Api, ApiError, Document, Feed } from "@filings/domain"
import { DocumentStore } from "@filings/storage"
import { Effect, Option, Schema } from "effect"
import { DocumentCache, type Variant } from "../caches/DocumentCache.js"
import { keptEncoding } from "../caches/KeptEncodings.js"
import * as TickerAliases from "../companies/TickerAliases.js"
import { checkDateRange } from "../http/DateRange.js"
import { pageAnswer } from "../http/EncodedJson.js"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import { toDocument, toListItem } from "./DocumentResponses.js"

// The answer is the document's Markdown: its chunks' blocks are not read.
const servedWithoutBlocks = { withoutBlocks: true } as const

const DefaultListLimit = 50

// A list item's JSON is kept beside the stored metadata it was made from (see `KeptEncodings`).
const listItemJson = keptEncoding(Document.DocumentListItem, toListItem)
const listAnswer = pageAnswer(Document.DocumentList, "documents")

export const layer = HttpApiBuilder.group(Api.FilingsApi, "documents", (handlers) =>
  Effect.gen(function*() {
    const store = yield* DocumentStore.DocumentStore
    const aliases = yield* TickerAliases.make()
    // Provided by the server's composition root; without it (some tests) every answer is read afresh.
    const cache = yield* Effect.serviceOption(DocumentCache)

    // The document's answer as the API's JSON encoding would send it, read from storage.
    const encodeDocument = Schema.encode(Document.Document)
    const utf8 = new TextEncoder()
    const readAnswer = (publicationId: Ids.PublicationId, variant: Variant) =>
      Effect.gen(function*() {
        const found = variant === "metadata"
          ? yield* store.findMetadata(publicationId)
          : yield* store.findByPublicationId(publicationId, servedWithoutBlocks)
        if (Option.isNone(found)) return Option.none<Uint8Array>()
        const encoded = yield* Effect.orDie(encodeDocument(toDocument(found.value, variant, false)))
        return Option.some(utf8.encode(JSON.stringify(encoded)))
      })

    /** The kept answer of a document's metadata or Markdown, without exhibits: the hot path. */
    const cachedDocument = (cache: DocumentCache["Type"], publicationId: Ids.PublicationId, variant: Variant) =>
      Effect.gen(function*() {
        const answer = yield* cache.answer(publicationId, variant, readAnswer(publicationId, variant))
        if (Option.isNone(answer)) return yield* ApiError.DocumentNotFound.forId(publicationId)
        return HttpServerResponse.uint8Array(answer.value, { contentType: "application/json" })
      })

    // No span of its own, unlike the other handlers: answered from memory nearly always, its span
    // would cost a tenth of the request (docs/architecture.md, "Observability").
    const getDocument = Effect.fnUntraced(function*(
      publicationId: Ids.PublicationId,
      params: typeof Document.GetDocumentParams.Type
    ) {
      const format = params.format ?? "markdown"
      const includeExhibits = params.include_exhibits ?? false
      if (Option.isSome(cache) && format !== "sections" && !includeExhibits && params.exhibit === undefined) {
        return yield* cachedDocument(cache.value, publicationId, format)
      }
      const needsFullDocument = format !== "metadata" || includeExhibits || params.exhibit !== undefined
      const found = needsFullDocument
        ? yield* store.findByPublicationId(publicationId, servedWithoutBlocks)
        : yield* store.findMetadata(publicationId)
      if (Option.isNone(found)) return yield* ApiError.DocumentNotFound.forId(publicationId)
      const document: DocumentStore.DocumentMetadata & Partial<DocumentStore.StoredDocument> = found.value

      if (params.exhibit !== undefined) {
        const number = params.exhibit
        const exhibits = document.exhibits ?? []
        const exhibit = exhibits.find((candidate) => candidate.exhibitNumber === number)
        if (exhibit === undefined) {
          const known = exhibits.map((candidate) => candidate.exhibitNumber)
          return yield* new ApiError.ExhibitNotFound({
            message: `document ${publicationId} has no exhibit ${number}; ${
              known.length === 0 ? "it has no exhibits" : `it has ${known.join(", ")}`
            }`
          })
        }
        return new Document.ExhibitDocument({ publicationId, ...exhibit })
      }
      return toDocument(document, format, includeExhibits)
    })

    const getDocumentChunk = Effect.fn("documents.getDocumentChunk")(function*(
      publicationId: Ids.PublicationId,
      chunkId: string
    ) {
      const chunk = yield* store.findChunk(publicationId, chunkId)
      if (Option.isSome(chunk)) {
        return new Feed.DocumentChunk({
          publicationId,
          chunkId: chunk.value.id,
          text: chunk.value.text,
          section: chunk.value.section ?? null,
          pageStart: chunk.value.pageStart,
          pageEnd: chunk.value.pageEnd
        })
      }
      // Which of the two is unknown decides the answer: the document, or its chunk.
      if (Option.isNone(yield* store.findMetadata(publicationId))) {
        return yield* ApiError.DocumentNotFound.forId(publicationId)
      }
      return yield* new ApiError.ChunkNotFound({ message: `document ${publicationId} has no chunk ${chunkId}` })
    })

    const listDocuments = Effect.fn("documents.listDocuments")(function*(params: Document.ListDocumentsParams) {
      const { doc_types, end_date, start_date, tickers } = params
      if (tickers === undefined && doc_types === undefined && start_date === undefined && end_date === undefined) {
        return yield* new ApiError.InvalidRequest({
          message: "at least one filter is required: tickers, doc_types, start_date or end_date"
        })
      }
      yield* checkDateRange(start_date, end_date)
      const limit = params.limit ?? DefaultListLimit
      const offset = params.offset ?? 0
      const page = yield* store.list({
        tickers: yield* aliases.widenFilter(tickers),
        docTypes: doc_types,
        startDate: start_date,
        endDate: end_date,
        limit,
        offset,
        order: params.sort === "filing_date_asc" ? "asc" : "desc"
      })
      return listAnswer(
        new Document.DocumentList({ documents: [], total: page.total, limit, offset }, { disableValidation: true }),
        page.documents.map(listItemJson)
      )
    })

    return handlers
      .handle("getDocument", ({ path, urlParams }) => orServiceUnavailable(getDocument(path.publication_id, urlParams)))
      .handle("getDocumentChunk", ({ path }) =>
        orServiceUnavailable(getDocumentChunk(path.publication_id, path.chunk_id)))
      .handle("listDocuments", ({ urlParams }) =>
        orServiceUnavailable(listDocuments(urlParams)))
  }))
