/**
 * The Node HTTP server with the operator's connection timeouts, so that a client that sends its
 * headers or its body a byte at a time, or opens connections and says nothing, cannot hold them
 * for ever: Node answers 408 and closes a connection whose request is not whole in time, and closes
 * an idle one after the keep-alive timeout.
 */
import { Duration } from "effect"
import { createServer, type Server } from "node:http"
import type { ConnectionTimeouts } from "../ServerConfig.js"

/**
 * How often Node looks for requests past their timeout: a tenth of the shorter timeout, so that
 * one is cut at most a tenth late, between 100 ms and Node's own 30 s. The look only walks the
 * connections whose request is still arriving.
 */
const checkingInterval = (timeouts: ConnectionTimeouts): number => {
  const shorter = Math.min(Duration.toMillis(timeouts.headers), Duration.toMillis(timeouts.request))
  return Math.min(30_000, Math.max(100, Math.round(shorter / 10)))
}

/** A Node HTTP server that applies `timeouts`, for `NodeHttpServer.layer`. */
export const nodeServer = (timeouts: ConnectionTimeouts) => (): Server =>
  createServer({
    headersTimeout: Duration.toMillis(timeouts.headers),
    requestTimeout: Duration.toMillis(timeouts.request),
    keepAliveTimeout: Duration.toMillis(timeouts.keepAlive),
    connectionsCheckingInterval: checkingInterval(timeouts)
  })
