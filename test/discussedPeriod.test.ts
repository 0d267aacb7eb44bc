/**
 * The period of an earnings call over the HTTP API: a transcript stored with `filings ingest` is
 * served with the fiscal period it discusses, and one stored before with the calendar quarter of its
 * date (written into the data directory as an older version left it) is corrected when the server
 * starts.
 */
import { assert, describe, it } from "@effect/vitest"
import { Dates, Document, Ids } from "@filings/domain"
import { DocumentStore } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import { Effect, Layer } from "effect"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { cli, createKey, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { eventually } from "./support/waiting.js"

const transcript = (company: string, period: string) =>
  [
    `Operator: Good afternoon, and welcome to ${company}'s conference call for the ${period}.`,
    "",
    "Pat Example, Chief Financial Officer: Thank you. Revenue was a record $30 billion, up 122% compared with " +
    "the second quarter of fiscal 2024. Our outlook for the third quarter of fiscal 2025 calls for growth.",
    "",
    "Operator: We will now take questions.",
    "",
    "Sam Analyst, Big Bank: How should we think about fiscal 2026 guidance?",
    "",
    "Pat Example, Chief Financial Officer: We will give it in February."
  ].join("\n")

/** Writes a call as the calendar rule stored it, into the data directory of a server not running. */
const storeTheOldWay = (dataDir: string) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const documents = yield* DocumentStore.DocumentStore
      const body = transcript("Widget", "second quarter of fiscal 2025")
      yield* documents.save({
        publicationId: Ids.PublicationId.make("call-wdgt-2024-08-28"),
        ticker: Ids.Ticker.make("WDGT"),
        companyName: "WIDGET CORP",
        cik: Ids.Cik.make("0000000000"),
        docType: "EARNINGS_CALL",
        title: "WIDGET CORP Q3 2024 earnings call",
        filingDate: Dates.IsoDate.make("2024-08-28"),
        period: "Q3 2024",
        secUrl: "",
        items: [],
        exhibits: [],
        body,
        wordCount: body.split(/\s+/).length,
        sections: [],
        chunks: []
      })
    }).pipe(
      Effect.provide(SqlStorage.layer.pipe(
        Layer.provide(Database.layerPglite({ dataDir: Database.pgliteDataDir(dataDir) }))
      )),
      Effect.scoped
    )
  )

describe("the period of an earnings call over the API", () => {
  it("is the fiscal period the call discusses, and one stored the old way is corrected at start", async () => {
    const storage = await temporaryDataDir()
    try {
      await storeTheOldWay(storage.dataDir)
      const file = join(storage.dataDir, "acme-call.txt")
      await writeFile(file, transcript("Acme Anvil", "second quarter of fiscal 2025"))
      const ingested = await cli(storage, [
        "ingest",
        file,
        "--type",
        "EARNINGS_CALL",
        "--ticker",
        "ACMA",
        "--company-name",
        "Acme Anvil Corp",
        "--filing-date",
        "2024-08-28"
      ])
      assert.strictEqual(ingested.exitCode, 0, ingested.stderr)

      const server = await startServer(storage)
      try {
        const key = await createKey(storage)
        const document = async (id: string) =>
          jsonOf(
            Document.Document,
            await fetch(`${server.url}/v1/documents/${id}`, { headers: { authorization: `Bearer ${key}` } })
          )
        const call = await document("call-acma-2024-08-28")
        assert.deepStrictEqual([call.period, call.title], ["Q2 2025", "Acme Anvil Corp Q2 2025 earnings call"])
        const corrected = await eventually("the old call to be corrected", async () => {
          const old = await document("call-wdgt-2024-08-28")
          return old.period === "Q3 2024" ? undefined : old
        })
        assert.deepStrictEqual(
          [corrected.period, corrected.title],
          ["Q2 2025", "WIDGET CORP Q2 2025 earnings call"]
        )
      } finally {
        await server.stop()
      }
    } finally {
      await storage.remove()
    }
  }, 180_000)
})
