/**
 * The ways a request to EDGAR can fail, as tagged errors. Each message says what happened and, where
 * the operator can act, what to do; none carries a response body, a header dump or a stack, since
 * these messages end up in logs and API errors.
 *
 * @module
 */
import { Schema } from "effect"

/**
 * What the User-Agent must be, and why. An application that reads it from a setting of its own can
 * say that setting's name around this text.
 */
export const MissingUserAgentMessage =
  "the User-Agent sent to EDGAR must name you and a contact e-mail, e.g. \"Acme Research ops@acme.example\" (the SEC's fair-access policy)"

/**
 * No usable User-Agent is configured: it is unset, blank, or has no e-mail address. The SEC refuses
 * undeclared automated tools, so no request is sent without one.
 */
export class MissingUserAgent extends Schema.TaggedError<MissingUserAgent>()("MissingUserAgent", {
  problem: Schema.Literal("unset", "no contact e-mail")
}) {
  override get message(): string {
    return MissingUserAgentMessage
  }
}

/**
 * EDGAR did not answer usefully, and retrying did not help: server errors (5xx), timeouts, bodies cut
 * short, connection failures. `errorPage` is set when the answer was the regulator's "temporarily
 * unavailable" page, which is also what a `getcurrent` Atom feed request past the last page returns.
 */
export class EdgarUnavailable extends Schema.TaggedError<EdgarUnavailable>()("EdgarUnavailable", {
  url: Schema.String,
  status: Schema.optionalWith(Schema.Number, { exact: true }),
  reason: Schema.String,
  errorPage: Schema.optionalWith(Schema.Literal("unavailable"), { exact: true })
}) {
  override get message(): string {
    const status = this.status === undefined ? "" : ` (HTTP ${this.status})`
    return `EDGAR is unavailable for ${this.url}${status}: ${this.reason}`
  }
}

/**
 * EDGAR refused the request (HTTP 403). Retrying cannot help: with "undeclared automated tool" the
 * regulator does not accept our User-Agent, and the caller has to declare another (`EdgarConfig`'s
 * `userAgent`).
 */
export class EdgarRefused extends Schema.TaggedError<EdgarRefused>()("EdgarRefused", {
  url: Schema.String,
  reason: Schema.Literal("undeclared automated tool", "forbidden")
}) {
  override get message(): string {
    return this.reason === "undeclared automated tool"
      ? `EDGAR refused ${this.url} as coming from an undeclared automated tool; not retried: declare your organisation and a contact e-mail as the User-Agent, e.g. "Acme Research ops@acme.example"`
      : `EDGAR refused ${this.url} (HTTP 403 forbidden); not retried`
  }
}

/** EDGAR has nothing at this address (HTTP 404 or 410). Not retried. */
export class EdgarNotFound extends Schema.TaggedError<EdgarNotFound>()("EdgarNotFound", {
  url: Schema.String
}) {
  override get message(): string {
    return `EDGAR has nothing at ${this.url}`
  }
}

/** The regulator still reported its request-rate threshold as exceeded after every retry and pause. */
export class EdgarRateLimited extends Schema.TaggedError<EdgarRateLimited>()("EdgarRateLimited", {
  url: Schema.String
}) {
  override get message(): string {
    return `EDGAR still reports the request rate threshold as exceeded for ${this.url} after retrying; lower the request rate (maxRequestsPerSecond) or check for other clients sharing this IP address`
  }
}

/** Every way an EDGAR request can fail. */
export type EdgarError = MissingUserAgent | EdgarUnavailable | EdgarRefused | EdgarNotFound | EdgarRateLimited
