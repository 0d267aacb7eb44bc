/**
 * PDF -> blocks: synthetic PDFs written by `support/pdfBuilder.ts` (reading order, paragraphs,
 * headings, tables, page furniture, failures) and the real PDFs of the shared corpus, read in place.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { type Block, blockText, plainStyle } from "../src/internal/blocks.js"
import { renderMarkdown } from "../src/internal/markdown/render.js"
import { joinLines } from "../src/internal/pdf/layout.js"
import { fontFlags, readPdf } from "../src/internal/pdf/readPdf.js"
import { buildPdf, type PdfTextLine } from "./support/pdfBuilder.js"

const texts = (blocks: ReadonlyArray<Block>) => blocks.map(blockText)
const findBlock = (blocks: ReadonlyArray<Block>, fragment: string) =>
  blocks.find((block) => blockText(block).includes(fragment))

const header: PdfTextLine = { text: "ACME CORP QUARTERLY REPORT", x: 220, y: 770, size: 9 }
const pageNumber = (page: number): PdfTextLine => ({ text: String(page), x: 300, y: 30, size: 9 })

/** Three pages: a running header, page numbers, headings, paragraphs, a table, items out of order. */
const sample = buildPdf([
  [
    header,
    { text: "Annual Report 2024", x: 72, y: 730, size: 20, bold: true },
    { text: "Item 7. Management Discussion", x: 72, y: 700, size: 11, bold: true },
    // The second line is written first: reading order comes from positions, not stream order.
    { text: "ucts in every region.", x: 72, y: 666 },
    { text: "Revenue increased 12 percent in fiscal 2024, driven by strong demand for our prod-", x: 72, y: 680 },
    { text: "Operating margin was", x: 72, y: 640 },
    { text: "stable at 31 percent.", x: 184, y: 640 },
    { text: "Segment", x: 72, y: 600 },
    { text: "2024", x: 300, y: 600 },
    { text: "2023", x: 400, y: 600 },
    { text: "Americas", x: 72, y: 586 },
    { text: "$", x: 290, y: 586 },
    { text: "1,200", x: 305, y: 586 },
    { text: "$", x: 390, y: 586 },
    { text: "1,050", x: 405, y: 586 },
    { text: "Europe", x: 72, y: 572 },
    { text: "800", x: 310, y: 572 },
    { text: "760", x: 410, y: 572 },
    { text: "Asia", x: 72, y: 558 },
    { text: "(40)", x: 308, y: 558 },
    { text: "35", x: 413, y: 558 },
    pageNumber(1)
  ],
  [
    header,
    { text: "Liquidity", x: 72, y: 720, size: 14, bold: true },
    { text: "Cash and equivalents were $4.1 billion at year end.", x: 72, y: 700 },
    { text: "We expect capital expenditures of about $900 million next", x: 72, y: 660 },
    pageNumber(2)
  ],
  [
    header,
    { text: "year, funded from operations.", x: 72, y: 720 },
    { text: "Risk Factors", x: 72, y: 690, size: 14, bold: true },
    { text: "Our business depends on suppliers in several countries.", x: 72, y: 670 },
    pageNumber(3)
  ]
], { title: "ACME Annual Report" })

describe("readPdf: synthetic PDFs", () => {
  it.effect("reads pages, title, headings and paragraphs in reading order", () =>
    Effect.gen(function*() {
      const { blocks, pageCount, title, warnings } = yield* readPdf(sample)
      assert.strictEqual(pageCount, 3)
      assert.strictEqual(title, "ACME Annual Report")
      assert.deepStrictEqual(warnings, [])
      assert.deepStrictEqual(texts(blocks), [
        "Annual Report 2024",
        "Item 7. Management Discussion",
        "Revenue increased 12 percent in fiscal 2024, driven by strong demand for our products in every region.",
        "Operating margin was stable at 31 percent.",
        "Segment 2024 2023 Americas $1,200 $1,050 Europe 800 760 Asia (40) 35",
        "Liquidity",
        "Cash and equivalents were $4.1 billion at year end.",
        // A sentence broken by the page break is one paragraph, on the page it starts on.
        "We expect capital expenditures of about $900 million next year, funded from operations.",
        "Risk Factors",
        "Our business depends on suppliers in several countries."
      ])
      assert.deepStrictEqual(blocks.map((block) => block.page), [1, 1, 1, 1, 1, 2, 2, 2, 3, 3])
    }))

  it.effect("headings by size and bold font, with their style", () =>
    Effect.gen(function*() {
      const { blocks } = yield* readPdf(sample)
      const headings = blocks.flatMap((block) => block.kind === "heading" ? [[block.text, block.depth] as const] : [])
      assert.deepStrictEqual(headings, [
        ["Annual Report 2024", 1],
        ["Item 7. Management Discussion", 4],
        // 14 pt over an 11 pt body (1.27): depth 3; 20 pt (1.8): depth 1.
        ["Liquidity", 3],
        ["Risk Factors", 3]
      ])
      const title = blocks[0]
      assert.strictEqual(title?.kind, "heading")
      if (title?.kind === "heading") {
        assert.strictEqual(title.style.bold, true)
        assert.strictEqual(title.style.fontSizePt, 20)
      }
      const body = findBlock(blocks, "Operating margin")
      assert.strictEqual(body?.kind === "paragraph" && body.style.bold, false)
    }))

  it.effect("column-aligned lines become a table; $ joins its amount", () =>
    Effect.gen(function*() {
      const { blocks } = yield* readPdf(sample)
      const table = blocks.find((block) => block.kind === "table")
      assert.deepStrictEqual(table, {
        kind: "table",
        page: 1,
        rows: [["Segment", "2024", "2023"], ["Americas", "$1,200", "$1,050"], ["Europe", "800", "760"], [
          "Asia",
          "(40)",
          "35"
        ]],
        headerRows: 1
      })
    }))

  it.effect("running headers and page numbers are removed", () =>
    Effect.gen(function*() {
      const { blocks } = yield* readPdf(sample)
      assert.isUndefined(findBlock(blocks, "ACME CORP QUARTERLY REPORT"))
      assert.notInclude(texts(blocks), "1")
      assert.notInclude(texts(blocks), "3")
    }))

  it.effect("maxPages: a longer document is too large", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(readPdf(sample, { maxPages: 2 }))
      assert.strictEqual(error._tag, "PdfUnreadable")
      assert.strictEqual(error.reason, "too-large")
      assert.strictEqual(error.message, "PDF unreadable (too-large): 3 pages, more than the limit of 2")
    }))

  it.effect("bytes without a %PDF- header fail fast with not-a-pdf", () =>
    Effect.gen(function*() {
      const plain = yield* Effect.flip(readPdf(new TextEncoder().encode("just some text, not a PDF")))
      assert.strictEqual(plain.reason, "not-a-pdf")
      const html = yield* Effect.flip(
        readPdf(new TextEncoder().encode("<!DOCTYPE html><html><body><p>10-K</p></body></html>"))
      )
      assert.strictEqual(html.reason, "not-a-pdf")
      const empty = yield* Effect.flip(readPdf(new Uint8Array()))
      assert.strictEqual(empty.reason, "not-a-pdf")
    }))

  it.effect("a truncated PDF fails as corrupt", () =>
    Effect.gen(function*() {
      const headerOnly = yield* Effect.flip(readPdf(sample.slice(0, 40)))
      assert.strictEqual(headerOnly.reason, "corrupt")
      // Cut inside the last page: the xref and trailer are gone, and what is left has no page tree.
      const cut = yield* Effect.flip(readPdf(sample.slice(0, Math.floor(sample.byteLength * 0.8))))
      assert.strictEqual(cut.reason, "corrupt")
      assert.strictEqual(cut.message, "PDF unreadable (corrupt): Invalid PDF structure.")
    }))

  it.effect("a PDF without a text layer gives no blocks and a warning", () =>
    Effect.gen(function*() {
      const { blocks, pageCount, title, warnings } = yield* readPdf(buildPdf([[], []]))
      assert.strictEqual(pageCount, 2)
      assert.deepStrictEqual(blocks, [])
      assert.isUndefined(title)
      assert.deepStrictEqual(warnings, ["PDF has no text layer (scanned images?): no text extracted"])
    }))

  it.effect("the caller's bytes stay usable (pdfjs gets a copy)", () =>
    Effect.gen(function*() {
      const bytes = buildPdf([[{ text: "Hello PDF", x: 72, y: 700 }]])
      const length = bytes.byteLength
      const { blocks } = yield* readPdf(bytes)
      assert.deepStrictEqual(texts(blocks), ["Hello PDF"])
      assert.strictEqual(bytes.byteLength, length)
      // A Node Buffer is accepted as well.
      const again = yield* readPdf(Buffer.from(bytes))
      assert.deepStrictEqual(texts(again.blocks), ["Hello PDF"])
    }))
})

describe("PDF layout rules", () => {
  it("line-end hyphens: dropped inside a lower-case word, kept in compounds", () => {
    assert.strictEqual(joinLines("strong demand for our prod-", "ucts"), "strong demand for our products")
    assert.strictEqual(joinLines("results under non-", "GAAP measures"), "results under non-GAAP measures")
    assert.strictEqual(joinLines("a 364-day", "facility"), "a 364-day facility")
    assert.strictEqual(joinLines("fiscal 2023 -", "up 5%"), "fiscal 2023 - up 5%")
  })

  it("bold and italic come from the font name", () => {
    assert.deepStrictEqual(fontFlags("AAAIEO+Arial-BoldMT"), { bold: true, italic: false })
    assert.deepStrictEqual(fontFlags("AAAXUE+Arial-BoldItalicMT"), { bold: true, italic: true })
    assert.deepStrictEqual(fontFlags("TimesNewRomanPSMT"), { bold: false, italic: false })
  })

  it("text is escaped for Markdown by the one renderer", () => {
    const paragraph = (text: string): Block => ({
      kind: "paragraph",
      page: 1,
      text,
      inlines: [{ kind: "text", text }],
      style: plainStyle
    })
    assert.strictEqual(renderMarkdown([paragraph("# 1. Net *sales* [a] b_c")]), "\\# 1. Net \\*sales\\* \\[a\\] b_c\n")
    assert.strictEqual(renderMarkdown([paragraph("1. Overview")]), "1\\. Overview\n")
    assert.strictEqual(renderMarkdown([paragraph("- item")]), "\\- item\n")
  })
})

const corpus = new URL("pdf/", corpusUrl)
const readCorpus = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, corpus)))

describe.skipIf(corpusMissing)(`readPdf: corpus PDFs in ../shared/corpus`, () => {
  it.effect("AAPL 10-Q Q3 FY2023: statements as tables, footers gone", () =>
    Effect.gen(function*() {
      const { blocks, pageCount, title, warnings } = yield* readPdf(readCorpus("aapl-10q-2023-07-01.pdf"))
      assert.strictEqual(pageCount, 29)
      // The Title metadata is the accession number `0000320193-23-000077`: no title.
      assert.isUndefined(title)
      assert.deepStrictEqual(warnings, [])
      // `Apple Inc. | Q3 2023 Form 10-Q | 5`, printed after each page's content, is page furniture.
      assert.isUndefined(findBlock(blocks, "Q3 2023 Form 10-Q |"))
      const heading = blocks.find((block) => block.kind === "heading" && block.text.startsWith("Item 2. Management"))
      assert.strictEqual(heading?.page, 17)
      const operations = blocks.find((block) =>
        block.kind === "table" && block.rows.some((row) => row[0] === "Total net sales")
      )
      assert.strictEqual(operations?.page, 4)
      if (operations?.kind === "table") {
        assert.deepStrictEqual(operations.rows.find((row) => row[0] === "Products"), [
          "Products",
          "$60,584",
          "$63,355",
          "$230,901",
          "$245,241"
        ])
        assert.deepStrictEqual(operations.rows.find((row) => row[0] === "Gross margin"), [
          "Gross margin",
          "36,413",
          "35,885",
          "128,721",
          "132,687"
        ])
      }
      // Reading order: the check-mark paragraph's two lines, joined.
      assert.isDefined(findBlock(
        blocks,
        "during the preceding 12 months (or for such shorter period that the Registrant was required to file such reports)"
      ))
    }))

  it.effect(
    "MMM 10-K FY2018: 160 pages, running header removed, capex in the cash flow table",
    () =>
      Effect.gen(function*() {
        const { blocks, pageCount, title } = yield* readPdf(readCorpus("mmm-10k-fy2018.pdf"))
        assert.strictEqual(pageCount, 160)
        assert.strictEqual(title, "10-K - 02/07/2019 - 3M Company")
        // `Table of Contents` heads every page (a link back to the contents).
        assert.isUndefined(blocks.find((block) => blockText(block) === "Table of Contents"))
        const riskFactors = blocks.find((block) => block.kind === "heading" && block.text === "Item 1A. Risk Factors")
        assert.strictEqual(riskFactors?.page, 10)
        assert.isTrue(
          blocks.some((block) =>
            block.kind === "table" &&
            block.rows.some((row) =>
              row.join(" | ") === "Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373) | (1,420)"
            )
          )
        )
      }),
    120_000
  )

  it.effect("PEP 8-K: cover page, Item 8.01 and the credit agreement in order", () =>
    Effect.gen(function*() {
      const { blocks, pageCount, title } = yield* readPdf(readCorpus("pep-8k-2023-05-30.pdf"))
      assert.strictEqual(pageCount, 172)
      assert.strictEqual(title, "Form 8-K for Pepsico INC filed 05/30/2023")
      const all = texts(blocks)
      const cover = all.indexOf("UNITED STATES SECURITIES AND EXCHANGE COMMISSION")
      const item = all.indexOf("Item 8.01. Other Events.")
      const agreement = all.findIndex((text) =>
        text.startsWith("On May 26, 2023, PepsiCo entered into a new $4,200,000,000 364 day unsecured revolving credit")
      )
      assert.isTrue(cover === 0 && cover < item && item < agreement, `${cover} < ${item} < ${agreement}`)
      assert.strictEqual(blocks[item]?.page, 2)
      assert.strictEqual(blocks[item]?.kind, "heading")
      const symbols = blocks.find((block) => block.kind === "table" && block.page === 1)
      assert.deepStrictEqual(symbols?.kind === "table" ? symbols.rows.slice(0, 2) : [], [
        ["Title of each class", "Trading Symbol", "Name of each exchange on which registered"],
        ["Common Stock, par value 1-2/3 cents per share", "PEP", "The Nasdaq Stock Market LLC"]
      ])
    }), 120_000)

  it.effect("AMCR earnings release: headings by size, key financials table", () =>
    Effect.gen(function*() {
      const { blocks, pageCount } = yield* readPdf(readCorpus("amcr-q4-fy2023-earnings-release.pdf"))
      assert.strictEqual(pageCount, 14)
      const first = blocks[0]
      assert.deepStrictEqual(first?.kind === "heading" ? [first.text, first.page] : [], [
        "Amcor reports fiscal 2023 results and provides outlook for fiscal 2024",
        1
      ])
      const cash = blocks.find((block) => block.kind === "heading" && block.text === "Cash Returns to Shareholders")
      assert.strictEqual(cash?.page, 2)
      assert.isTrue(blocks.some((block) =>
        block.kind === "table" && block.rows.some((row) => row.join(" | ") === "EBITDA | 2,117 | 2,018 | (5) |  | 1")
      ))
      const dividend = findBlock(
        blocks,
        "The Amcor Board of Directors today declared a quarterly cash dividend of 12.25 cents per share"
      )
      assert.strictEqual(dividend?.kind, "paragraph")
      assert.include(
        dividend ? blockText(dividend) : "",
        "this increases the annual dividend for fiscal 2023 to 49.0 cents per share"
      )
    }))

  it.effect("a corpus PDF cut in half is corrupt", () =>
    Effect.gen(function*() {
      const bytes = readCorpus("amcr-q4-fy2023-earnings-release.pdf")
      const error = yield* Effect.flip(readPdf(bytes.slice(0, bytes.byteLength / 2)))
      assert.strictEqual(error.reason, "corrupt")
    }))
})
