/**
 * Which EX-99 exhibits of an 8-K become documents of their own: news releases, and slide decks as
 * HTML or PDF; an exhibit that is neither (an acquired business's financial statements) stays an
 * exhibit.
 */
import { assert, describe, it } from "@effect/vitest"
import { SgmlSubmission } from "@filings/filings-parser"
import { Effect } from "effect"
import { presentationExhibitsOf } from "../src/ingest/Presentations.js"
import { releaseExhibitsOf } from "../src/ingest/PressReleases.js"

/** Bytes in uuencoding, as EDGAR wraps a PDF in a submission. */
const uuencode = (name: string, bytes: Uint8Array): string => {
  const char = (value: number) => String.fromCharCode(value === 0 ? 96 : value + 32)
  const lines = [`begin 644 ${name}`]
  for (let offset = 0; offset < bytes.length; offset += 45) {
    const line = bytes.subarray(offset, offset + 45)
    let text = char(line.length)
    for (let i = 0; i < line.length; i += 3) {
      const [a = 0, b = 0, c = 0] = [line[i], line[i + 1], line[i + 2]]
      text += char(a >> 2) + char(((a & 3) << 4) | (b >> 4)) + char(((b & 15) << 2) | (c >> 6)) + char(c & 63)
    }
    lines.push(text)
  }
  lines.push(char(0), "end")
  return lines.join("\n")
}

const exhibit = (sequence: number, type: string, fileName: string, description: string, text: string) =>
  [
    "<DOCUMENT>",
    `<TYPE>${type}`,
    `<SEQUENCE>${sequence}`,
    `<FILENAME>${fileName}`,
    `<DESCRIPTION>${description}`,
    "<TEXT>",
    text,
    "</TEXT>",
    "</DOCUMENT>"
  ].join("\n")

const submission = [
  "<SEC-DOCUMENT>0000999301-26-000001.txt : 20261102",
  "<SEC-HEADER>0000999301-26-000001.hdr.sgml : 20261102",
  "ACCESSION NUMBER:\t\t0000999301-26-000001",
  "CONFORMED SUBMISSION TYPE:\t8-K",
  "FILED AS OF DATE:\t\t20261102",
  "</SEC-HEADER>",
  exhibit(1, "8-K", "acme-8k.htm", "8-K", "<html><body><p>Item 2.02 Results.</p></body></html>"),
  exhibit(2, "EX-99.1", "acme-ex991.htm", "PRESS RELEASE", "<html><body><p>Acme reports results.</p></body></html>"),
  exhibit(3, "EX-99.2", "acme-ex992.htm", "INVESTOR PRESENTATION", "<html><body><h1>Q3 slides</h1></body></html>"),
  exhibit(
    4,
    "EX-99.3",
    "acme-slides.pdf",
    "EX-99.3",
    uuencode("acme-slides.pdf", new TextEncoder().encode("%PDF-1.4\n%%EOF\n"))
  ),
  exhibit(
    5,
    "EX-99.4",
    "acme-ex994.htm",
    "FINANCIAL STATEMENTS OF BUSINESS ACQUIRED",
    "<html><body><p>Balance sheet.</p></body></html>"
  ),
  "</SEC-DOCUMENT>"
].join("\n")

describe("exhibits that become documents", () => {
  it.effect("a press release, and decks as HTML or PDF; other EX-99 exhibits stay exhibits", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parseBytes(new TextEncoder().encode(submission))
      assert.deepStrictEqual(releaseExhibitsOf(parsed).map((release) => release.number), ["99.1"])
      const decks = presentationExhibitsOf(parsed)
      assert.deepStrictEqual(decks.map((deck) => [deck.number, deck.fileName]), [
        ["99.2", "acme-ex992.htm"],
        ["99.3", "acme-slides.pdf"]
      ])
      // The PDF is kept in the submission's uuencoding and decodes to its bytes.
      const pdf = yield* SgmlSubmission.decodeBinary(decks[1]!.document)
      assert.strictEqual(new TextDecoder().decode(pdf), "%PDF-1.4\n%%EOF\n")
    }))
})
