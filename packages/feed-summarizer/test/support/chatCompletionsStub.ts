/**
 * A chat-completions endpoint for tests: a real `node:http` server on 127.0.0.1 that records every
 * request (body and headers) and answers as the test tells it to: a model's content, an error
 * status, a body that is not JSON, after a delay if asked. It notices when a client gives up before
 * the answer, so a test can prove that a time-out really cancels the request.
 */
import { Effect, type Scope } from "effect"
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export type StubAnswer =
  /** 200 with a chat completion whose `choices[0].message.content` is `content`. */
  | { readonly kind: "content"; readonly content: string; readonly delayMs?: number | undefined }
  /** `status` with an OpenAI-style error body. */
  | { readonly kind: "status"; readonly status: number; readonly message: string }
  /** 200 with a body that is not JSON. */
  | { readonly kind: "invalid-json" }

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: unknown
}

export interface ChatCompletionsStub {
  /** What to pass as `baseUrl`: the endpoint is `${baseUrl}/chat/completions`. */
  readonly baseUrl: string
  readonly requests: ReadonlyArray<RecordedRequest>
  /** Requests whose client closed the connection before the answer was sent. */
  readonly abandonedRequests: () => number
  readonly answerWith: (answer: StubAnswer) => void
}

const completionBody = (content: string) =>
  JSON.stringify({
    id: "chatcmpl-stub-1",
    object: "chat.completion",
    created: 1_790_000_000,
    model: "stub-model",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020 }
  })

const sendJson = (response: ServerResponse, status: number, body: string) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(body)
}

/** Starts the stub for the length of the scope; it answers `{}` as content until told otherwise. */
export const startChatCompletionsStub: Effect.Effect<ChatCompletionsStub, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<{ readonly stub: ChatCompletionsStub; readonly close: () => Promise<void> }>((resume) => {
    const requests: Array<RecordedRequest> = []
    const pendingAnswers = new Set<NodeJS.Timeout>()
    let answer: StubAnswer = { kind: "content", content: "{}" }
    let abandoned = 0

    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // Recorded as text; the test's assertions will say what was wrong with it.
        }
        requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body })
        const current = answer
        if (current.kind === "status") {
          return sendJson(response, current.status, JSON.stringify({ error: { message: current.message } }))
        }
        if (current.kind === "invalid-json") {
          return sendJson(response, 200, "{\"choices\": [ this is not json")
        }
        const timer = setTimeout(() => {
          pendingAnswers.delete(timer)
          if (!response.destroyed) sendJson(response, 200, completionBody(current.content))
        }, current.delayMs ?? 0)
        pendingAnswers.add(timer)
      })
      response.on("close", () => {
        if (!response.writableFinished) abandoned++
      })
    })

    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({
        stub: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          requests,
          abandonedRequests: () => abandoned,
          answerWith: (next) => {
            answer = next
          }
        },
        close: () =>
          new Promise<void>((resolve) => {
            for (const timer of pendingAnswers) clearTimeout(timer)
            server.closeAllConnections()
            server.close(() => resolve())
          })
      }))
    })
  }),
  // Pending delayed answers and open sockets go too, so a test never waits on the stub to close.
  ({ close }) => Effect.promise(close)
).pipe(Effect.map(({ stub }) => stub))
