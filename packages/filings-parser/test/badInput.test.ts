/**
 * Hostile and broken input: every case ends in a typed `UnreadableDocument` or a bounded result,
 * never a hang, a stack overflow or an entity expansion.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Blocks, Parser } from "../src/index.js"
import { parseBytes, parseHtml, parseText } from "./support/parse.js"

const reasonOf = <A, E extends { readonly reason: string }>(effect: Effect.Effect<A, E>) =>
  Effect.flip(effect).pipe(Effect.map((error) => error.reason))

describe("bad input", () => {
  it.effect("empty input fails as empty, on every entry point", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* reasonOf(parseHtml("")), "empty")
      assert.strictEqual(yield* reasonOf(parseText(" \n\t ")), "empty")
      assert.strictEqual(yield* reasonOf(parseBytes(new Uint8Array())), "empty")
      assert.strictEqual(yield* reasonOf(parseHtml("")), "empty")
    }))

  it.effect("binary garbage fails as binary", () =>
    Effect.gen(function*() {
      // A fixed pseudo-random byte stream (xorshift), so the test is the same on every run.
      let state = 0x2545f491
      const bytes = new Uint8Array(64 * 1024).map(() => {
        state ^= state << 13
        state ^= state >>> 17
        state ^= state << 5
        return state & 0xff
      })
      assert.strictEqual(yield* reasonOf(parseBytes(bytes)), "binary")
      assert.strictEqual(yield* reasonOf(parseBytes(bytes, "text/html")), "binary")
    }))

  it.effect("truncated HTML keeps what was read", () =>
    Effect.gen(function*() {
      const whole = `<html><head><title>Report</title></head><body><p>Revenue was <b>$1,234</b> million.</p>` +
        `<table><tr><td>Net sales</td><td>$</td><td>12</td></tr><tr><td>Cost of sales</td><td></td><td>7</td></tr>` +
        `</table><p style="font-weight:bold">Item 2. Properties</p></body></html>`
      const cutInTable = whole.slice(0, whole.indexOf("<td>7"))
      const converted = yield* parseHtml(cutInTable)
      const table = "| Net sales | $12 |\n| --- | --- |\n| Cost of sales |"
      assert.strictEqual(converted.markdown, `Revenue was **$1,234** million.\n\n${table}  |\n`)
      assert.strictEqual(converted.title, "Report")
      // Cut inside an attribute: the unfinished tag is dropped, everything before it kept.
      const cutInTag = yield* parseHtml(whole.slice(0, whole.indexOf("weight:bold") + 5))
      assert.strictEqual(cutInTag.markdown, `Revenue was **$1,234** million.\n\n${table} 7 |\n`)
      const cutInText = yield* parseHtml("<p>Revenue was <b>$1,2")
      assert.strictEqual(cutInText.markdown, "Revenue was **$1,2**\n")
    }))

  it.effect("malformed markup: misnested, stray and unclosed tags", () =>
    Effect.gen(function*() {
      const converted = yield* parseHtml(
        `</table></td><p>One <b>bold <i>both</b> italic?</i> end<p>Two<td>cell outside a table` +
          `<table><tr><td>a<td>b<tr><td>c<td>d</table></tr>` +
          `<div style=display:none>hidden<div>still hidden</div></div><p unquoted=value>Three<!-- never closed <p>Four`
      )
      assert.strictEqual(
        converted.markdown,
        "One **bold _both_** italic? end\n\nTwo\n\ncell outside a table\n\n| a | b |\n| --- | --- |\n| c | d |\n\nThree\n"
      )
    }))

  it.effect("an XML entity bomb is not expanded", () =>
    Effect.gen(function*() {
      const entities = ["<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"]
      for (const [name, previous] of [["b", "a"], ["c", "b"], ["d", "c"], ["e", "d"], ["f", "e"], ["g", "f"]]) {
        entities.push(`<!ENTITY ${name} "${`&${previous};`.repeat(10)}">`)
      }
      const bomb = `<?xml version="1.0"?><!DOCTYPE html [${entities.join("")}]>` +
        `<html><body><p>Total: &g;</p></body></html>`
      const converted = yield* parseHtml(bomb)
      assert.strictEqual(converted.markdown, "Total: \\&g;\n")
    }))

  it.effect("markup nested 100,000 elements deep fails fast as too-complex; 5,000 deep reads", () =>
    Effect.gen(function*() {
      for (const tag of ["div", "span", "font"]) {
        const deep = `<html><body>${`<${tag}>`.repeat(100_000)}deep${`</${tag}>`.repeat(100_000)}</body></html>`
        assert.strictEqual(yield* reasonOf(parseHtml(deep)), "too-complex")
      }
      const nested = `<html><body>${"<font>".repeat(5_000)}still read</body></html>`
      assert.strictEqual((yield* parseHtml(nested)).markdown, "still read\n")
    }))

  it.effect("a 50 MB document converts in bounded time and memory", () =>
    Effect.gen(function*() {
      // Pages that differ (a page repeated verbatim would be a running header or footer).
      const subjects = ["widgets", "gadgets", "sprockets", "gizmos", "doohickeys", "contraptions", "devices"]
      const page = (index: number) =>
        `<div style="page-break-before:always"><p style="font-weight:bold">Item 7. Discussion</p>` +
        `<p>Net sales of ${subjects[index % subjects.length]} <span style="font-size:10pt">increased</span> by ` +
        `<ix:nonFraction>12</ix:nonFraction> percent because of demand.&#160;</p><table><tr><td>Sales</td>` +
        `<td>$</td><td>1,234</td></tr><tr><td>Costs</td><td></td><td>(56</td><td>)</td></tr></table><p>- 3 -</p></div>\n`
      const copies = Math.ceil((50 * 1024 * 1024) / page(0).length)
      const html = `<html><body>${Array.from({ length: copies }, (_, index) => page(index)).join("")}</body></html>`
      assert.isAtLeast(html.length, 50 * 1024 * 1024)
      // The whole parse: blocks, sections (an `Item 7` heading on every page), chunks and Markdown.
      const reading = yield* Parser.parse({ bytes: new TextEncoder().encode(html) })
      // Per page: a heading, a paragraph and a table; the page number is dropped.
      assert.strictEqual(reading.blocks.length, copies * 3)
      assert.strictEqual(reading.pageCount, copies)
      assert.strictEqual(Blocks.countWords(reading.blocks), copies * (3 + 11 + 4))
      assert.strictEqual(reading.wordCount, copies * (3 + 11 + 4))
      assert.strictEqual(reading.chunks[reading.chunks.length - 1]?.blockRange.end, reading.blocks.length)
      assert.deepStrictEqual(reading.blocks[4], {
        kind: "paragraph",
        text: "Net sales of gadgets increased by 12 percent because of demand.",
        inlines: [{ kind: "text", text: "Net sales of gadgets increased by 12 percent because of demand." }],
        style: { bold: false, italic: false, underline: false, centered: false, fontSizePt: 10 },
        page: 2
      })
      // The blocks and their Markdown, not a DOM of the whole document: well under 2 GB resident.
      assert.isBelow(process.memoryUsage().rss, 2 * 1024 * 1024 * 1024)
    }), { timeout: 180_000 })
})
