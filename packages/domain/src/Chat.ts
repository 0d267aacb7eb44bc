/**
 * Questions about filings: `POST /v1/chat`. The answer is made of sentences, each citing the
 * passages it comes from, and every figure a sentence states is in a passage it cites. When the
 * passages found do not answer the question, the answer says it cannot tell.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate } from "./Dates.js"
import { DocType } from "./DocType.js"
import { Chunk, DocumentMetadata, MaxTickersPerRequest } from "./Document.js"
import { Citation } from "./Feed.js"
import { PublicationId, Ticker } from "./Ids.js"
import { OneOf, withoutNul } from "./QueryParams.js"

/** The longest question read, in characters. */
export const MaxQuestionLength = 2_000

/** The most earlier turns a request may carry; the newest are what a follow-up needs. */
export const MaxHistoryTurns = 20

/** The longest earlier turn, in characters: an earlier answer is a few sentences. */
export const MaxTurnLength = 8_000

/** The most documents a question may be limited to. */
export const MaxPublicationIds = 20

/** Text of a request: not blank, without NUL, at most `max` characters. */
const Words = (max: number) =>
  Schema.String.pipe(
    withoutNul,
    Schema.filter((text) => text.trim() !== "", { message: () => "must not be blank" }),
    Schema.maxLength(max, {
      message: (issue) => `must be at most ${max} characters, got ${String(issue.actual).length}`
    })
  )

/** One earlier turn of the conversation: the user's question or the answer it got. */
export const ChatTurn = Schema.Struct({
  role: OneOf("user", "assistant"),
  content: Words(MaxTurnLength)
}).annotations({ identifier: "ChatTurn" })
export type ChatTurn = typeof ChatTurn.Type

/**
 * The body of `POST /v1/chat`: the `question`, filters on the passages that may answer it
 * (`tickers`, `doc_types`, inclusive filing dates, or named documents), earlier turns in `history`
 * (oldest first; the server keeps no conversation), and `stream` for Server-Sent Events.
 *
 * @example
 * import { Chat } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * Schema.decodeUnknownSync(Chat.ChatRequest)({
 *   question: "What did 3M spend on capital expenditure in 2018?",
 *   tickers: ["MMM"]
 * })
 */
export class ChatRequest extends Schema.Class<ChatRequest>("ChatRequest")({
  question: Words(MaxQuestionLength),
  tickers: Schema.optionalWith(
    Schema.Array(Ticker).pipe(
      Schema.maxItems(MaxTickersPerRequest, { message: () => `must name at most ${MaxTickersPerRequest} tickers` })
    ),
    { exact: true }
  ),
  doc_types: Schema.optionalWith(Schema.Array(DocType), { exact: true }),
  start_date: Schema.optionalWith(IsoDate, { exact: true }),
  end_date: Schema.optionalWith(IsoDate, { exact: true }),
  publication_ids: Schema.optionalWith(
    Schema.Array(PublicationId).pipe(
      Schema.maxItems(MaxPublicationIds, { message: () => `must name at most ${MaxPublicationIds} documents` })
    ),
    { exact: true }
  ),
  history: Schema.optionalWith(
    Schema.Array(ChatTurn).pipe(
      Schema.maxItems(MaxHistoryTurns, {
        message: () => `must hold at most ${MaxHistoryTurns} turns; send the newest`
      })
    ),
    { exact: true }
  ),
  stream: Schema.optionalWith(Schema.Boolean, { exact: true })
}) {}

/** A sentence of an answer, with the passages it rests on (none only for a sentence that states no fact). */
export const AnswerSentence = Schema.Struct({
  text: Schema.String,
  citations: Schema.Array(Citation)
}).annotations({ identifier: "AnswerSentence" })
export type AnswerSentence = typeof AnswerSentence.Type

/** A passage given to the answer, with where it lies: `GET /v1/documents/{publication_id}/chunks/{chunk_id}` returns it. */
export const ChatSource = Schema.Struct({
  publicationId: DocumentMetadata.fields.publicationId,
  chunkId: Chunk.fields.id.pipe(Schema.propertySignature, Schema.fromKey("chunk_id")),
  ticker: DocumentMetadata.fields.ticker,
  docType: DocumentMetadata.fields.docType,
  filingDate: DocumentMetadata.fields.filingDate,
  /** The section the passage starts in; null when its document has none. */
  section: Schema.NullOr(Schema.String),
  ...Chunk.pick("pageStart", "pageEnd").fields
}).annotations({ identifier: "ChatSource" })
export type ChatSource = typeof ChatSource.Type

/**
 * The answer of `POST /v1/chat`: `answer`, the sentences joined; `sentences`, each with its
 * citations; `sources`, the passages that were read; `model`, what wrote it (`extractive` offline,
 * `chat-completions:<model>` otherwise); `corrections`, what the check of a model's answer changed
 * (a citation moved to the passage that states it, a sentence dropped), empty when nothing was.
 */
export class ChatAnswer extends Schema.Class<ChatAnswer>("ChatAnswer")({
  answer: Schema.String,
  sentences: Schema.Array(AnswerSentence),
  sources: Schema.Array(ChatSource),
  model: Schema.String,
  corrections: Schema.Array(Schema.String)
}) {}

/** How a streamed answer (`stream: true`) is written, for the OpenAPI document. */
export const chatEventStreamDescription =
  "Server-Sent Events, in this order: one `sources` event (data: the sources array), one " +
  "`sentence` event per sentence as soon as it has been checked (data: {text, citations}), and one `done` " +
  "event (data: the whole answer, as the JSON answer of a request without stream). A failure after the " +
  "stream began is an `error` event (data: {error: {code, message}})."
