/**
 * Every document of the shared corpus goes through `Parser.parse`: no error, text found, and the
 * sections its form calls for. Skipped when the corpus folder is absent.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { basename, join } from "node:path"
import { corpusDir, corpusMissing } from "../../../test/support/corpus.js"
import { Parser } from "../src/index.js"

const corpus = corpusDir
const folders = [
  "10-K",
  "10-Q",
  "8-K",
  "S-1",
  "6-K",
  "20-F",
  "DEF14A",
  "old-text",
  "press-releases",
  "pdf",
  "transcripts"
]

const filesOf = (folder: string) =>
  existsSync(join(corpus, folder))
    ? readdirSync(join(corpus, folder)).filter((name) => /\.(htm|html|txt|pdf|json)$/i.test(name)).map((name) =>
      join(corpus, folder, name)
    )
    : []

/** Forms whose documents must come out with item sections. */
const itemForms = new Set(["10-K", "10-Q", "8-K", "20-F"])

describe.skipIf(corpusMissing)("every corpus document parses", () => {
  for (const folder of folders) {
    for (const file of filesOf(folder)) {
      it.effect(`${folder}/${basename(file)}`, () =>
        Effect.gen(function*() {
          const bytes = new Uint8Array(readFileSync(file))
          const form = folder === "transcripts" ? "EARNINGS_CALL" : undefined
          const parsed = yield* Parser.parse({
            bytes,
            fileName: basename(file),
            ...(form === undefined ? {} : { form })
          })
          assert.isAbove(parsed.wordCount, 50)
          assert.isAbove(parsed.chunks.length, 0)
          assert.strictEqual(parsed.chunks.map((chunk) => chunk.text).join("\n"), parsed.markdown)
          assert.notMatch(parsed.markdown, /<ix:|<\/?(?:div|span|td|font)\b/i)
          // Exhibits filed on their own (certifications) and press releases have no items.
          const isExhibit = /-ex\d/.test(basename(file)) || folder === "press-releases"
          if (parsed.form !== undefined && itemForms.has(parsed.form) && !isExhibit) {
            assert.isTrue(parsed.sections.some((section) => section.item !== undefined), `${file}: no item found`)
          }
          for (const section of parsed.sections) {
            assert.isTrue(section.pageStart >= 1 && section.pageEnd >= section.pageStart, section.title)
          }
        }), { timeout: 120_000 })
    }
  }
})
