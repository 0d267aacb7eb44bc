/**
 * Earnings call transcripts dropped in `FILINGS_TRANSCRIPT_DIR` are stored as `EARNINGS_CALL`
 * documents (id `call-<ticker>-<date>`) with their `earnings_call.new` event, and moved aside; a
 * file that can never be stored goes to `failed/` with its reason.
 */
import { assert, describe, it } from "@effect/vitest"
import { Document } from "@filings/domain"
import { existsSync } from "node:fs"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { adminTokenOf } from "./support/adminEvents.js"
import { cli, createKey, exampleEightK, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { eventually } from "./support/waiting.js"

const transcript = [
  "Operator: Good afternoon, and welcome to the Acme Anvil third quarter 2024 earnings call.",
  "",
  "Wile E. Coyote, Chief Financial Officer: Thank you. Revenue grew 12% to $48.2 million and net income was $5.1 million.",
  "",
  "Operator: We will now take questions.",
  "",
  "Road Runner, Analyst: How is demand for anvils going into the fourth quarter?",
  "",
  "Wile E. Coyote, Chief Financial Officer: Demand is strong, and we expect it to stay so."
].join("\n")

describe("the transcript drop folder", () => {
  it("stores a dropped transcript with its event, and sets aside a file it cannot store", async () => {
    const storage = await temporaryDataDir()
    const folder = join(storage.dataDir, "transcripts")
    await mkdir(folder)
    const server = await startServer(storage, { FILINGS_TRANSCRIPT_DIR: folder })
    try {
      // The company is known once one of its filings is stored.
      const ingested = await cli(storage, ["ingest", exampleEightK, "--ticker", "ACME"])
      assert.strictEqual(ingested.exitCode, 0, ingested.stderr)
      await writeFile(join(folder, "ACME_2024-11-05_q3.txt"), transcript)
      await writeFile(join(folder, "notes.txt"), "not a transcript name")
      await writeFile(join(folder, "ZZZZ_2024-11-05.txt"), transcript)

      const key = await createKey(storage)
      const document = await eventually("the transcript to be served", async () => {
        const response = await fetch(`${server.url}/v1/documents/call-acme-2024-11-05`, {
          headers: { authorization: `Bearer ${key}` }
        })
        return response.status === 200 ? jsonOf(Document.Document, response) : undefined
      })
      assert.deepStrictEqual(
        [document.doc_type, document.ticker, document.company_name, document.filing_date, document.title],
        ["EARNINGS_CALL", "ACME", "ACME ANVIL CORP", "2024-11-05", "ACME ANVIL CORP Q3 2024 earnings call"]
      )
      // The folder's files are taken in no set order, and a refused one is moved before its reason is
      // written: wait for all three to be done.
      await eventually(
        "the files to be moved",
        async () =>
          existsSync(join(folder, "processed", "ACME_2024-11-05_q3.txt")) &&
            existsSync(join(folder, "failed", "ZZZZ_2024-11-05.txt.error.txt")) &&
            existsSync(join(folder, "failed", "notes.txt.error.txt")) ?
            true :
            undefined
      )
      assert.isTrue(existsSync(join(folder, "failed", "notes.txt")))
      assert.isTrue(existsSync(join(folder, "failed", "ZZZZ_2024-11-05.txt")))
      assert.match(await readFile(join(folder, "failed", "notes.txt.error.txt"), "utf8"), /<TICKER>_<YYYY-MM-DD>/)
      // The folder takes no options: the reason says what to do there, never which flag to pass.
      const unknownCompany = await readFile(join(folder, "failed", "ZZZZ_2024-11-05.txt.error.txt"), "utf8")
      assert.match(unknownCompany, /no company with the ticker ZZZZ is stored/)
      assert.match(unknownCompany, /store one of the company's filings first/)
      assert.notInclude(unknownCompany, "--")

      const adminToken = await adminTokenOf(storage.dataDir)
      const log = await (await fetch(`${server.url}/admin/events`, {
        headers: { authorization: `Bearer ${adminToken}` }
      })).json() as { events: ReadonlyArray<{ type: string; payload: { data: Record<string, unknown> } }> }
      const calls = log.events.filter((event) => event.type === "earnings_call.new")
      assert.strictEqual(calls.length, 1)
      assert.deepStrictEqual(calls[0]!.payload.data, {
        publication_id: "call-acme-2024-11-05",
        ticker: "ACME",
        company_name: "ACME ANVIL CORP",
        doc_type: "EARNINGS_CALL",
        title: "ACME ANVIL CORP Q3 2024 earnings call",
        call_date: "2024-11-05",
        period: "Q3 2024",
        url: "/v1/documents/call-acme-2024-11-05"
      })
    } finally {
      await server.stop()
      await storage.remove()
    }
  }, 180_000)
})
