/**
 * A webhook receiver on the developer's own machine, behind `filings webhooks listen`: HTTPS on
 * loopback only, with a self-signed certificate for `localhost`, `127.0.0.1` and `::1`, and each
 * delivery's signature verified with `@filings/webhook-signer` before its body is read.
 *
 * The certificate is made with `openssl` the first time (Node cannot make one without a
 * dependency, and `openssl` is on every machine the tests run on) and kept with its key in a folder
 * of its own, so a server told to trust it keeps trusting it when the listener restarts. It is a
 * leaf, not an authority (`CA:FALSE`): a server that trusts it (`NODE_EXTRA_CA_CERTS`, which the
 * delivery agent honours like every TLS client of Node) trusts this one certificate for those names,
 * and nothing its key could sign. TLS verification stays on everywhere.
 */
import { WebhookDelivery, WebhookSignature } from "@filings/webhook-signer"
import { Effect, Option, Redacted, type Scope } from "effect"
import { execFile } from "node:child_process"
import { X509Certificate } from "node:crypto"
import { chmod, mkdir, readFile } from "node:fs/promises"
import type { IncomingMessage } from "node:http"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { join, resolve } from "node:path"
import { CliFailure } from "./CliFailure.js"

/** The certificate and key the receiver serves, and where the certificate is for the server to trust. */
export interface Certificate {
  readonly certificateFile: string
  readonly certificate: string
  readonly key: string
}

/** How long a new certificate is valid; one that expires within a day is replaced at start. */
const validDays = 30
const renewWithinMillis = 24 * 60 * 60 * 1000

const runOpenssl = (args: ReadonlyArray<string>) =>
  Effect.async<void, CliFailure>((resume) => {
    execFile("openssl", [...args], (error, _stdout, stderr) => {
      if (error === null) return resume(Effect.void)
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT"
      resume(Effect.fail(
        new CliFailure({
          message: missing
            ? "making the listener's certificate needs openssl on the PATH (or put certificate.pem and key.pem " +
              "for localhost of your own, such as mkcert's, in the --certificate-dir folder)"
            : `openssl could not make the listener's certificate: ${stderr.trim() || error.message}`
        })
      ))
    })
  })

const readIfPresent = (file: string) =>
  Effect.promise(() => readFile(file, "utf8").then((text) => Option.some(text), () => Option.none<string>()))

const stillValid = (certificate: string): boolean => {
  try {
    return new Date(new X509Certificate(certificate).validTo).getTime() - Date.now() > renewWithinMillis
  } catch {
    return false
  }
}

/**
 * The certificate in `directory` (`certificate.pem`, `key.pem`), made there first when there is
 * none or it is about to expire.
 */
export const ensureCertificate = (directory: string): Effect.Effect<Certificate, CliFailure> =>
  Effect.gen(function*() {
    const folder = resolve(directory)
    const certificateFile = join(folder, "certificate.pem")
    const keyFile = join(folder, "key.pem")
    const existing = yield* Effect.all([readIfPresent(certificateFile), readIfPresent(keyFile)])
    if (Option.isSome(existing[0]) && Option.isSome(existing[1]) && stillValid(existing[0].value)) {
      return { certificateFile, certificate: existing[0].value, key: existing[1].value }
    }
    yield* Effect.tryPromise({
      try: () => mkdir(folder, { recursive: true, mode: 0o700 }),
      catch: (error) => new CliFailure({ message: `cannot create ${folder}: ${String(error)}` })
    })
    yield* runOpenssl([
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      String(validDays),
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
      // A leaf only: trusting it must not let its key vouch for any other name.
      "-addext",
      "basicConstraints=critical,CA:FALSE",
      "-addext",
      "extendedKeyUsage=serverAuth",
      "-keyout",
      keyFile,
      "-out",
      certificateFile
    ])
    yield* Effect.promise(() => chmod(keyFile, 0o600))
    const [certificate, key] = yield* Effect.promise(() =>
      Promise.all([readFile(certificateFile, "utf8"), readFile(keyFile, "utf8")])
    )
    return { certificateFile, certificate, key }
  })

/** What the receiver made of one request. */
export interface ReceivedDelivery {
  readonly deliveryId: string | null
  readonly eventType: string | null
  /** `verified` with the secret given, `invalid` when it does not match, `unchecked` with no secret. */
  readonly signature: "verified" | "invalid" | "unchecked"
  /** The body's JSON, read only once the signature is verified (or when there is no secret to check it). */
  readonly payload: unknown
  /** The status answered: 204, or 401 for a signature that does not match. */
  readonly status: number
}

/** Deliveries are small JSON documents; a larger body is refused unread. */
const maxBodyBytes = 1024 * 1024

const readBody = async (request: IncomingMessage): Promise<Buffer | undefined> => {
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBodyBytes) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

const header = (request: IncomingMessage, name: string): string | null => {
  const value = request.headers[name.toLowerCase()]
  return typeof value === "string" ? value : null
}

const parseJson = (body: Buffer): unknown => {
  try {
    return JSON.parse(body.toString("utf8"))
  } catch {
    return body.toString("utf8")
  }
}

const receive = async (request: IncomingMessage, secret: Option.Option<Redacted.Redacted>) => {
  const deliveryId = header(request, WebhookDelivery.deliveryIdHeader)
  const eventType = header(request, WebhookDelivery.eventHeader)
  const body = await readBody(request)
  if (body === undefined) {
    return { deliveryId, eventType, signature: "invalid", payload: null, status: 413 } as const
  }
  if (Option.isNone(secret)) {
    return { deliveryId, eventType, signature: "unchecked", payload: parseJson(body), status: 204 } as const
  }
  const valid = await WebhookSignature.isValid(
    Redacted.value(secret.value),
    body,
    header(request, WebhookDelivery.signatureHeader)
  )
  return valid
    ? { deliveryId, eventType, signature: "verified", payload: parseJson(body), status: 204 } as const
    : { deliveryId, eventType, signature: "invalid", payload: null, status: 401 } as const
}

export interface ListenOptions {
  readonly port: number
  readonly certificate: Certificate
  readonly secret: Option.Option<Redacted.Redacted>
  /** Called with each delivery once it is answered. */
  readonly onDelivery: (delivery: ReceivedDelivery) => void
}

/**
 * Serves HTTPS on 127.0.0.1 until the scope closes; answers the port it listens on (the one given,
 * or a free one for 0).
 */
export const listen = (options: ListenOptions): Effect.Effect<number, CliFailure, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly close: () => Promise<void> }, CliFailure>((resume) => {
      const server = createServer(
        { cert: options.certificate.certificate, key: options.certificate.key },
        (request, response) => {
          receive(request, options.secret).then(
            (delivery) => {
              response.writeHead(delivery.status).end()
              options.onDelivery(delivery)
            },
            () => response.writeHead(400).end()
          )
        }
      )
      server.once("error", (error) =>
        resume(Effect.fail(new CliFailure({ message: `cannot listen on port ${options.port}: ${error.message}` }))))
      // Loopback only: the listener is for the machine it runs on.
      server.listen(options.port, "127.0.0.1", () => {
        resume(Effect.succeed({
          port: (server.address() as AddressInfo).port,
          close: () =>
            new Promise<void>((done) => {
              server.close(() =>
                done()
              )
              server.closeAllConnections()
            })
        }))
      })
    }),
    (listening) => Effect.promise(listening.close)
  ).pipe(Effect.map((listening) => listening.port))
