/**
 * Closes a response's connection once its client has taken nothing for a while, with Node's socket
 * timeout: every byte the kernel takes from the server, or the server reads from the client,
 * starts it again. A stream to a client that stopped reading writes nothing more once the kernel's
 * buffers are full (the writer waits for them to drain before it reads the next events), so what it
 * holds is bounded; this lets go of the connection, and of what it holds, after the timeout.
 */
import { HttpServerRequest } from "@effect/platform"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Duration, Effect } from "effect"
import { ServerResponse } from "node:http"

/** Closes the current request's connection after `timeout` without progress in either direction. */
export const closeWhenStalled = (
  timeout: Duration.Duration
): Effect.Effect<void, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    // Only a request Node serves has a socket to watch; a web handler's (in tests) has none.
    const response: unknown = NodeHttpServerRequest.toServerResponse(request)
    if (response instanceof ServerResponse) {
      response.setTimeout(Duration.toMillis(timeout), () => response.destroy())
    }
  })
