/**
 * The transcript drop folder the operator names (`FILINGS_TRANSCRIPT_DIR`): earnings call transcripts put there are
 * stored as `EARNINGS_CALL` documents, with their `earnings_call.new` event. A file is named
 * `<TICKER>_<YYYY-MM-DD>[_anything].<ext>` (the company and the day of the call), for example
 * `AAPL_2025-01-30.json`; the company must be known already (one of its filings ingested or
 * followed). A stored file moves to `processed/`; a file that can never be stored moves to
 * `failed/`, with the reason beside it in `<name>.error.txt`, which says what to do in the folder
 * (rename the file, store a filing of the company first): the folder takes no options, so the
 * reason never asks for one. A file met while the database is unavailable stays for the next look. Storing is idempotent on the transcript's id, so a crash
 * between storing and moving repeats nothing visible.
 */
import { FileSystem } from "@effect/platform"
import { ApiError, Dates, Ids } from "@filings/domain"
import { CompanyStore } from "@filings/storage"
import { Duration, Effect, Layer, Option, Schedule, Schema } from "effect"
import { join } from "node:path"
import { Ingestion } from "../ingest/Ingestion.js"

const lookInterval = Duration.seconds(5)

/** `AAPL_2025-01-30.json` → the ticker and the call's date. */
export const transcriptNameParts = (
  fileName: string
): { readonly ticker: string; readonly callDate: string } | undefined => {
  const match = /^([A-Za-z0-9][A-Za-z0-9.-]{0,11})_(\d{4}-\d{2}-\d{2})(?:_[^/]*)?\.(?:txt|json|pdf|html?)$/i.exec(
    fileName
  )
  return match === null ? undefined : { ticker: match[1]!.toUpperCase(), callDate: match[2]! }
}

/** Why a transcript of a company the service does not know waits in `failed/`, and what to do. */
const unknownCompany = (ticker: Ids.Ticker) =>
  `no company with the ticker ${ticker} is stored, so there is no central index key to file the call under: ` +
  `store one of the company's filings first (a 10-K, 10-Q or 8-K), then put this file back in the folder ` +
  `(or rename it to a ticker the service knows, as <TICKER>_<YYYY-MM-DD>.txt)`

/** One look at the folder: every transcript in it stored and moved, or left with a reason. */
export const lookOnce = (folder: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const ingestion = yield* Ingestion
    const companies = yield* CompanyStore.CompanyStore
    const processed = join(folder, "processed")
    const failed = join(folder, "failed")
    yield* fs.makeDirectory(processed, { recursive: true })
    yield* fs.makeDirectory(failed, { recursive: true })
    // The reason is written beside, then renamed into place: whoever sees `<name>.error.txt` reads it whole.
    const fail = (name: string, reason: string) =>
      fs.rename(join(folder, name), join(failed, name)).pipe(
        Effect.zipRight(fs.writeFileString(join(failed, `.${name}.error.txt.partial`), `${reason}\n`)),
        Effect.zipRight(fs.rename(join(failed, `.${name}.error.txt.partial`), join(failed, `${name}.error.txt`))),
        Effect.zipRight(Effect.logWarning(`transcript ${name} not stored: ${reason}`))
      )
    for (const name of yield* fs.readDirectory(folder)) {
      const path = join(folder, name)
      const info = yield* fs.stat(path)
      if (info.type !== "File" || name.startsWith(".")) continue
      const parts = transcriptNameParts(name)
      if (parts === undefined) {
        yield* fail(
          name,
          "the name must be <TICKER>_<YYYY-MM-DD>[_anything].txt|json|pdf|html, as AAPL_2025-01-30.json"
        )
        continue
      }
      const ticker = Schema.decodeOption(Ids.Ticker)(parts.ticker)
      const callDate = Schema.decodeOption(Dates.IsoDate)(parts.callDate)
      if (Option.isNone(ticker) || Option.isNone(callDate)) {
        yield* fail(name, `${parts.ticker} ${parts.callDate} is not a ticker and a date`)
        continue
      }
      // The name gives the company only by its ticker, so the company must be stored already: said
      // here in the folder's terms, where ingesting would ask for an option the folder cannot take.
      if (Option.isNone(yield* companies.findByTicker(ticker.value))) {
        yield* fail(name, unknownCompany(ticker.value))
        continue
      }
      const bytes = yield* fs.readFile(path)
      const stored = yield* Effect.either(ingestion.ingest({
        fileName: name,
        bytes,
        overrides: { form: "EARNINGS_CALL", ticker: ticker.value, filing_date: callDate.value }
      }))
      if (stored._tag === "Right") {
        yield* fs.rename(path, join(processed, name))
        yield* Effect.logInfo(`transcript ${name} stored as ${stored.right.publication_id}`)
      } else if (stored.left instanceof ApiError.UnreadableFiling) {
        yield* fail(name, stored.left.message)
      } else {
        yield* Effect.logWarning(`transcript ${name} left for the next look: ${stored.left.message}`)
      }
    }
  })

/** Watches the folder until the scope closes. */
export const watch = (folder: string) =>
  Effect.gen(function*() {
    yield* Effect.logInfo(`storing transcripts dropped in ${folder}`)
    yield* lookOnce(folder).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning(`the transcript folder could not be read`, cause)),
      Effect.repeat(Schedule.spaced(lookInterval)),
      Effect.forkScoped
    )
  })

/** Watches `folder` for as long as the layer lives. */
export const layer = (folder: string) => Layer.scopedDiscard(watch(folder))
