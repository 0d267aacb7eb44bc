/**
 * An `@effect/ai` `LanguageModel` over `POST {baseUrl}/chat/completions`, the protocol OpenAI, vLLM,
 * Ollama, LM Studio and most gateways share (`@effect/ai-openai` speaks the Responses API, which
 * those servers mostly lack). It does what a summary needs and no more: system, user and assistant
 * text, structured output through `response_format: json_schema`, temperature 0, an output token
 * limit. Tools and files are refused; a stream is the whole answer in one piece.
 */
import { AiError, LanguageModel, type Prompt, type Response } from "@effect/ai"
import { HttpClient, type HttpClientError, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Effect, JSONSchema, Redacted, Schema, Stream } from "effect"

export interface ChatCompletionsOptions {
  /** The API root the endpoint hangs off: `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  readonly baseUrl: string
  readonly model: string
  /** Sent as `Authorization: Bearer <key>`; no header when absent (local servers need none). */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** `max_tokens`; the server's default when absent. */
  readonly maxOutputTokens?: number | undefined
}

const module = "ChatCompletionsLanguageModel"

/** The longest excerpt of an error body kept in an `AiError`: enough for the server's message, no more. */
const maxExcerptLength = 200

interface ChatMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string
}

const ChatCompletion = Schema.Struct({
  id: Schema.optional(Schema.String),
  model: Schema.optional(Schema.String),
  choices: Schema.NonEmptyArray(Schema.Struct({
    message: Schema.Struct({
      content: Schema.optional(Schema.NullOr(Schema.String)),
      refusal: Schema.optional(Schema.NullOr(Schema.String))
    }),
    finish_reason: Schema.optional(Schema.NullOr(Schema.String))
  })),
  // Local servers often leave usage out, or some of its counts.
  usage: Schema.optional(Schema.NullOr(Schema.Struct({
    prompt_tokens: Schema.optional(Schema.Number),
    completion_tokens: Schema.optional(Schema.Number),
    total_tokens: Schema.optional(Schema.Number)
  })))
})
type ChatCompletion = typeof ChatCompletion.Type

const finishReasons: Readonly<Record<string, Response.FinishReason>> = {
  stop: "stop",
  length: "length",
  content_filter: "content-filter",
  tool_calls: "tool-calls",
  function_call: "tool-calls"
}

const finishReasonOf = (reason: string | null | undefined): Response.FinishReason =>
  reason === null || reason === undefined ? "unknown" : finishReasons[reason] ?? "other"

const malformedInput = (description: string) =>
  new AiError.MalformedInput({ module, method: "generateText", description })

/** The prompt as chat messages: text only, since nothing here sends images or tool results. */
const chatMessagesOf = (prompt: Prompt.Prompt): Effect.Effect<Array<ChatMessage>, AiError.MalformedInput> =>
  Effect.forEach(prompt.content, (message) => {
    if (message.role === "system") return Effect.succeed<ChatMessage>({ role: "system", content: message.content })
    if (message.role === "tool") return Effect.fail(malformedInput("tool messages are not supported"))
    const texts: Array<string> = []
    for (const part of message.content) {
      if (part.type !== "text") return Effect.fail(malformedInput(`${part.type} parts are not supported`))
      texts.push(part.text)
    }
    return Effect.succeed<ChatMessage>({ role: message.role, content: texts.join("\n\n") })
  })

/** The JSON Schema of the structured answer, as strict mode wants it. */
const jsonSchemaOf = (schema: Schema.Schema.Any): Record<string, unknown> => {
  // The `$schema` draft marker says nothing the endpoint needs, and some strict validators refuse
  // keywords they do not know.
  const { $schema: _draft, ...jsonSchema } = JSONSchema.make(schema)
  return jsonSchema
}

const requestBodyOf = (
  options: ChatCompletionsOptions,
  providerOptions: LanguageModel.ProviderOptions,
  messages: ReadonlyArray<ChatMessage>
): Record<string, unknown> => ({
  model: options.model,
  messages,
  // A summary should be the same each time it is asked for.
  temperature: 0,
  ...(options.maxOutputTokens === undefined ? {} : { max_tokens: options.maxOutputTokens }),
  ...(providerOptions.responseFormat.type === "json"
    ? {
      response_format: {
        type: "json_schema",
        json_schema: {
          name: providerOptions.responseFormat.objectName,
          strict: true,
          schema: jsonSchemaOf(providerOptions.responseFormat.schema)
        }
      }
    }
    : {})
})

/** Collapses whitespace and cuts `text` to `maxLength`, with the key masked should the server echo it. */
export const excerpt = (text: string, apiKey: Redacted.Redacted<string> | undefined, maxLength = maxExcerptLength) => {
  const key = apiKey === undefined ? "" : Redacted.value(apiKey)
  const masked = key === "" ? text : text.split(key).join("<redacted>")
  const collapsed = masked.replace(/\s+/g, " ").trim()
  return collapsed.length <= maxLength ? collapsed : `${collapsed.slice(0, maxLength - 1)}…`
}

/** The server's own explanation in an error body: OpenAI's `{error:{message}}`, Ollama's `{error}`, or the text. */
const errorMessageOf = (body: string): string => {
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
      const error: unknown = parsed.error
      if (typeof error === "string") return error
      if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
        return error.message
      }
    }
  } catch {
    // Not JSON: the text itself is the explanation.
  }
  return body
}

const requestDetailsOf = (request: HttpClientRequest.HttpClientRequest) => ({
  method: request.method,
  url: request.url,
  urlParams: request.urlParams,
  hash: request.hash,
  headers: Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, name === "authorization" ? "<redacted>" : value])
  )
})

const responseError = (
  response: HttpClientResponse.HttpClientResponse,
  reason: "StatusCode" | "Decode" | "EmptyBody",
  description: string
) =>
  new AiError.HttpResponseError({
    module,
    method: "generateText",
    request: requestDetailsOf(response.request),
    response: { status: response.status, headers: {} },
    reason,
    description
  })

/** What went wrong underneath a transport failure: the innermost error of its cause chain. */
const innermostErrorOf = (cause: unknown): string | undefined => {
  // fetch wraps the system error that explains (`connect ECONNREFUSED ...`) in a bare "fetch failed".
  let innermost: Error | undefined
  for (let current = cause, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    innermost = current
  }
  return innermost?.message
}

// Built here rather than with `HttpRequestError.fromRequestError`, which keeps the request's headers,
// bearer token included, in the error.
const requestError = (error: HttpClientError.RequestError) =>
  new AiError.HttpRequestError({
    module,
    method: "generateText",
    reason: error.reason,
    request: requestDetailsOf(error.request),
    description: error.description ?? innermostErrorOf(error.cause),
    cause: error.cause
  })

/** The parts `@effect/ai` expects back from a provider: metadata, the text, and why it stopped. */
const responsePartsOf = (completion: ChatCompletion): Array<Response.PartEncoded> => {
  const choice = completion.choices[0]
  const text = choice.message.content ?? ""
  return [
    { type: "response-metadata", id: completion.id, modelId: completion.model },
    ...(text === "" ? [] : [{ type: "text", text } as const]),
    {
      type: "finish",
      reason: finishReasonOf(choice.finish_reason),
      usage: {
        inputTokens: completion.usage?.prompt_tokens,
        outputTokens: completion.usage?.completion_tokens,
        totalTokens: completion.usage?.total_tokens
      }
    }
  ]
}

/** A language model answering through `POST {baseUrl}/chat/completions`. */
export const make = (
  options: ChatCompletionsOptions
): Effect.Effect<LanguageModel.Service, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const httpClient = yield* HttpClient.HttpClient
    const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`
    const apiKey = options.apiKey
    const withHeaders = (request: HttpClientRequest.HttpClientRequest) => {
      const accepting = HttpClientRequest.acceptJson(request)
      return apiKey === undefined ? accepting : HttpClientRequest.bearerToken(accepting, apiKey)
    }

    const complete = Effect.fn("ChatCompletionsLanguageModel.complete")(function*(
      providerOptions: LanguageModel.ProviderOptions
    ) {
      if (providerOptions.tools.length > 0) return yield* malformedInput("tools are not supported")
      const messages = yield* chatMessagesOf(providerOptions.prompt)
      const request = yield* HttpClientRequest.post(endpoint).pipe(
        withHeaders,
        HttpClientRequest.bodyJson(requestBodyOf(options, providerOptions, messages)),
        Effect.mapError((cause) =>
          new AiError.MalformedInput({ module, method: "generateText", description: "unserialisable request", cause })
        )
      )
      const response = yield* httpClient.execute(request).pipe(
        Effect.catchTag("RequestError", (error) => Effect.fail(requestError(error))),
        // The base client only fails on transport; status and body are checked below.
        Effect.catchTag("ResponseError", (error) =>
          Effect.fail(responseError(error.response, error.reason, error.description ?? "")))
      )
      if (response.status < 200 || response.status >= 300) {
        const body = yield* Effect.orElseSucceed(response.text, () =>
          "")
        return yield* responseError(response, "StatusCode", excerpt(errorMessageOf(body), options.apiKey))
      }
      const json = yield* response.json.pipe(
        Effect.mapError(() => responseError(response, "Decode", "the body is not JSON"))
      )
      const completion = yield* Schema.decodeUnknown(ChatCompletion)(json).pipe(
        Effect.mapError(() => responseError(response, "Decode", "the body is not a chat completion"))
      )
      const choice = completion.choices[0]
      if (typeof choice.message.refusal === "string" && choice.message.refusal !== "") {
        return yield* new AiError.MalformedOutput({ module, method: "generateText", description: "the model refused" })
      }
      if (providerOptions.responseFormat.type === "json" && choice.finish_reason === "length") {
        // Cut-off JSON never decodes; saying why spares the reader of the log a puzzle.
        return yield* new AiError.MalformedOutput({
          module,
          method: "generateText",
          description: "the answer was cut off at the output token limit"
        })
      }
      return completion
    })

    return yield* LanguageModel.make({
      generateText: (providerOptions) => Effect.map(complete(providerOptions), responsePartsOf),
      // Nothing here needs tokens as they come, so a stream carries the whole answer as one delta.
      streamText: (providerOptions) =>
        Stream.fromIterableEffect(Effect.map(complete(providerOptions), (completion) => {
          const id = completion.id ?? "text"
          return responsePartsOf(completion).flatMap((part): Array<Response.StreamPartEncoded> =>
            part.type === "text"
              ? [{ type: "text-start", id }, { type: "text-delta", id, delta: part.text }, { type: "text-end", id }]
              : part.type === "response-metadata" || part.type === "finish"
              ? [part]
              : []
          )
        }))
    })
  })
