/**
 * `filings webhooks listen`: receive webhook deliveries on your own machine while you build
 * against them. It serves HTTPS on loopback with a certificate of its own (LocalWebhookReceiver),
 * prints the two variables that let a server deliver to it (`FILINGS_WEBHOOK_ALLOW_HOSTS=localhost`,
 * and `NODE_EXTRA_CA_CERTS` naming its certificate: trust the operator opts into, for this one
 * certificate), then prints each delivery with its signature checked against
 * `FILINGS_WEBHOOK_SECRET`.
 */
import { Command, Options } from "@effect/cli"
import { Effect, Option, Runtime } from "effect"
import { webhookListenerSecret } from "../Composition.js"
import { fromError } from "./CliFailure.js"
import { ensureCertificate, listen, type ReceivedDelivery } from "./LocalWebhookReceiver.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const deliveryRecord = (delivery: ReceivedDelivery) => ({
  event: "delivery",
  delivery_id: delivery.deliveryId,
  event_type: delivery.eventType,
  signature: delivery.signature,
  status: delivery.status,
  payload: delivery.payload
})

const listenCommand = Command.make(
  "listen",
  {
    port: Options.integer("port").pipe(
      Options.withDescription("the port to listen on, on 127.0.0.1 (0: any free port)"),
      Options.withDefault(8443)
    ),
    certificateDir: Options.text("certificate-dir").pipe(
      Options.withDescription(
        "where the listener keeps its certificate and key (made on first use, reused after, so the server's trust survives a restart)"
      ),
      Options.withDefault(".filings/webhook-listener")
    ),
    json: jsonOption
  },
  ({ certificateDir, json, port }) =>
    Effect.scoped(Effect.gen(function*() {
      const secret = yield* webhookListenerSecret.pipe(Effect.mapError(fromError))
      const certificate = yield* ensureCertificate(certificateDir)
      // Deliveries arrive on node's HTTPS server, outside any fiber: print them through this command's runtime.
      const runFork = Runtime.runFork(yield* Effect.runtime<never>())
      const onDelivery = (delivery: ReceivedDelivery) => void runFork(Output.jsonLine(deliveryRecord(delivery)))
      const listening = yield* listen({ port, certificate, secret, onDelivery })
      const url = `https://localhost:${listening}/`
      const environment = {
        FILINGS_WEBHOOK_ALLOW_HOSTS: "localhost",
        NODE_EXTRA_CA_CERTS: certificate.certificateFile
      }
      const assignments = Object.entries(environment).map(([name, value]) => `${name}=${value}`).join(" ")
      if (json) {
        yield* Output.jsonLine({
          event: "listening",
          url,
          certificate: certificate.certificateFile,
          environment,
          verifies_signatures: Option.isSome(secret)
        })
      } else {
        yield* Output.lines(
          `Listening for webhook deliveries on ${url} (127.0.0.1 only).`,
          "",
          "Start the server that delivers to it with:",
          "",
          `  ${assignments} npx filings serve`,
          "",
          "FILINGS_WEBHOOK_ALLOW_HOSTS=localhost lets it deliver to this machine; NODE_EXTRA_CA_CERTS makes it",
          "trust this listener's certificate (that one certificate, for localhost only).",
          `Subscribe a webhook to ${url}, then ` +
            (Option.isSome(secret)
              ? "each delivery is printed below, its signature checked with FILINGS_WEBHOOK_SECRET."
              : "restart this listener with FILINGS_WEBHOOK_SECRET set to the secret the server answered, " +
                "so that signatures are checked; until then deliveries are printed unchecked."),
          ""
        )
      }
      return yield* Effect.never
    }))
).pipe(
  Command.withDescription(
    "Receive webhook deliveries on this machine over HTTPS, print each with its signature checked"
  )
)

export const webhooksCommand = Command.make("webhooks").pipe(
  Command.withDescription("Tools for webhook receivers"),
  Command.withSubcommands([listenCommand])
)
