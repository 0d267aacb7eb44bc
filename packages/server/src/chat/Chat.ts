/**
 * Answering a question about filings: the passages that best answer it are found (as
 * `GET /v1/search` finds them, within the request's filters, or among the chunks of the documents
 * it names), an answer is written from them, and every sentence of it is checked against the
 * passages it cites (the feed's citation check). The server keeps no conversation: a follow-up is
 * read with the user's previous question from `history`.
 */
import type { HttpClient } from "@effect/platform"
import { ApiError, type Blocks, Chat, Feed, type Ids } from "@filings/domain"
import { ChatCompletionsModel, Citations } from "@filings/feed-summarizer"
import { DocumentStore, SearchText, type StorageError } from "@filings/storage"
import { Array as Arr, Context, Duration, Effect, Layer, Option } from "effect"
import { countModelAnswer } from "../observability/ServerMetrics.js"
import { PassageSearch } from "../search/Search.js"
import * as ServerConfig from "../ServerConfig.js"
import * as ExtractiveAnswer from "./ExtractiveAnswer.js"
import * as ModelAnswer from "./ModelAnswer.js"

/** Passages read for an answer. */
export const PassagesRead = 8

/** Passages more, at most, found for a question asked at a point of a period (`withoutPointOfPeriod`). */
const PassagesAddedForPoint = 6

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

const sentenceOf = (statement: Citations.CitedStatement): Chat.AnswerSentence => ({
  text: statement.text,
  citations: statement.citations.map((citation) => Feed.Citation.make(citation))
})

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
    readonly blocks?: ReadonlyArray<Blocks.Block> | undefined
  },
  rank: number
): Found => ({
  passage: {
    source: document.publicationId,
    chunkId: chunk.id,
    text: chunk.text,
    blocks: chunk.blocks,
    docType: document.docType,
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

const checkWording = {
  statement: (position: number) => `sentence ${position + 1}`,
  passages: "the sources",
  citable: "the sources"
}

/** The answer from the model configured, checked; none when there is no model or it failed, was slow or wrote nothing that holds. */
type ModelOutcome = Option.Option<
  { readonly sentences: ReadonlyArray<Chat.AnswerSentence>; readonly corrections: ReadonlyArray<string> }
>

/** The answerer, with the chat-completions model `chatModel` names, or the extractive model alone. */
export const make = (
  chatModel: Option.Option<ServerConfig.ChatModelSettings>
): Effect.Effect<Service, never, PassageSearch | DocumentStore.DocumentStore | HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const search = yield* PassageSearch
    const documents = yield* DocumentStore.DocumentStore
    const model = yield* Option.match(chatModel, {
      onNone: () => Effect.succeed(Option.none()),
      onSome: (settings) =>
        Effect.map(
          ChatCompletionsModel.languageModel(settings),
          (languageModel) => Option.some({ languageModel, settings, name: `chat-completions:${settings.model}` })
        )
    })

    /** The model's answer, checked; none (logged) when the extractive model is to answer instead. */
    const fromModel = (
      request: Chat.ChatRequest,
      passages: ReadonlyArray<ExtractiveAnswer.Passage>
    ): Effect.Effect<{ readonly outcome: ModelOutcome; readonly notes: ReadonlyArray<string> }> => {
      if (Option.isNone(model) || passages.length === 0) return Effect.succeed({ outcome: Option.none(), notes: [] })
      const { languageModel, name, settings } = model.value
      return ModelAnswer.ask(languageModel, request.question, passages, request.history ?? []).pipe(
        Effect.timeoutFail({
          duration: settings.timeout,
          onTimeout: () => `did not answer within ${Duration.format(settings.timeout)}`
        }),
        Effect.map((answer) => {
          if (answer.cannot_tell && answer.sentences.length === 0) {
            return {
              outcome: Option.some({ sentences: [{ text: CannotTell, citations: [] }], corrections: [] }),
              notes: []
            }
          }
          const checked = Citations.checkStatements(ModelAnswer.statementsOf(answer, passages), passages, checkWording)
          if (checked.statements.length === 0) {
            return {
              outcome: Option.none(),
              notes: [...checked.corrections, `no sentence of ${name} held; the extractive model answered`]
            }
          }
          return {
            outcome: Option.some({ sentences: checked.statements.map(sentenceOf), corrections: checked.corrections }),
            notes: []
          }
        }),
        Effect.catchAll((error) => {
          const reason = typeof error === "string" ? error : error.message
          return Effect.as(
            Effect.logWarning(`the chat model ${name} failed; the extractive model answered`, reason),
            {
              outcome: Option.none(),
              notes: [`${name} ${typeof error === "string" ? error : "failed"}; the extractive model answered`]
            }
          )
        }),
        Effect.tap(({ outcome }) => countModelAnswer("chat", Option.isSome(outcome) ? "model" : "fallback"))
      )
    }

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

    const searchFor = (request: Chat.ChatRequest, q: string, limit: number) =>
      Effect.map(
        search.find({
          q,
          // An empty list filters nothing, as the search's absent one.
          ...optional("tickers", nonEmpty(request.tickers)),
          ...optional("doc_types", nonEmpty(request.doc_types)),
          ...optional("start_date", request.start_date),
          ...optional("end_date", request.end_date),
          limit
        }, { withBlocks: true }),
        ({ page }) => page.hits
      )

    /**
     * The passages the search ranks first for the question; when it asks at a point of a period
     * ("at the end of 2023"), then also the first few the search ranks for it without those words.
     */
    const fromSearch = (request: Chat.ChatRequest, q: string) =>
      Effect.gen(function*() {
        const narrower = ExtractiveAnswer.withoutPointOfPeriod(q)
        const [hits, moreHits] = yield* Effect.all([
          searchFor(request, q, PassagesRead),
          narrower === undefined ? Effect.succeed([]) : searchFor(request, narrower, PassagesAddedForPoint)
        ], { concurrency: "unbounded" })
        const keyOf = (hit: (typeof hits)[number]) => `${hit.document.publicationId}/${hit.chunk.id}`
        const seen = new Set(hits.map(keyOf))
        // A passage the narrower search ranks high is as likely an answer as the whole query's of that rank.
        return [
          ...hits.map((hit, rank) => foundOf(hit.document, hit.chunk, rank)),
          ...moreHits.flatMap((hit, rank) => seen.has(keyOf(hit)) ? [] : [foundOf(hit.document, hit.chunk, rank)])
        ]
      })

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
        const sources = found.map((one) => one.source)
        const byModel = yield* fromModel(request, passages)
        if (Option.isSome(byModel.outcome)) {
          return {
            sources,
            sentences: byModel.outcome.value.sentences,
            model: Option.getOrThrow(model).name,
            corrections: byModel.outcome.value.corrections
          }
        }
        const written = ExtractiveAnswer.answer(request.question, passages, followsUp ? earlier : undefined)
        const checked = Citations.checkStatements(written, passages, checkWording)
        return {
          sources,
          sentences: checked.statements.length === 0
            ? [{ text: CannotTell, citations: [] }]
            : checked.statements.map(sentenceOf),
          model: "extractive",
          corrections: [...byModel.notes, ...checked.corrections]
        }
      }).pipe(Effect.withSpan("Chat.ask"))

    return Answerer.of({ ask })
  })

/** The answerer with the server's chat model, asked through the `HttpClient` the composition root gives. */
export const layer: Layer.Layer<
  Answerer,
  never,
  PassageSearch | DocumentStore.DocumentStore | ServerConfig.ServerConfig | HttpClient.HttpClient
> = Layer.effect(Answerer, Effect.flatMap(ServerConfig.ServerConfig, (config) => make(config.chatModel)))
