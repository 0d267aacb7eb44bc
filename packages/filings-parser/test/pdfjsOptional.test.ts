/**
 * pdfjs-dist is an optional peer: it is imported only when a PDF is read, and where it cannot be
 * imported a PDF fails with a typed error that says to install it, never a crash. The import is
 * swapped through `PdfjsLoader` for one of a package that is not installed, a real failing import.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { importPdfjs, looksLikePdf, PdfjsLoader, readPdf } from "../src/internal/pdf/readPdf.js"
import * as Parser from "../src/Parser.js"
import { buildPdf } from "./support/pdfBuilder.js"

const pdf = buildPdf([[{ text: "Quarterly results", x: 72, y: 700 }]])

/** An import that fails the way pdfjs-dist's does where it is not installed. */
const absentPdfjs = () => importPdfjs("pdfjs-dist-not-installed/legacy/build/pdf.mjs")

describe("pdfjs-dist, an optional peer", () => {
  it.effect("without it, a PDF fails with UnreadableDocument missing-dependency, naming pdfjs-dist", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Parser.parse({ bytes: pdf })).pipe(
        Effect.provideService(PdfjsLoader, absentPdfjs)
      )
      assert.strictEqual(error._tag, "UnreadableDocument")
      if (error._tag !== "UnreadableDocument") return
      assert.strictEqual(error.reason, "missing-dependency")
      assert.include(error.message, "npm install pdfjs-dist")
      assert.include(error.message, "pdfjs-dist-not-installed", "the failed import is quoted")

      const direct = yield* Effect.flip(readPdf(pdf)).pipe(Effect.provideService(PdfjsLoader, absentPdfjs))
      assert.deepStrictEqual([direct._tag, direct.reason], ["PdfUnreadable", "pdfjs-missing"])
    }))

  it.effect("bytes declared a PDF that are none are refused as before, without asking for pdfjs", () =>
    Effect.gen(function*() {
      const declared = yield* Effect.flip(
        Parser.parse({ bytes: new TextEncoder().encode("%PD"), fileName: "report.pdf" })
      ).pipe(Effect.provideService(PdfjsLoader, absentPdfjs))
      // Not a PDF after all: refused before pdfjs is needed.
      assert.strictEqual(declared._tag, "UnreadableDocument")
      if (declared._tag === "UnreadableDocument") assert.strictEqual(declared.reason, "unsupported-format")
    }))

  it.effect("HTML, text, submissions and transcripts are read without loading pdfjs", () =>
    Effect.gen(function*() {
      let loads = 0
      const countingLoader = () => {
        loads++
        return absentPdfjs()
      }
      const encode = (text: string) => new TextEncoder().encode(text)
      const inputs: ReadonlyArray<Parser.ParseInput> = [
        { bytes: encode("<html><body><h1>Item 1. Business</h1><p>We make things.</p></body></html>") },
        { bytes: encode("ITEM 1. BUSINESS\n\nWe make things.\n") },
        {
          bytes: encode(
            "<SEC-DOCUMENT>\n<SEC-HEADER>\nCONFORMED SUBMISSION TYPE:\t8-K\n</SEC-HEADER>\n<DOCUMENT>\n<TYPE>8-K\n" +
              "<SEQUENCE>1\n<FILENAME>a.htm\n<TEXT>\n<html><body><p>Item 2.02 Results</p></body></html>\n</TEXT>\n" +
              "</DOCUMENT>\n</SEC-DOCUMENT>\n"
          )
        },
        {
          bytes: encode(JSON.stringify({ turns: [{ speaker: "Operator", text: "Welcome to the call." }] })),
          fileName: "call.json",
          form: "EARNINGS_CALL"
        }
      ]
      for (const input of inputs) {
        const parsed = yield* Parser.parse(input).pipe(Effect.provideService(PdfjsLoader, countingLoader))
        assert.isAbove(parsed.wordCount, 0)
      }
      assert.strictEqual(loads, 0)
      // The same loader is asked for a PDF: the count shows it is the one in use.
      yield* Effect.either(Parser.parse({ bytes: pdf })).pipe(Effect.provideService(PdfjsLoader, countingLoader))
      assert.strictEqual(loads, 1)
    }))

  it.effect("with it installed, the default loader reads the PDF", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: pdf })
      assert.include(parsed.markdown, "Quarterly results")
    }))
})

describe("looksLikePdf", () => {
  const bytesOf = (text: string) => new TextEncoder().encode(text)

  it("finds %PDF- in the first KiB, after junk too, and not beyond it", () => {
    assert.isTrue(looksLikePdf(bytesOf("%PDF-1.7\n")))
    assert.isTrue(looksLikePdf(bytesOf(`${"\u00e9".repeat(100)}%PDF-1.4`)))
    assert.isFalse(looksLikePdf(bytesOf(`${" ".repeat(1024)}%PDF-1.4`)))
    assert.isFalse(looksLikePdf(bytesOf("%PDF")))
    assert.isFalse(looksLikePdf(new Uint8Array()))
  })

  it("reads a view at its own offset, not the start of its buffer", () => {
    const whole = bytesOf("%PDF-1.7 then <html>")
    assert.isFalse(looksLikePdf(whole.subarray(9)))
    assert.isTrue(looksLikePdf(bytesOf(`<html>%PDF-1.7`).subarray(6)))
  })
})
