/**
 * An answer written by a chat-completions model: the passages found are given as numbered sources,
 * with the earlier turns and the question, and the model answers in sentences that name the sources
 * they rest on, or says it cannot tell. Nothing it writes is trusted: the caller checks every
 * sentence against the passages it names.
 */
import type { LanguageModel } from "@effect/ai"
import type { Chat } from "@filings/domain"
import { Feed } from "@filings/domain"
import type { Citations } from "@filings/feed-summarizer"
import { Effect, Schema } from "effect"
import type { Passage } from "./ExtractiveAnswer.js"

/** The most sentences taken from a model's answer. */
export const MaxSentences = 6

/** Characters of each passage given to the model. */
export const MaxPassageChars = 2_500

/** The answer the model is asked for, as structured output. */
export const ModelAnswer = Schema.Struct({
  cannot_tell: Schema.Boolean.annotations({
    description: "true when the sources do not state the answer"
  }),
  sentences: Schema.Array(Schema.Struct({
    text: Schema.String.annotations({ description: "one sentence of the answer" }),
    sources: Schema.Array(Schema.Int).annotations({ description: "the numbers of the sources it rests on" })
  }))
})
export type ModelAnswer = typeof ModelAnswer.Type

export const instructions = [
  "You answer questions about companies' regulatory filings, press releases and earnings calls.",
  "Answer only from the numbered sources given. Write a few short sentences; after each, list the numbers of " +
  "the sources that state it. Quote every figure exactly as the source prints it (keep its digits, commas and " +
  "units; do not round, convert or compute). If the sources do not state the answer, set cannot_tell to true " +
  "and write no sentences: never guess."
].join("\n")

/** The sources, the earlier turns and the question, as one message. */
export const questionMessage = (
  question: string,
  passages: ReadonlyArray<Passage>,
  history: ReadonlyArray<Chat.ChatTurn>
): string => {
  const sources = passages.map((passage, index) =>
    `[${index + 1}] (${passage.context}${passage.section === undefined ? "" : `, ${passage.section}`})\n${
      passage.text.slice(0, MaxPassageChars)
    }`
  )
  const earlier = history.map((turn) => `${turn.role === "user" ? "User" : "Assistant"}: ${turn.content}`)
  return [
    "Sources:",
    sources.join("\n\n"),
    ...(earlier.length === 0 ? [] : ["", "Earlier in this conversation:", earlier.join("\n")]),
    "",
    `Question: ${question}`
  ].join("\n")
}

/**
 * The model's sentences with their citations; a source number that names no passage becomes a
 * citation the check refuses (`[7]`), so it is reported rather than silently dropped.
 */
export const statementsOf = (
  answer: ModelAnswer,
  passages: ReadonlyArray<Passage>
): ReadonlyArray<Citations.CitedStatement> =>
  answer.sentences.slice(0, MaxSentences).map((sentence) => ({
    text: sentence.text,
    citations: [...new Set(sentence.sources)].map((number) => {
      const passage = passages[number - 1]
      return passage === undefined
        ? Feed.Citation.make({ source: `[${number}]`, chunkId: "none" })
        : Feed.Citation.make({ source: passage.source, chunkId: passage.chunkId })
    })
  }))

/** Asks the model; fails with its `AiError` when it cannot answer or answers off the schema. */
export const ask = (
  model: LanguageModel.Service,
  question: string,
  passages: ReadonlyArray<Passage>,
  history: ReadonlyArray<Chat.ChatTurn>
) =>
  Effect.map(
    model.generateObject({
      prompt: [
        { role: "system", content: instructions },
        { role: "user", content: questionMessage(question, passages, history) }
      ],
      schema: ModelAnswer,
      objectName: "answer"
    }),
    (response) => response.value
  )
