/**
 * `filings keys create|list|revoke`: API keys. A new key is printed once and never again; the
 * server keeps only its hash.
 */
import { Args, Command, Options } from "@effect/cli"
import { Admin } from "@filings/domain"
import { Effect, Option, Schema } from "effect"
import { fromParseError } from "./CliFailure.js"
import { Operator } from "./Operator.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const createCommand = Command.make(
  "create",
  {
    name: Options.text("name").pipe(Options.withDescription("who or what the key is for")),
    plan: Options.choice("plan", ["standard", "enterprise"]).pipe(
      Options.withDescription("standard: 100 requests per minute; enterprise: the --rate-limit given"),
      Options.withDefault("standard" as const)
    ),
    rateLimit: Options.integer("rate-limit").pipe(
      Options.withDescription("requests per minute (enterprise keys only)"),
      Options.optional
    ),
    json: jsonOption
  },
  ({ json, name, plan, rateLimit }) =>
    Effect.gen(function*() {
      // The schema the server checks /admin requests with, so both reject the same input alike.
      const request = yield* Schema.decodeUnknown(Admin.CreateApiKeyRequest)({
        name,
        plan,
        ...(Option.isSome(rateLimit) ? { rate_limit: rateLimit.value } : {})
      }).pipe(Effect.mapError(fromParseError))
      const created = yield* (yield* Operator).createKey(request)
      yield* Output.result(json, created, () =>
        [
          `Created API key ${created.id} (${created.name}, ${created.plan}, ${created.rate_limit} requests per minute).`,
          "",
          `  ${created.key}`,
          "",
          "This is the only time the key is shown; store it now."
        ].join("\n"))
    })
).pipe(Command.withDescription("Create an API key and print it once"))

const listCommand = Command.make("list", { json: jsonOption }, ({ json }) =>
  Effect.gen(function*() {
    const keys = yield* (yield* Operator).listKeys
    yield* Output.result(json, { keys }, () =>
      keys.length === 0
        ? "No API keys yet. Create one with: filings keys create --name NAME"
        : Output.table(
          ["ID", "NAME", "PLAN", "LIMIT/MIN", "PREFIX", "CREATED", "REVOKED"],
          keys.map((key) => [
            key.id,
            key.name,
            key.plan,
            String(key.rate_limit),
            `${key.key_prefix}…`,
            key.created_at,
            key.revoked_at ?? "-"
          ])
        ))
  })).pipe(Command.withDescription("List API keys (never the keys themselves)"))

const revokeCommand = Command.make(
  "revoke",
  {
    id: Args.text({ name: "ID" }).pipe(Args.withDescription("the key's id, as `keys list` shows it")),
    json: jsonOption
  },
  ({ id, json }) =>
    Effect.gen(function*() {
      const revoked = yield* (yield* Operator).revokeKey(id)
      yield* Output.result(json, revoked, () => `Revoked API key ${revoked.id} (${revoked.name}).`)
    })
).pipe(Command.withDescription("Revoke an API key; requests with it get 401 from then on"))

export const keysCommand = Command.make("keys").pipe(
  Command.withDescription("Manage API keys"),
  Command.withSubcommands([createCommand, listCommand, revokeCommand])
)
