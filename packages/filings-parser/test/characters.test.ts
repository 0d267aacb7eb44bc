/**
 * The character scans that count without copying agree with the regular expressions they stand
 * for, on ASCII and on Unicode whitespace, letters and digits.
 */
import { assert, describe, it } from "@effect/vitest"
import { collapseSpaces, countWords, isWhitespace, nonWhitespaceLength } from "../src/internal/characters.js"

const samples = [
  "",
  "   ",
  "Net sales increased 2% to $391,035 million.",
  "\tItem 1A.\u00a0Risk Factors\r\n",
  "— | --- | 2024 |",
  "Zürich\u2003Genève\u3000東京 ٣٤٥",
  "a\u200bb", // a zero-width space is not whitespace
  "line\u2028break\u2029paragraph\ufeff",
  "𝐀𝐁 𝟏 —",
  "(1) * * * 12.5%"
]

describe("character scans", () => {
  it("isWhitespace is what \\s matches, code unit by code unit", () => {
    for (let code = 0; code <= 0xffff; code++) {
      assert.strictEqual(isWhitespace(code), /\s/.test(String.fromCharCode(code)), `U+${code.toString(16)}`)
    }
  })

  it("nonWhitespaceLength is the length without \\s", () => {
    for (const sample of samples) {
      assert.strictEqual(nonWhitespaceLength(sample), sample.replace(/\s+/g, "").length, JSON.stringify(sample))
    }
  })

  it("countWords counts whitespace-separated runs with a letter or a number", () => {
    for (const sample of samples) {
      const expected = sample.match(/[^\s]*[\p{L}\p{N}][^\s]*/gu)?.length ?? 0
      assert.strictEqual(countWords(sample), expected, JSON.stringify(sample))
    }
    assert.strictEqual(countWords("Net sales — 2024: $391,035 (in millions)"), 6)
  })

  it("collapseSpaces is replace(/\\s+/g, \" \").trim()", () => {
    for (const sample of [...samples, " lead", "trail ", "one  two", "a\tb"]) {
      assert.strictEqual(collapseSpaces(sample), sample.replace(/\s+/g, " ").trim(), JSON.stringify(sample))
    }
  })
})
