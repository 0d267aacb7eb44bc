/**
 * Fixture tests in the unified style: every folder in `test/fixtures/` holds an `input.html` (or
 * `input.txt` for plain text, or `input.pdf`, read by `Parser.parse`) and the `expected.md` it must
 * convert to. The inputs are small
 * synthetic documents that reproduce one EDGAR quirk each. Run with `UPDATE=1` to rewrite the
 * expectations, then review the diff.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { Parser } from "../src/index.js"
import { parseBytes } from "./support/parse.js"

const root = new URL("./fixtures/", import.meta.url)
const update = process.env["UPDATE"] === "1"

const cases = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()

describe("fixtures", () => {
  it("has fixtures to run", () => {
    assert.isAtLeast(cases.length, 5)
  })

  for (const name of cases) {
    it.effect(name, () =>
      Effect.gen(function*() {
        const folder = new URL(`${name}/`, root)
        const htmlInput = new URL("input.html", folder)
        const pdfInput = new URL("input.pdf", folder)
        const input = existsSync(htmlInput) ? htmlInput : new URL("input.txt", folder)
        const contentType = input === htmlInput ? undefined : "text/plain"
        // Bytes, not text: decoding (charset sniffing, windows-1252 fallback) is part of what is tested.
        const converted = existsSync(pdfInput)
          ? yield* Parser.parse({ bytes: readFileSync(pdfInput), fileName: "input.pdf" })
          : yield* parseBytes(readFileSync(input), contentType)
        const expectedFile = new URL("expected.md", folder)
        if (update || !existsSync(expectedFile)) {
          if (!update) assert.fail(`${name}: no expected.md; run with UPDATE=1 to create it`)
          writeFileSync(expectedFile, converted.markdown)
          return
        }
        assert.strictEqual(converted.markdown, readFileSync(expectedFile, "utf8"))
      }))
  }
})
