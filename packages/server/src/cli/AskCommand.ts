/**
 * `filings ask QUESTION`: a question answered as `POST /v1/chat` answers it, through a running
 * server or on the database directly (see `OperatorSelection`). People get the answer with a
 * numbered citation after each sentence and the sources under it; scripts get the answer object
 * with `--json`.
 */
import { Args, Command, Options } from "@effect/cli"
import { Chat } from "@filings/domain"
import { Effect, Option, type ParseResult, Schema } from "effect"
import { CliFailure, issuesByField } from "./CliFailure.js"
import { Operator } from "./Operator.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const listOption = (name: string, pseudoName: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudoName), Options.withDescription(description), Options.optional)

/** `AAPL, msft` as the list a JSON request would carry. */
const listOf = (text: string): ReadonlyArray<string> =>
  text.split(",").map((item) => item.trim()).filter((item) => item !== "")

const pagesOf = (source: Chat.ChatSource): string =>
  source.pageStart === source.pageEnd ? `p. ${source.pageStart}` : `pp. ${source.pageStart}-${source.pageEnd}`

/** The answer with `[n]` after each sentence, `n` the source's place in the list printed under it. */
export const human = (answer: Chat.ChatAnswer): string => {
  const numberOf = new Map(answer.sources.map((source, index) => [`${source.publicationId}/${source.chunkId}`, index]))
  const cited = answer.sentences.map((sentence) => {
    const numbers = [
      ...new Set(sentence.citations.map((citation) => numberOf.get(`${citation.source}/${citation.chunkId}`)))
    ]
      .filter((index) => index !== undefined)
      .map((index) => `[${index + 1}]`)
    return numbers.length === 0 ? sentence.text : `${sentence.text} ${numbers.join("")}`
  })
  const sources = answer.sources.map((source, index) => {
    const where = [source.ticker, source.docType, source.filingDate, pagesOf(source), source.section]
      .filter((part) => part !== null && part !== "")
      .join(" · ")
    return `[${index + 1}] ${where}  ${source.publicationId}/${source.chunkId}`
  })
  return [
    cited.join("\n"),
    ...(sources.length === 0 ? [] : ["", "Sources:", ...sources]),
    "",
    `model: ${answer.model}`,
    ...answer.corrections.map((correction) => `correction: ${correction}`)
  ].join("\n")
}

/** The schema's verdict, naming the question as the argument it is and the lists as their options. */
const refusal = (error: ParseResult.ParseError): CliFailure =>
  new CliFailure({
    message: issuesByField(error).map(({ field, message }) =>
      field === "question"
        ? `QUESTION ${message}`
        : field === undefined
        ? message
        : `--${field.replace(/_/g, "-")} ${message}`
    ).join("; ")
  })

export const askCommand = Command.make(
  "ask",
  {
    question: Args.text({ name: "QUESTION" }).pipe(
      Args.withDescription(
        "A question about the stored filings, at most 2,000 characters. " +
          "Example: filings ask 'What did 3M spend on capital expenditure in 2018?' --tickers MMM"
      )
    ),
    tickers: listOption("tickers", "TICKERS", "Only these companies, comma-separated. Example: --tickers AAPL,MSFT"),
    docTypes: listOption("doc-types", "TYPES", "Only these forms, comma-separated. Example: --doc-types 10-K,10-Q"),
    json: jsonOption
  },
  ({ docTypes, json, question, tickers }) =>
    Effect.gen(function*() {
      // The schema the server checks a request with, so both refuse the same input alike.
      const request = yield* Schema.decodeUnknown(Chat.ChatRequest)({
        question,
        ...Option.match(tickers, { onNone: () => ({}), onSome: (value) => ({ tickers: listOf(value) }) }),
        ...Option.match(docTypes, { onNone: () => ({}), onSome: (value) => ({ doc_types: listOf(value) }) })
      }).pipe(Effect.mapError(refusal))
      const answer = yield* (yield* Operator).ask(request)
      yield* Output.result(json, Schema.encodeSync(Chat.ChatAnswer)(answer), () => human(answer))
    })
).pipe(Command.withDescription("Ask a question of the stored filings; every sentence of the answer cites its passage"))
