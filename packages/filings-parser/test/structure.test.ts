/**
 * The reviewed element trees of three real 10-Qs (`labels/*.expected-structure-and-text.json`):
 * every text element of the filing is in our body, its titles are headings (or the bold run-in
 * start of a paragraph), and its tables are tables. Skipped when the corpus folder is absent.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusFile, corpusMissing } from "../../../test/support/corpus.js"
import { Blocks } from "../src/index.js"
import { parseHtml } from "./support/parse.js"

interface Element {
  readonly cls_name: string
  readonly text_content: string
}

const normalize = (text: string) => text.normalize("NFKC").toLowerCase().replace(/[’‘]/g, "'").replace(/[^a-z0-9]/g, "")

const filings = ["aapl-10q-2023-07-01", "goog-10q-2023-06-30", "meta-10q-2019-03-31"]

describe.skipIf(corpusMissing)("structure and text of reviewed 10-Qs", () => {
  for (const filing of filings) {
    it.effect(filing, () =>
      Effect.gen(function*() {
        const elements = JSON.parse(
          readFileSync(corpusFile(`labels/${filing}.expected-structure-and-text.json`), "utf8")
        ) as ReadonlyArray<Element>
        const reading = yield* parseHtml(readFileSync(corpusFile(`10-Q/${filing}.htm`), "utf8"))
        const textOf = (block: (typeof reading.blocks)[number]) =>
          block.kind === "heading" || block.kind === "paragraph" ? normalize(block.text) : ""
        const headings = reading.blocks.filter((block) => block.kind === "heading").map(textOf)
        const paragraphs = reading.blocks.filter((block) => block.kind === "paragraph").map(textOf)
        const body = normalize(reading.blocks.map((block) => Blocks.toMarkdown([block])).join(" "))

        // Every passage of text is kept (compared on its first 80 letters and digits).
        const texts = elements.filter((element) => element.cls_name === "TextElement")
        const lostTexts = texts.filter((element) => !body.includes(normalize(element.text_content).slice(0, 80)))
        assert.isAtMost(lostTexts.length / texts.length, 0.05, `texts lost: ${lostTexts.length}/${texts.length}`)

        // Titles are headings, or open a paragraph as a bold run-in heading, or are part of a heading
        // that joins an item label to its title ("Item 1. | FINANCIAL STATEMENTS").
        const titles = elements.filter((element) =>
          element.cls_name === "TitleElement" || element.cls_name === "TopSectionTitle"
        )
        const found = (title: string) =>
          headings.some((heading) => heading.startsWith(title) || heading.endsWith(title)) ||
          paragraphs.some((paragraph) => paragraph.startsWith(title))
        const lostTitles = titles.filter((element) => !found(normalize(element.text_content)))
        assert.isAtMost(
          lostTitles.length / titles.length,
          0.08,
          `titles lost: ${lostTitles.map((element) => element.text_content).join(" | ")}`
        )
        const asHeadings = titles.filter((element) =>
          headings.some((heading) => heading.startsWith(normalize(element.text_content)))
        )
        assert.isAtLeast(asHeadings.length / titles.length, 0.7)

        // Tables stay tables: as many as the reviewers counted, give or take layout tables we split.
        const tables = elements.filter((element) => element.cls_name === "TableElement").length
        const ours = reading.blocks.filter((block) => block.kind === "table").length
        assert.isTrue(ours >= tables * 0.9 && ours <= tables * 1.25, `tables: ${ours} for ${tables}`)
      }), { timeout: 60_000 })
  }
})
