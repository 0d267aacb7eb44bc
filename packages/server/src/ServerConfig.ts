/**
 * The server's settings, read once from `FILINGS_*` environment variables through Effect Config.
 * Secrets stay Redacted, so they never reach a log line.
 */
import type { Option } from "effect"
import { Config, Context, Effect, Layer, type Redacted } from "effect"
import { type AllowList, allowListConfig } from "./webhooks/CallbackAddress.js"

export interface Settings {
  readonly host: string
  readonly port: number
  /** Opens the `/admin` routes to remote operators; unset, only the local CLI can use them. */
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  /**
   * Where per-key request counts live: `memory` (this process only) or `database` (shared by every
   * instance on one database). Unset: `database` on PostgreSQL, `memory` on embedded PGlite.
   */
  readonly rateLimitStore: Option.Option<"memory" | "database">
  /** Hosts and ranges webhooks may reach although the address check refuses them (`FILINGS_WEBHOOK_ALLOW_HOSTS`). */
  readonly webhookAllowList: AllowList
}

export class ServerConfig extends Context.Tag("@filings/server/ServerConfig")<ServerConfig, Settings>() {}

export const config: Config.Config<Settings> = Config.all({
  host: Config.string("FILINGS_HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.port("FILINGS_PORT").pipe(Config.withDefault(8080)),
  adminToken: Config.option(Config.redacted("FILINGS_ADMIN_TOKEN")),
  rateLimitStore: Config.option(Config.literal("memory", "database")("FILINGS_RATE_LIMIT_STORE")),
  webhookAllowList: allowListConfig
})

export const layer = (overrides: Partial<Settings> = {}) =>
  Layer.effect(ServerConfig, Effect.map(config, (settings) => ({ ...settings, ...overrides })))
