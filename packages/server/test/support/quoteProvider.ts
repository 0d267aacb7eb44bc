/**
 * A quote provider for tests: a real `node:http` server on 127.0.0.1 that records each request (path
 * and headers) and answers as the test says: a JSON body, a status, text that is not JSON, after a
 * delay if asked. It counts requests whose client gave up before the answer, so a test can show that
 * a time-out really ends the request.
 */
import { Effect, type Scope } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

export type QuoteAnswer =
  | { readonly kind: "json"; readonly body: unknown; readonly delayMs?: number | undefined }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "text"; readonly text: string }

export interface QuoteRequest {
  /** Path and query, as sent. */
  readonly url: string
  readonly headers: IncomingHttpHeaders
}

export interface QuoteProvider {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  readonly requests: ReadonlyArray<QuoteRequest>
  readonly abandonedRequests: () => number
  readonly answerWith: (answer: QuoteAnswer) => void
}

/** Starts the provider for the length of the scope; it answers `[]` until told otherwise. */
export const startQuoteProvider: Effect.Effect<QuoteProvider, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<{ readonly provider: QuoteProvider; readonly close: () => Promise<void> }>((resume) => {
    const requests: Array<QuoteRequest> = []
    const timers = new Set<NodeJS.Timeout>()
    let answer: QuoteAnswer = { kind: "json", body: [] }
    let abandoned = 0

    const server = createServer((request, response) => {
      requests.push({ url: request.url ?? "", headers: request.headers })
      response.on("close", () => {
        if (!response.writableFinished) abandoned++
      })
      const current = answer
      if (current.kind === "status") {
        response.writeHead(current.status, { "content-type": "application/json" })
        response.end(JSON.stringify({ error: "stub failure" }))
        return
      }
      if (current.kind === "text") {
        response.writeHead(200, { "content-type": "text/plain" })
        response.end(current.text)
        return
      }
      const timer = setTimeout(() => {
        timers.delete(timer)
        if (response.destroyed) return
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify(current.body))
      }, current.delayMs ?? 0)
      timers.add(timer)
    })

    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({
        provider: {
          origin: `http://127.0.0.1:${port}`,
          requests,
          abandonedRequests: () => abandoned,
          answerWith: (next) => {
            answer = next
          }
        },
        close: () =>
          new Promise<void>((resolve) => {
            for (const timer of timers) clearTimeout(timer)
            server.closeAllConnections()
            server.close(() => resolve())
          })
      }))
    })
  }),
  ({ close }) => Effect.promise(close)
).pipe(Effect.map(({ provider }) => provider))
