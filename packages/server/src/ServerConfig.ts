/**
 * The server's settings, given by the composition root (from `FILINGS_*` variables, see
 * `Environment`). Secrets stay Redacted, so they never reach a log line.
 */
import { Streams } from "@filings/domain"
import type { ChatCompletionsModel } from "@filings/feed-summarizer"
import { Context, Duration, Layer, Option, type Redacted } from "effect"
import { BlockList } from "node:net"
import type { AllowList } from "./webhooks/CallbackAddress.js"

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
  /** Hosts and ranges webhooks may reach although the address check refuses them. */
  readonly webhookAllowList: AllowList
  /** How many `GET /v1/stream` connections one API key may hold open on this server at once. */
  readonly streamsPerKey: number
  /** How long a stream may stay silent before it gets a heartbeat comment. */
  readonly streamHeartbeat: Duration.Duration
  /**
   * How long a stream's connection may go without its client taking a byte before it is closed:
   * a client that stopped reading would otherwise hold it, and its slot, for ever. Longer than the
   * heartbeat, which is all an idle healthy stream writes.
   */
  readonly streamStallTimeout: Duration.Duration
  /** The largest request bodies taken. */
  readonly bodyLimits: BodyLimits
  /** How long a client may take to send a request, and how long an idle connection is kept. */
  readonly connectionTimeouts: ConnectionTimeouts
  /** The chat-completions model that answers `POST /v1/chat`; none, the extractive model does. */
  readonly chatModel: Option.Option<ChatModelSettings>
}

/** The largest request bodies taken, in bytes. */
export interface BodyLimits {
  /** Every route's. */
  readonly maxBodyBytes: number
  /** The operator's upload routes': a filing, the regulator's list of companies. */
  readonly maxUploadBytes: number
}

/** Node's limits on a connection, so that a slow or silent client cannot hold one for ever. */
export interface ConnectionTimeouts {
  /** To send a request's headers. */
  readonly headers: Duration.Duration
  /** To send a whole request, body included; at least `headers`. */
  readonly request: Duration.Duration
  /** To begin the next request on an idle connection. */
  readonly keepAlive: Duration.Duration
}

/** A chat-completions model for answers, and how long an answer waits for it. */
export interface ChatModelSettings extends ChatCompletionsModel.Options {
  readonly timeout: Duration.Duration
}

export class ServerConfig extends Context.Tag("@filings/server/ServerConfig")<ServerConfig, Settings>() {}

/**
 * This machine only, port 8080, no remote operator, the rate-limit store of the database, no host
 * opened, 5 streams per key with a heartbeat every 15 seconds and closed after a minute without a
 * byte taken, bodies up to 256 KiB (uploads 64 MiB), 30 seconds for a request's headers and 2
 * minutes for all of it, idle connections kept 5 seconds, the extractive model for answers.
 */
export const defaults: Settings = {
  host: "127.0.0.1",
  port: 8080,
  adminToken: Option.none(),
  rateLimitStore: Option.none(),
  webhookAllowList: { hosts: new Set(), ranges: new BlockList() },
  streamsPerKey: Streams.DefaultStreamsPerKey,
  streamHeartbeat: Duration.seconds(Streams.DefaultHeartbeatSeconds),
  streamStallTimeout: Duration.seconds(60),
  bodyLimits: { maxBodyBytes: 256 * 1024, maxUploadBytes: 64 * 1024 * 1024 },
  connectionTimeouts: {
    headers: Duration.seconds(30),
    request: Duration.seconds(120),
    keepAlive: Duration.seconds(5)
  },
  chatModel: Option.none()
}

/** The settings given, the defaults for the others. */
export const layer = (settings: Partial<Settings> = {}): Layer.Layer<ServerConfig> =>
  Layer.succeed(ServerConfig, { ...defaults, ...settings })
