/**
 * Answering a question about filings: the passages that best answer it are found (as
 * `GET /v1/search` finds them, within the request's filters, or among the chunks of the documents
 * it names), an answer is written from them, and every sentence of it is checked against the
 * passages it cites (the feed's citation check). The server keeps no conversation: a follow-up is
 * read with the user's previous question from `history`.
 */
import { ApiError, Chat, Feed, type Ids } from "@filings/domain"
import { Citations } from "@filings/feed-summarizer"
import { DocumentStore, SearchText, type StorageError } from "@filings/storage"
import { Array as Arr, Context, Effect, Layer, Option } from "effect"
import { PassageSearch } from "../search/Search.js"
import * as ExtractiveAnswer from "./ExtractiveAnswer.js"

/** Passages read for an answer. */
export const PassagesRead = 8

/** What the answer says when the passages do not answer the question. */
export const CannotTell =
  "I cannot tell from the filings searched: none of the passages found states what the question asks."

/** The sentence of a question that says only what the previous one did not: few words of its own. */
const followUpConcepts = 4

/** The answer with what it was written from, ready to be sent whole or sentence by sentence. */
export interface Answered {
  readonly sources: ReadonlyArray<Chat.ChatSource>
  readonly sentences: ReadonlyArray<Chat.AnswerSentence>
  readonly model: string
  readonly corrections: ReadonlyArray<string>
}

export interface Service {
  readonly ask: (
    request: Chat.ChatRequest
  ) => Effect.Effect<Answered, ApiError.InvalidRequest | ApiError.DocumentNotFound | StorageError.StorageError>
}

export class Answerer extends Context.Tag("@filings/server/chat/Answerer")<Answerer, Service>() {}

/** The answer object of `POST /v1/chat`. */
export const answerOf = (answered: Answered): Chat.ChatAnswer =>
  new Chat.ChatAnswer({
    answer: answered.sentences.map((sentence) => sentence.text).join(" "),
    sentences: answered.sentences,
    sources: answered.sources,
    model: answered.model,
    corrections: answered.corrections
  }, { disableValidation: true })

/** The user's previous question, when the history has one. */
const previousQuestion = (history: ReadonlyArray<Chat.ChatTurn> | undefined): string | undefined =>
  [...(history ?? [])].reverse().find((turn) => turn.role === "user")?.content

const conceptCount = (text: string): number => {
  const parsed = SearchText.parseQuery(text.slice(0, SearchText.maxQueryLength))
  return parsed._tag === "Right" ? parsed.right.concepts.length : 0
}

/** A passage found, as the answer reads it and as the answer lists it. */
interface Found {
  readonly passage: ExtractiveAnswer.Passage
  readonly source: Chat.ChatSource
}

const foundOf = (
  document: {
    readonly publicationId: Ids.PublicationId
    readonly ticker: Ids.Ticker
    readonly companyName: string
    readonly docType: Chat.ChatSource["docType"]
    readonly filingDate: Chat.ChatSource["filingDate"]
  },
  chunk: {
    readonly id: string
    readonly text: string
    readonly section?: string | undefined
    readonly pageStart: number
    readonly pageEnd: number
  },
  rank: number
): Found => ({
  passage: {
    source: document.publicationId,
    chunkId: chunk.id,
    text: chunk.text,
    section: chunk.section,
    context: `${document.ticker} ${document.companyName} ${document.docType}`,
    rank
  },
  source: {
    publicationId: document.publicationId,
    chunkId: chunk.id,
    ticker: document.ticker,
    docType: document.docType,
    filingDate: document.filingDate,
    section: chunk.section ?? null,
    pageStart: chunk.pageStart,
    pageEnd: chunk.pageEnd
  }
})

const optional = <K extends string, A>(key: K, value: A | undefined): { [P in K]?: A } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: A }

const nonEmpty = <A>(items: ReadonlyArray<A> | undefined) =>
  items !== undefined && Arr.isNonEmptyReadonlyArray(items) ? items : undefined

export const make = Effect.gen(function*() {
  const search = yield* PassageSearch
  const documents = yield* DocumentStore.DocumentStore

  /** The chunks of the named documents that hold most of what is asked, best first. */
  const fromDocuments = (publicationIds: ReadonlyArray<Ids.PublicationId>, q: string) =>
    Effect.gen(function*() {
      const wanted = new Set<string>()
      const parsed = SearchText.parseQuery(q.slice(0, SearchText.maxQueryLength))
      if (parsed._tag === "Right") { for (const term of SearchText.queryTerms(parsed.right)) wanted.add(term) }
      const candidates: Array<{ readonly found: Found; readonly held: number }> = []
      for (const publicationId of publicationIds) {
        const stored = yield* documents.findByPublicationId(publicationId)
        if (Option.isNone(stored)) {
          return yield* new ApiError.DocumentNotFound({ message: `no document ${publicationId}` })
        }
        for (const chunk of stored.value.chunks) {
          const terms = new Set(SearchText.tokens(chunk.text).map((token) => token.term))
          let held = 0
          for (const term of wanted) if (terms.has(term)) held++
          if (held > 0) candidates.push({ found: foundOf(stored.value, chunk, 0), held })
        }
      }
      return candidates.sort((a, b) => b.held - a.held).slice(0, PassagesRead).map(({ found }, rank) => ({
        ...found,
        passage: { ...found.passage, rank }
      }))
    })

  const fromSearch = (request: Chat.ChatRequest, q: string) =>
    Effect.map(
      search.find({
        q,
        // An empty list filters nothing, as the search's absent one.
        ...optional("tickers", nonEmpty(request.tickers)),
        ...optional("doc_types", nonEmpty(request.doc_types)),
        ...optional("start_date", request.start_date),
        ...optional("end_date", request.end_date),
        limit: PassagesRead
      }),
      ({ page }) => page.hits.map((hit, rank) => foundOf(hit.document, hit.chunk, rank))
    )

  const ask: Service["ask"] = (request) =>
    Effect.gen(function*() {
      const earlier = previousQuestion(request.history)
      // A follow-up ("and in 2019?") is searched with the question it follows.
      const followsUp = earlier !== undefined && conceptCount(request.question) < followUpConcepts
      const q = ExtractiveAnswer.searchQueryOf(followsUp ? `${request.question} ${earlier}` : request.question)
      const found = request.publication_ids === undefined || request.publication_ids.length === 0
        ? yield* fromSearch(request, q)
        : yield* fromDocuments(request.publication_ids, q)
      const passages = found.map((one) => one.passage)
      const written = ExtractiveAnswer.answer(request.question, passages, followsUp ? earlier : undefined)
      const checked = Citations.checkStatements(written, passages, {
        statement: (position) => `sentence ${position + 1}`,
        passages: "the sources",
        citable: "the sources"
      })
      const sentences: ReadonlyArray<Chat.AnswerSentence> = checked.statements.length === 0
        ? [{ text: CannotTell, citations: [] }]
        : checked.statements.map((statement) => ({
          text: statement.text,
          citations: statement.citations.map((citation) => Feed.Citation.make(citation))
        }))
      return {
        sources: found.map((one) => one.source),
        sentences,
        model: "extractive",
        corrections: checked.corrections
      }
    }).pipe(Effect.withSpan("Chat.ask"))

  return Answerer.of({ ask })
})

export const layer: Layer.Layer<Answerer, never, PassageSearch | DocumentStore.DocumentStore> = Layer.effect(
  Answerer,
  make
)
