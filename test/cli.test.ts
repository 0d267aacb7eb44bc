/**
 * The `filings` command as a person and a script meet it, run as real processes: a folder or a
 * manifest to ingest, progress on a terminal only, plain text to a pipe or with NO_COLOR, help that
 * says what each option takes, `serve` on a taken port, `server.json` written before the first
 * answer, and a command run from another folder saying which data directory it uses.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { execFile, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { corpusFile } from "./support/corpus.js"
import { cli, repositoryRoot, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { submission } from "./support/syntheticFilings.js"

const run = promisify(execFile)
const program = join(repositoryRoot, "packages/server/bin/filings.js")
const hasScript = existsSync("/usr/bin/script")
/** The 3M 10-K for 2018 printed to PDF, from the shared corpus when it is there (see its CATALOGUE.md). */
const mmmPdf = corpusFile("pdf/mmm-10k-fy2018.pdf")
const withoutCorpus = existsSync(mmmPdf) ? "" : " (skipped: the corpus beside the repository is absent)"

let dataDir: string
let removeDataDir: () => Promise<void>
let files: string

const filing = (accession: string, filedAsOf: string) =>
  submission({ accession, form: "8-K", filedAsOf, periodOfReport: filedAsOf })

/** A bare inline XBRL 8-K: it says its company, ticker and form, but not its accession number or date. */
const bareEightK = [
  "<html xmlns:ix=\"http://www.xbrl.org/2013/inlineXBRL\"><body>",
  "<div style=\"display:none\"><ix:header><ix:hidden>",
  "<ix:nonNumeric name=\"dei:DocumentType\" contextRef=\"c\">8-K</ix:nonNumeric>",
  "<ix:nonNumeric name=\"dei:TradingSymbol\" contextRef=\"c\">CLIT</ix:nonNumeric>",
  "<ix:nonNumeric name=\"dei:EntityCentralIndexKey\" contextRef=\"c\">0000777101</ix:nonNumeric>",
  "<ix:nonNumeric name=\"dei:EntityRegistrantName\" contextRef=\"c\">Cli Test Inc.</ix:nonNumeric>",
  "</ix:hidden></ix:header></div>",
  "<p style=\"font-weight:bold\">Item 8.01 Other Events.</p>",
  "<p>Cli Test Inc. announces that it has moved its offices to a larger building across the street.</p>",
  "</body></html>"
].join("")

/** Runs the program in a pseudo-terminal (`script`), as a person at a terminal would; output is both streams. */
const inTerminal = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const command = ["node", program, ...args].map((part) => `'${part.replace(/'/g, "'\\''")}'`).join(" ")
  const { stdout } = await run("script", ["-qec", command, "/dev/null"], {
    env: { ...process.env, FILINGS_LOG_LEVEL: "WARN", ...env },
    cwd: repositoryRoot
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }))
  return stdout
}

beforeAll(async () => {
  ;({ dataDir, remove: removeDataDir } = await temporaryDataDir())
  files = await mkdtemp(join(tmpdir(), "filings-cli-"))
}, 60_000)

afterAll(async () => {
  await removeDataDir?.()
  await rm(files, { recursive: true, force: true })
})

describe("filings ingest", () => {
  it("ingests a folder: a line per file in name order as each finishes, a summary, no progress in a pipe", async () => {
    const folder = join(files, "batch")
    await mkdir(folder)
    await writeFile(join(folder, "a.txt"), filing("0000999999-25-000001", "2025-01-06"))
    await writeFile(join(folder, "b.txt"), "not a filing at all")
    await writeFile(join(folder, "c.txt"), filing("0000999999-25-000002", "2025-01-07"))
    await writeFile(join(folder, ".hidden"), "left out")
    const result = await cli({ dataDir }, ["ingest", folder, "--ticker", "CTC"])
    assert.strictEqual(result.exitCode, 1)
    const lines = result.stdout.trimEnd().split("\n")
    assert.deepStrictEqual(lines.map((line) => line.split(" ")[0]), ["created", "skipped", "created", "2"])
    assert.match(lines[0]!, /^created 0000999999-25-000001 CTC 8-K 2025-01-06 .*a\.txt$/)
    assert.match(lines[1]!, /b\.txt/)
    assert.match(lines[3]!, /^2 stored, 1 skipped \(via database\)$/)
    // Standard error has the failure only: no progress line, no escape sequence.
    assert.notMatch(result.stderr, /\d\/3/)
    assert.notInclude(result.stdout + result.stderr, "\x1b")
  }, 120_000)

  it.skipIf(!hasScript)("shows n/N progress on a terminal", async () => {
    const folder = join(files, "terminal")
    await mkdir(folder)
    await writeFile(join(folder, "a.txt"), filing("0000999999-25-000011", "2025-02-03"))
    await writeFile(join(folder, "b.txt"), filing("0000999999-25-000012", "2025-02-04"))
    const output = await inTerminal(["ingest", folder, "--ticker", "CTC"], { FILINGS_DATA_DIR: dataDir })
    assert.include(output, "1/2 ")
    assert.include(output, "2/2 ")
    assert.match(output, /2 stored, 0 skipped/)
  }, 120_000)

  it("a bare document without options names every missing option in one run, and stores nothing", async () => {
    const folder = join(files, "bare")
    await mkdir(folder)
    const bare = join(folder, "notice.htm")
    await writeFile(
      bare,
      "<html><body><p>Our offices have moved across the street to a larger building.</p></body></html>"
    )
    const refused = await cli({ dataDir }, ["ingest", bare])
    assert.strictEqual(refused.exitCode, 1)
    const [line, summary] = refused.stdout.trimEnd().split("\n")
    assert.match(line!, /^skipped .*notice\.htm: the file does not say its /)
    for (const option of ["--form", "--filing-date", "--cik", "--ticker", "--company-name", "--accession"]) {
      assert.include(line, option)
    }
    assert.include(line, "nothing was stored")
    assert.strictEqual(summary, "0 stored, 1 skipped (via database)")
    assert.include(refused.stderr, "1 of 1 files could not be ingested")
  }, 120_000)

  it.skipIf(!existsSync(mmmPdf))(
    `the 3M 10-K as a PDF: one run names every option it lacks${withoutCorpus}`,
    async () => {
      const refused = await cli({ dataDir }, ["ingest", mmmPdf])
      assert.strictEqual(refused.exitCode, 1)
      for (const option of ["--filing-date", "--accession", "--cik", "--company-name"]) {
        assert.include(refused.stdout, option)
      }
      const stored = await cli({ dataDir }, [
        "ingest",
        mmmPdf,
        "--filing-date",
        "2019-02-07",
        "--accession",
        "0001558370-19-000470",
        "--cik",
        "66740",
        "--ticker",
        "MMM",
        "--company-name",
        "3M Company"
      ])
      assert.strictEqual(stored.exitCode, 0, stored.stdout + stored.stderr)
      assert.match(stored.stdout, /^created 0001558370-19-000470 MMM 10-K 2019-02-07 /)
    },
    180_000
  )

  it(
    "--manifest reports every missing or invalid field at once and stores nothing, then stores a good one",
    async () => {
      const folder = join(files, "manifest")
      await mkdir(folder)
      await writeFile(join(folder, "bare.htm"), bareEightK)
      await writeFile(join(folder, "full.txt"), filing("0000999999-25-000021", "2025-03-03"))
      const bad = join(folder, "bad.csv")
      await writeFile(
        bad,
        [
          "file,ticker,cik,form,accession,filing_date",
          "full.txt,CTC,,,,",
          "bare.htm,,,,,",
          ",CLIT,,8-K,0000777101-25-000001,2025-03-04",
          "bare.htm,not a ticker,,10-X,0000777101-25-000001,2025-13-45"
        ].join("\n")
      )
      const refused = await cli({ dataDir }, ["ingest", "--manifest", bad])
      assert.strictEqual(refused.exitCode, 1)
      assert.include(refused.stderr, "line 3: accession is missing; filing_date is missing")
      assert.include(refused.stderr, "line 4: file is missing")
      assert.match(
        refused.stderr,
        /line 5: ticker .*"NOT A TICKER"; form must be one of: 10-K, .*; got "10-X"; filing_date .*"2025-13-45"/
      )
      assert.include(refused.stderr, "nothing was stored")
      assert.strictEqual(refused.stdout, "")

      const good = join(folder, "good.csv")
      await writeFile(good, ["file,accession,filing_date", "bare.htm,0000777101-25-000001,2025-03-04"].join("\n"))
      const stored = await cli({ dataDir }, ["ingest", "--manifest", good])
      assert.strictEqual(stored.exitCode, 0, stored.stderr)
      assert.match(stored.stdout, /^created 0000777101-25-000001 CLIT 8-K 2025-03-04 /)
    },
    120_000
  )
})

describe("plain text and help", () => {
  it("help to a pipe is plain, describes each option in words and gives examples", async () => {
    const ingestHelp = await cli({ dataDir }, ["ingest", "--help"])
    const serveHelp = await cli({ dataDir }, ["serve", "--help"])
    for (const help of [ingestHelp.stdout, serveHelp.stdout]) {
      assert.notInclude(help, "\x1b")
      assert.notInclude(help, "A user-defined piece of text.")
      assert.notInclude(help, "An integer.")
    }
    assert.include(ingestHelp.stdout, "--ticker TICKER")
    assert.include(ingestHelp.stdout, "Example: --ticker AAPL")
    assert.include(ingestHelp.stdout, "Example: --manifest filings.csv")
    assert.include(serveHelp.stdout, "Example: --port 8081")
  })

  it.skipIf(!hasScript)("NO_COLOR gives plain text on a terminal too", async () => {
    const coloured = await inTerminal(["ingest", "--help"], {})
    const plain = await inTerminal(["ingest", "--help"], { NO_COLOR: "1" })
    assert.include(coloured, "\x1b[")
    assert.notInclude(plain, "\x1b")
    assert.include(plain, "--ticker TICKER")
  })

  it("parse --form is checked like ingest --form", async () => {
    const file = join(files, "parse.txt")
    await writeFile(file, filing("0000999999-25-000031", "2025-04-01"))
    const parse = await cli({ dataDir }, ["parse", file, "--form", "10-X"])
    const ingest = await cli({ dataDir }, ["ingest", file, "--form", "10-X"])
    assert.strictEqual(parse.exitCode, 1)
    assert.match(parse.stderr, /--form must be one of: 10-K, 10-Q, 8-K.*got "10-X"/)
    assert.match(ingest.stderr, /--form must be one of: 10-K, 10-Q, 8-K.*got "10-X"/)
    assert.strictEqual(parse.stdout, "")
  })
})

describe("filings serve", () => {
  let server: RunningServer | undefined
  afterAll(async () => {
    await server?.stop()
  })

  it("on a taken port says so and suggests --port", async () => {
    server = await startServer({ dataDir })
    const port = new URL(server.url).port
    const other = await temporaryDataDir()
    try {
      const result = await cli({ dataDir: other.dataDir }, ["serve", "--port", port])
      assert.strictEqual(result.exitCode, 1)
      assert.match(result.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use.*--port`))
    } finally {
      await other.remove()
    }
  }, 120_000)

  it("writes server.json before it answers: whoever sees /healthz answer finds the file", async () => {
    const storage = await temporaryDataDir()
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address()
        probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
      })
    })
    const child = spawn(process.execPath, [program, "serve", "--port", String(port)], {
      env: { ...process.env, FILINGS_DATA_DIR: storage.dataDir, FILINGS_LOG_LEVEL: "WARN" },
      stdio: "ignore"
    })
    try {
      // Many requests at once, so one of them lands in the moment the server starts listening.
      let answered = false
      const deadline = Date.now() + 100_000
      while (!answered && Date.now() < deadline) {
        const tries = await Promise.all(Array.from({ length: 20 }, () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (response) => ({ ok: response.ok, fileThen: existsSync(join(storage.dataDir, "server.json")) }),
            () => undefined
          )))
        for (const attempt of tries) {
          if (attempt?.ok !== true) continue
          answered = true
          assert.isTrue(attempt.fileThen, "server.json was missing when /healthz answered")
        }
      }
      assert.isTrue(answered, "the server did not answer /healthz within 100 s")
      const keys = await cli({ dataDir: storage.dataDir }, ["keys", "create", "--name", "after healthz"])
      assert.strictEqual(keys.exitCode, 0, keys.stderr)
      assert.match(keys.stdout, /fk_/)
    } finally {
      await new Promise<void>((done) => {
        child.once("exit", () => done())
        child.kill("SIGTERM")
      })
      await storage.remove()
    }
  }, 180_000)
})

describe("a command run from another folder", () => {
  it("says which data directory it creates instead of creating it silently", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "filings-elsewhere-"))
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, FILINGS_LOG_LEVEL: "WARN" }
      delete env.FILINGS_DATA_DIR
      delete env.FILINGS_DATABASE_URL
      delete env.FILINGS_SERVER_URL
      const { stderr } = await run(process.execPath, [program, "keys", "list"], { env, cwd: elsewhere })
      assert.include(stderr, `no database in ${join(elsewhere, ".filings")}`)
      assert.include(stderr, "FILINGS_DATA_DIR")
      // Once it exists, nothing more is said.
      const again = await run(process.execPath, [program, "keys", "list"], { env, cwd: elsewhere })
      assert.notInclude(again.stderr, "no database")
    } finally {
      await rm(elsewhere, { recursive: true, force: true })
    }
  }, 120_000)
})
