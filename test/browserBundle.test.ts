/**
 * The parser, the extractor and the webhook signer in a browser: each is bundled with esbuild for
 * the browser (nothing external, no Node polyfills), the parser's bundle holds no pdfjs, and the
 * bundle runs in headless Chromium on a real 10-K of the shared corpus: parsed in the page and in
 * a Web Worker, its metrics, tables, exhibits and signatures extracted, a webhook body signed and
 * verified, each giving what the same calls give in Node; a PDF there, where pdfjs-dist cannot be
 * imported, fails with the typed missing-dependency error. Skipped, saying why, where Chromium or
 * the corpus is absent.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { readFile } from "node:fs/promises"
import {
  type BrowserBundle,
  bundleForBrowser,
  libraries,
  type LibraryName,
  nodeApisIn,
  packagesOf,
  type ServedFile,
  serveLocally,
  staticClosure
} from "./support/browserBundle.js"
import type { ParseSummary } from "./support/browserParse.js"
import { runScenario, type ScenarioResult } from "./support/browserScenario.js"
import { corpusLocation, corpusMissing, corpusUrl } from "./support/corpus.js"
import { chromiumPath, loadPage } from "./support/headlessChromium.js"

const corpus = corpusUrl
const filingName = "10-K/aapl-10k-fy2024.htm"
const filing = new URL(filingName, corpus)

let bundle: BrowserBundle

beforeAll(async () => {
  bundle = await bundleForBrowser()
}, 120_000)

const libraryNames = Object.keys(libraries) as Array<LibraryName>

describe("the libraries bundled for the browser with esbuild", () => {
  it("bundles each library with no import left to the runtime and no Node API in its own code", async () => {
    for (const library of libraryNames) {
      const closure = staticClosure(bundle.metafile, library)
      assert.deepStrictEqual(closure.unbundledImports, [], library)
      const ownSources = closure.inputs.filter((input) => input.startsWith("packages/"))
      assert.include(ownSources, libraries[library])
      for (const source of ownSources) assert.deepStrictEqual(await nodeApisIn(source), [], source)
    }
    // The signer is Web Crypto alone: no package comes with it.
    assert.deepStrictEqual(packagesOf(staticClosure(bundle.metafile, "webhook-signer").inputs), [])
  })

  it("the parser's bundle holds its PDF reader but no pdfjs: pdfjs-dist is imported at run time, for a PDF", () => {
    const parser = staticClosure(bundle.metafile, "filings-parser")
    assert.include(parser.inputs, "packages/filings-parser/src/internal/pdf/readPdf.ts")
    const everyInput = Object.keys(bundle.metafile.inputs)
    assert.deepStrictEqual(everyInput.filter((input) => /pdfjs-dist|@napi-rs\/canvas/.test(input)), [])
    for (const library of libraryNames) {
      assert.notInclude(packagesOf(staticClosure(bundle.metafile, library).inputs), "pdfjs-dist", library)
    }
  })

  it("the Web Worker loads the parser alone", () => {
    const worker = staticClosure(bundle.metafile, "worker").inputs
    assert.include(worker, libraries["filings-parser"])
    assert.deepStrictEqual(
      worker.filter((input) => /^packages\/(?:extractor|webhook-signer)\//.test(input)),
      []
    )
  })
})

/** The page: fetches the filing, runs the scenario, the parse again in a module worker, then a PDF. */
const page = `<!doctype html>
<meta charset="utf-8">
<title>Filings in the browser</title>
<link rel="icon" href="data:,">
<script type="module">
import { parseOutcome, runScenario } from "/scenario.js"
const inWorker = (bytes) => new Promise((resolve, reject) => {
  const worker = new Worker("/worker.js", { type: "module" })
  worker.onmessage = (event) => { worker.terminate(); resolve(event.data) }
  worker.onerror = (event) => reject(new Error("worker: " + event.message))
  worker.postMessage(bytes)
})
window.filingsRun = (async () => {
  try {
    const bytes = new Uint8Array(await (await fetch("/filing.htm")).arrayBuffer())
    const scenario = await runScenario(bytes)
    const worker = await inWorker(bytes)
    const pdf = await parseOutcome(new TextEncoder().encode("%PDF-1.7\\n%%EOF\\n"))
    return { scenario, worker, pdf, globals: [typeof Buffer, typeof process, typeof require] }
  } catch (error) {
    return { error: String(error && error.stack || error) }
  }
})()
</script>
`

interface PageResult {
  readonly error?: string
  readonly scenario?: ScenarioResult
  readonly worker?: { readonly summary?: ParseSummary; readonly error?: string }
  readonly globals?: ReadonlyArray<string>
  /** How a PDF's parse ended in the page, where there is no pdfjs-dist to import. */
  readonly pdf?: string
}

const runnable = chromiumPath !== undefined && !corpusMissing
const skipReason = chromiumPath === undefined
  ? " (skipped: no Chromium on the PATH; .ci/run installs Debian's chromium)"
  : corpusMissing
  ? ` (skipped: the corpus is not at ${corpusLocation})`
  : ""

describe.skipIf(!runnable)(`the bundle in headless Chromium on a real 10-K${skipReason}`, () => {
  let server: Awaited<ReturnType<typeof serveLocally>>
  let bytes: Uint8Array

  beforeAll(async () => {
    bytes = new Uint8Array(await readFile(filing))
    const files = new Map<string, ServedFile>([
      ["/", { contentType: "text/html; charset=utf-8", body: page }],
      ["/filing.htm", { contentType: "text/html", body: bytes }]
    ])
    for (const [name, contents] of bundle.files) {
      files.set(`/${name}`, { contentType: "text/javascript; charset=utf-8", body: contents })
    }
    server = await serveLocally(files)
  })

  afterAll(async () => {
    await server?.close()
  })

  it("parses, extracts, signs and verifies in the page, and parses in a Web Worker, as Node does", async () => {
    const inNode = await runScenario(bytes)
    // The values that matter, from Node: the 10-K's items, its XBRL revenue, its exhibits and signers.
    assert.strictEqual(inNode.parse.form, "10-K")
    assert.include(inNode.parse.sectionNames, "Item 1A. Risk Factors")
    assert.include(
      inNode.parse.sectionNames,
      "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
    )
    assert.isAbove(inNode.parse.wordCount, 25_000)
    assert.deepStrictEqual(inNode.metrics.revenue?.value, 391_035e6)
    assert.deepStrictEqual(inNode.metrics.revenue?.period, "FY 2024")
    assert.isAbove(inNode.tables.length, 20)
    assert.include(inNode.exhibitNumbers, "31.1")
    assert.include(inNode.signerNames, "Timothy D. Cook")
    assert.isTrue(inNode.webhook.verified)
    assert.strictEqual(inNode.webhook.tampered, "SignatureMismatchError mismatch")

    const loaded = await loadPage(`${server.url}/`, {
      expression: "window.filingsRun",
      awaitPromise: true,
      settleMs: 0,
      timeoutMs: 180_000
    })
    // Every request went to the local server, none failed, none fetched pdfjs. (The worker's
    // script is fetched for the worker, so the page sees its request but not its status.)
    assert.deepStrictEqual(
      loaded.requests.filter((request) =>
        !request.url.startsWith(`${server.url}/`) || request.failure !== undefined ||
        (request.status !== undefined && request.status !== 200)
      ),
      []
    )
    assert.deepStrictEqual(loaded.requests.filter((request) => /pdf/i.test(request.url)), [])
    const result = loaded.evaluated as PageResult | undefined
    assert.isUndefined(result?.error, result?.error)
    // Chromium has no Node globals to fall back on: the run shows the code needs none.
    assert.deepStrictEqual(result?.globals, ["undefined", "undefined", "undefined"])
    assert.deepStrictEqual(result?.scenario, inNode)
    assert.isUndefined(result?.worker?.error, result?.worker?.error)
    assert.deepStrictEqual(result?.worker?.summary, inNode.parse)
    // A PDF in the page: pdfjs-dist cannot be imported there, and the parse says so, typed.
    assert.match(result?.pdf ?? "", /^UnreadableDocument missing-dependency: .*npm install pdfjs-dist/)
  }, 300_000)
})
