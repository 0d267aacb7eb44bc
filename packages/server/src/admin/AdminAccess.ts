/**
 * Who may use the `/admin` routes: the holder of the operator's `FILINGS_ADMIN_TOKEN`, and the
 * local CLI, which reads a token this process makes at start-up from a file only the operator can
 * read. Tokens are compared in constant time.
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { ServerConfig } from "../ServerConfig.js"

export interface Service {
  /** The token this process made for the CLI on the same machine. */
  readonly localToken: Redacted.Redacted<string>
  readonly accepts: (token: Redacted.Redacted<string>) => boolean
  /**
   * Whether a request presenting `token` may read `/metrics`: any request when the operator set no
   * admin token, else only one presenting it (the CLI's local token does not: nothing local scrapes).
   */
  readonly mayScrape: (token: Option.Option<Redacted.Redacted<string>>) => boolean
}

export class AdminAccess extends Context.Tag("@filings/server/AdminAccess")<AdminAccess, Service>() {}

// Digests have one length whatever the tokens' lengths, so timingSafeEqual can always compare them.
const digest = (token: string) => createHash("sha256").update(token, "utf8").digest()

export const make = Effect.gen(function*() {
  const { adminToken } = yield* ServerConfig
  const localToken = Redacted.make(randomBytes(32).toString("base64url"))
  const accepted = [localToken, ...Option.toArray(adminToken)].map((token) => digest(Redacted.value(token)))
  const operators = Option.map(adminToken, (token) => digest(Redacted.value(token)))
  return AdminAccess.of({
    localToken,
    accepts: (token) => {
      const presented = digest(Redacted.value(token))
      // Compare with every accepted token, so the time taken does not tell which one matched.
      return accepted.map((candidate) => timingSafeEqual(candidate, presented)).includes(true)
    },
    mayScrape: (token) =>
      Option.match(operators, {
        onNone: () => true,
        onSome: (expected) =>
          Option.exists(token, (presented) => timingSafeEqual(digest(Redacted.value(presented)), expected))
      })
  })
})

export const layer = Layer.effect(AdminAccess, make)
