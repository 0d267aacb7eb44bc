/**
 * Parsed text is text every database stores: NUL and the other control characters but tab and line
 * breaks are dropped, lone surrogates become U+FFFD, whatever the format (the PDF with NUL bytes is a
 * fixture of `fixtures.test.ts`).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Parser } from "../src/index.js"
import { storableData, storableText } from "../src/internal/storableText.js"

const hasUnstorable = (text: string): boolean =>
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
    .test(text)

describe("storable text", () => {
  it("drops control characters, keeps whitespace and surrogate pairs, replaces lone surrogates", () => {
    assert.strictEqual(storableText("a\u0000b\u0001c\u001Fd\te\nf\r\ng"), "abcd\te\nf\r\ng")
    assert.strictEqual(storableText("x\uD800y\uDC00z"), "x\uFFFDy\uFFFDz")
    assert.strictEqual(storableText("chart \uD83D\uDCC8 up"), "chart \uD83D\uDCC8 up")
  })

  it("cleans nested data without copying what is clean or changing its input", () => {
    const clean = { blocks: [{ kind: "paragraph", text: "fine", page: 1 }], title: undefined }
    assert.strictEqual(storableData(clean), clean)
    const dirty = { blocks: [clean.blocks[0], { kind: "paragraph", text: "a\u0000b", page: 2 }], count: 2 }
    const cleaned = storableData(dirty)
    assert.deepStrictEqual(cleaned, { blocks: [clean.blocks[0], { kind: "paragraph", text: "ab", page: 2 }], count: 2 })
    assert.strictEqual(cleaned.blocks[0], clean.blocks[0])
    assert.strictEqual(dirty.blocks[1]?.text, "a\u0000b")
  })

  it.effect("a transcript whose JSON escapes a NUL and a lone surrogate is parsed into storable text", () =>
    Effect.gen(function*() {
      const json = JSON.stringify({
        title: "Widget Q3\u0000 2024 Earnings Call",
        prepared_remarks: [{ speaker: "Ann Chu", text: "We had a record\u0000 quarter \uD800 of growth." }],
        questions_and_answers: [{ speaker: "Bo Li", text: "What about\u0007 margins?" }]
      })
      const parsed = yield* Parser.parse({ bytes: new TextEncoder().encode(json), fileName: "call.json" })
      assert.include(parsed.markdown, "We had a record quarter \uFFFD of growth.")
      assert.include(parsed.markdown, "What about margins?")
      assert.isFalse(hasUnstorable(parsed.markdown))
      for (
        const text of [
          parsed.title ?? "",
          ...parsed.sections.map((s) => s.title + s.content),
          ...parsed.chunks.map((c) => c.text)
        ]
      ) {
        assert.isFalse(hasUnstorable(text), text)
      }
    }))
})
