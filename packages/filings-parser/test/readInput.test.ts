import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Blocks, Parser } from "../src/index.js"
import { parseBytes, parseHtml, parseText } from "./support/parse.js"

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** The failure of an effect expected to fail with `UnreadableDocument`. */
const unreadable = <A>(effect: Effect.Effect<A, Parser.ParseError>) =>
  Effect.flip(effect).pipe(
    Effect.map((error) => ({ tag: error._tag, reason: error.reason as string, message: error.message }))
  )

describe("Parser.decodeBytes", () => {
  it.effect("decodes valid UTF-8 without warnings", () =>
    Effect.gen(function*() {
      const decoded = yield* Parser.decodeBytes(utf8("<p>Café – naïve</p>"))
      assert.deepStrictEqual(decoded, { text: "<p>Café – naïve</p>", charset: "utf-8", warnings: [] })
    }))

  it.effect("falls back to windows-1252 when undeclared bytes are not UTF-8", () =>
    Effect.gen(function*() {
      const decoded = yield* Parser.decodeBytes(new Uint8Array([0x93, 0x48, 0x69, 0x94, 0x20, 0x96, 0x20, 0xe9]))
      assert.strictEqual(decoded.text, "“Hi” – é")
      assert.strictEqual(decoded.charset, "windows-1252")
      assert.lengthOf(decoded.warnings, 1)
      assert.match(decoded.warnings[0] ?? "", /not valid UTF-8/)
    }))

  it.effect("uses the charset of the content type", () =>
    Effect.gen(function*() {
      const decoded = yield* Parser.decodeBytes(
        new Uint8Array([0x41, 0x92, 0x42]),
        "text/html; charset=ISO-8859-1"
      )
      // WHATWG: ISO-8859-1 is windows-1252, so 0x92 is a right single quote.
      assert.deepStrictEqual(decoded, { text: "A’B", charset: "windows-1252", warnings: [] })
    }))

  it.effect("reads a <meta http-equiv> charset", () =>
    Effect.gen(function*() {
      const head = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head>`
      const bytes = new Uint8Array([...utf8(head), 0x80])
      const decoded = yield* Parser.decodeBytes(bytes)
      assert.strictEqual(decoded.charset, "windows-1252")
      assert.isTrue(decoded.text.endsWith("€"))
    }))

  it.effect("prefers valid UTF-8 over a declared latin1 charset, with a warning", () =>
    Effect.gen(function*() {
      const decoded = yield* Parser.decodeBytes(utf8(`<meta charset="iso-8859-1"><p>Zürich</p>`))
      assert.strictEqual(decoded.charset, "utf-8")
      assert.include(decoded.text, "Zürich")
      assert.match(decoded.warnings[0] ?? "", /valid UTF-8/)
    }))

  it.effect("finds one non-ASCII byte wherever it is, in a view that starts at any offset", () =>
    Effect.gen(function*() {
      // The bytes are scanned four at a time where aligned: every offset of the view and of the
      // byte is tried, so the unaligned head and tail are read too.
      const ascii = utf8("<p>plain text, long enough to be read in words</p>")
      for (let offset = 0; offset < 4; offset++) {
        for (let at = 0; at < ascii.length; at++) {
          const backing = new Uint8Array(offset + ascii.length + 1)
          backing.set(ascii, offset)
          backing[offset + at] = 0xe9 // é in windows-1252; not UTF-8 alone
          const view = backing.subarray(offset, offset + ascii.length)
          const decoded = yield* Parser.decodeBytes(view, "text/html; charset=windows-1252")
          assert.strictEqual(decoded.text.charAt(at), "é", `offset ${offset}, byte ${at}`)
          assert.deepStrictEqual(decoded.warnings, [])
        }
        const plain = new Uint8Array(offset + ascii.length)
        plain.set(ascii, offset)
        const decoded = yield* Parser.decodeBytes(plain.subarray(offset), "text/html; charset=windows-1252")
        assert.strictEqual(decoded.text, "<p>plain text, long enough to be read in words</p>")
      }
    }))

  it.effect("honours a UTF-16 byte-order mark", () =>
    Effect.gen(function*() {
      const decoded = yield* Parser.decodeBytes(new Uint8Array([0xff, 0xfe, 0x48, 0x00, 0x69, 0x00]))
      assert.deepStrictEqual(decoded, { text: "Hi", charset: "utf-16le", warnings: [] })
    }))

  it.effect("ignores an unknown charset label with a warning", () =>
    Effect.gen(function*() {
      const decoded = yield* Parser.decodeBytes(utf8("plain"), "text/plain; charset=x-unknown-1")
      assert.strictEqual(decoded.charset, "utf-8")
      assert.match(decoded.warnings[0] ?? "", /unknown charset "x-unknown-1"/)
    }))

  it.effect("fails on empty and binary input", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* unreadable(Parser.decodeBytes(new Uint8Array()))).reason, "empty")
      const pdf = yield* unreadable(Parser.decodeBytes(utf8("%PDF-1.7\n%âãÏÓ\n1 0 obj")))
      assert.deepStrictEqual(pdf.reason, "binary")
      assert.match(pdf.message, /^Unreadable document \(binary\): PDF/)
      const nuls = new Uint8Array(1000).map((_, index) => (index % 3 === 0 ? 0 : 0x41))
      assert.strictEqual((yield* unreadable(Parser.decodeBytes(nuls))).reason, "binary")
    }))
})

describe("Parser.parse of HTML", () => {
  it.effect("converts a small document, with title and word count", () =>
    Effect.gen(function*() {
      const converted = yield* parseHtml(
        "<html><head><title> Form\n 8-K </title></head><body><p>Hello <b>world</b>, this is 1 test.</p></body></html>"
      )
      const { markdown, title, warnings, wordCount } = converted
      assert.deepStrictEqual({ markdown, wordCount, title, warnings }, {
        markdown: "Hello **world**, this is 1 test.\n",
        wordCount: 6,
        title: "Form 8-K",
        warnings: []
      })
    }))

  it.effect("drops an ix:header even outside a hidden block, and keeps ix fact text", () =>
    Effect.gen(function*() {
      const converted = yield* parseHtml(
        `<html><body><ix:header><ix:hidden><ix:nonNumeric name="dei:AmendmentFlag">false</ix:nonNumeric></ix:hidden>` +
          `</ix:header><p>Revenue was $<ix:nonFraction name="us-gaap:Revenues" scale="6">12.5</ix:nonFraction> million.</p>` +
          `</body></html>`
      )
      assert.strictEqual(converted.markdown, "Revenue was $12.5 million.\n")
    }))

  it.effect("turns a financial table into a rectangular GFM table", () =>
    Effect.gen(function*() {
      const converted = yield* parseHtml(
        `<table><tr><td></td><td colspan="2">2024</td><td></td><td colspan="2">2023</td></tr>` +
          `<tr><td>Net income (loss)</td><td>$</td><td>(12</td><td>)</td><td>$</td><td>7</td></tr></table>`
      )
      assert.strictEqual(
        converted.markdown,
        "|  | 2024 | 2023 |\n| --- | --- | --- |\n| Net income (loss) | $(12) | $7 |\n"
      )
    }))

  it.effect("warns when a data table nested in a cell is flattened", () =>
    Effect.gen(function*() {
      const inner = "<table><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>"
      const converted = yield* parseHtml(
        `<table><tr><td>x</td><td>y</td></tr><tr><td>${inner}</td><td>z</td></tr></table>`
      )
      assert.include(converted.markdown, "| a 1 b 2 | z |")
      assert.deepStrictEqual(converted.warnings, ["1 table(s) nested in a data table cell were flattened to text"])
    }))

  it.effect("warns about a document without text", () =>
    Effect.gen(function*() {
      const converted = yield* parseHtml(`<html><body><img src="page1.jpg" alt=""></body></html>`)
      assert.strictEqual(converted.wordCount, 0)
      assert.match(converted.warnings[0] ?? "", /no text/)
    }))

  it.effect("fails with UnreadableDocument on unusable input", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* unreadable(parseHtml("  \n ")), {
        tag: "UnreadableDocument",
        reason: "empty",
        message: "Unreadable document (empty): no text"
      })
      assert.strictEqual(
        (yield* unreadable(parseHtml("<p>\u0000\u0001\u0002\u0003\u0004\u0005</p>"))).reason,
        "binary"
      )
      const deep = `<html><body>${"<div>".repeat(20_000)}deep</body></html>`
      assert.deepStrictEqual(yield* unreadable(parseHtml(deep)), {
        tag: "UnreadableDocument",
        reason: "too-complex",
        message: "Unreadable document (too-complex): markup nested more than 8192 elements deep"
      })
    }))
})

describe("Parser.parse of plain text", () => {
  it.effect("keeps paragraphs and turns Item lines into headings", () =>
    Effect.gen(function*() {
      const converted = yield* parseText(
        "ITEM 5. OTHER EVENTS\n\n     On May 1, 1998, the Company announced that it had\ncompleted the sale of its widget division to a buyer.\n"
      )
      assert.strictEqual(
        converted.markdown,
        "### ITEM 5. OTHER EVENTS\n\nOn May 1, 1998, the Company announced that it had completed the sale of its widget division to a buyer.\n"
      )
    }))
})

describe("Parser.parse of bytes", () => {
  it.effect("picks the HTML or the text path", () =>
    Effect.gen(function*() {
      const html = yield* parseBytes(utf8("<p>One <i>two</i></p>"))
      assert.strictEqual(html.markdown, "One _two_\n")
      const text = yield* parseBytes(utf8("One *two*"), "text/plain")
      assert.strictEqual(text.markdown, "One \\*two\\*\n")
    }))

  it.effect("puts decoding warnings first", () =>
    Effect.gen(function*() {
      const converted = yield* parseBytes(new Uint8Array([...utf8("<p>caf"), 0xe9, ...utf8("</p>")]))
      assert.strictEqual(converted.markdown, "café\n")
      assert.match(converted.warnings[0] ?? "", /windows-1252/)
    }))

  it.effect("rejects content types that are neither HTML nor text", () =>
    Effect.gen(function*() {
      const failure = yield* unreadable(parseBytes(utf8("<p>x</p>"), "application/pdf"))
      assert.strictEqual(failure.reason, "unsupported-format")
    }))
})

describe("Parser.parse: HTML blocks", () => {
  it.effect("gives blocks with their pages and typographic hints", () =>
    Effect.gen(function*() {
      const reading = yield* parseHtml(
        `<html><head><title>10-K</title></head><body>` +
          `<div style="text-align:center"><span style="font-weight:700;font-size:14pt">PART I</span></div>` +
          `<p><i>An italic aside.</i></p>` +
          `<div style="page-break-after:always"><p>Still page one.</p></div>` +
          `<p><u>Underlined</u> and <span style="font-size:16px">plain</span> text on page two.</p>` +
          `<ul><li>first</li><li>second <b>item</b></li></ul>` +
          `<hr style="page-break-after:always"><pre>ITEM 2. PROPERTIES\n\nNone.</pre></body></html>`
      )
      assert.strictEqual(reading.title, "10-K")
      assert.strictEqual(reading.pageCount, 3)
      assert.deepStrictEqual(reading.warnings, [])
      assert.deepStrictEqual(reading.blocks, [
        {
          kind: "heading",
          depth: 2,
          text: "PART I",
          inlines: [{ kind: "text", text: "PART I" }],
          style: { bold: true, italic: false, underline: false, centered: true, fontSizePt: 14 },
          page: 1
        },
        {
          kind: "paragraph",
          text: "An italic aside.",
          inlines: [{ kind: "emphasis", children: [{ kind: "text", text: "An italic aside." }] }],
          style: { bold: false, italic: true, underline: false, centered: false, fontSizePt: undefined },
          page: 1
        },
        {
          kind: "paragraph",
          text: "Still page one.",
          inlines: [{ kind: "text", text: "Still page one." }],
          style: { bold: false, italic: false, underline: false, centered: false, fontSizePt: undefined },
          page: 1
        },
        {
          kind: "paragraph",
          text: "Underlined and plain text on page two.",
          inlines: [{ kind: "text", text: "Underlined and plain text on page two." }],
          style: { bold: false, italic: false, underline: false, centered: false, fontSizePt: 12 },
          page: 2
        },
        {
          kind: "list",
          ordered: false,
          items: [
            { text: "first", inlines: [{ kind: "text", text: "first" }] },
            {
              text: "second item",
              inlines: [{ kind: "text", text: "second " }, {
                kind: "strong",
                children: [{ kind: "text", text: "item" }]
              }]
            }
          ],
          page: 2
        },
        {
          kind: "heading",
          depth: 3,
          text: "ITEM 2. PROPERTIES",
          inlines: [{ kind: "text", text: "ITEM 2. PROPERTIES" }],
          style: { bold: false, italic: false, underline: false, centered: false },
          page: 3
        },
        {
          kind: "paragraph",
          text: "None.",
          inlines: [{ kind: "text", text: "None." }],
          style: { bold: false, italic: false, underline: false, centered: false },
          page: 3
        }
      ])
      assert.strictEqual(
        Blocks.toMarkdown(reading.blocks, 3, 5),
        "Underlined and plain text on page two.\n\n- first\n- second **item**\n"
      )
      assert.strictEqual(Blocks.countWords(reading.blocks, 3, 5), 10)
    }))

  it.effect("numbers pages by <hr> rules when the document has no CSS page breaks", () =>
    Effect.gen(function*() {
      const reading = yield* parseHtml(
        `<p>One.</p><hr><p>Two.</p><hr noshade><hr><p>Three.</p><hr>`
      )
      assert.deepStrictEqual(reading.blocks.map((block) => block.page), [1, 2, 3])
      assert.strictEqual(reading.pageCount, 3)
    }))

  it.effect("removes a table of contents and running headers, and says so", () =>
    Effect.gen(function*() {
      const toc = `<table><tr><td></td><td></td><td>Page</td></tr><tr><td>PART I</td><td></td><td></td></tr>` +
        `<tr><td>Item 1.</td><td>Business</td><td>3</td></tr><tr><td>Item 1A.</td><td>Risk Factors</td><td>5</td></tr>` +
        `<tr><td>Item 2.</td><td>Properties</td><td>9</td></tr><tr><td>Item 3.</td><td>Legal Proceedings</td><td>9</td></tr>` +
        `</table>`
      const pages = ["Business", "Risks", "Properties", "Proceedings"].map((topic, index) =>
        `<div style="page-break-before:always"><p>Acme Corp. 2024 Annual Report</p>` +
        `<p>All about ${topic}, in enough words to be a real paragraph of the report.</p>` +
        `<p>Acme Corp. | page ${index + 3}</p></div>`
      )
      const reading = yield* parseHtml(`<p>Cover page of the report.</p>${toc}${pages.join("")}`)
      assert.deepStrictEqual(reading.warnings, [
        "removed a table of contents (6 rows)",
        "removed 8 running page header/footer line(s): \"Acme Corp. 2024 Annual Report\", \"Acme Corp. | page 3\""
      ])
      assert.deepStrictEqual(reading.blocks.map(blockTextOf), [
        "Cover page of the report.",
        "All about Business, in enough words to be a real paragraph of the report.",
        "All about Risks, in enough words to be a real paragraph of the report.",
        "All about Properties, in enough words to be a real paragraph of the report.",
        "All about Proceedings, in enough words to be a real paragraph of the report."
      ])
    }))
})

const blockTextOf = (block: Blocks.Block): string =>
  block.kind === "paragraph" || block.kind === "heading" ? block.text : block.kind

describe("Parser.parse: text blocks", () => {
  it.effect("numbers pages at <PAGE> markers and form feeds", () =>
    Effect.gen(function*() {
      const reading = yield* parseText(
        "PART I\n\nFirst page text.\n<PAGE>\nSecond page text.\n\f\nThird page text.\n\n     3\n"
      )
      assert.deepStrictEqual(reading.blocks.map((block) => [block.kind, block.page]), [
        ["heading", 1],
        ["paragraph", 1],
        ["paragraph", 2],
        ["paragraph", 3]
      ])
      assert.strictEqual(reading.pageCount, 3)
    }))
})
