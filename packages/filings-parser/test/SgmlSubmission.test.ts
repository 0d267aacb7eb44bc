import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Parser, SgmlSubmission } from "../src/index.js"
import { parseSubmission, parseSubmissionDocument } from "./support/parse.js"

// A synthetic submission in EDGAR's layout (tabs, indentation, tags at line starts).
const header = [
  "<SEC-DOCUMENT>0009999999-24-000042.txt : 20240315",
  "<SEC-HEADER>0009999999-24-000042.hdr.sgml : 20240315",
  "<ACCEPTANCE-DATETIME>20240315161500",
  "ACCESSION NUMBER:\t\t0009999999-24-000042",
  "CONFORMED SUBMISSION TYPE:\t8-K",
  "PUBLIC DOCUMENT COUNT:\t\t4",
  "CONFORMED PERIOD OF REPORT:\t20240312",
  "ITEM INFORMATION:\t\tResults of Operations and Financial Condition",
  "ITEM INFORMATION:\t\tFinancial Statements and Exhibits",
  "FILED AS OF DATE:\t\t20240315",
  "DATE AS OF CHANGE:\t\t20240315",
  "",
  "FILER:",
  "",
  "\tCOMPANY DATA:\t",
  "\t\tCOMPANY CONFORMED NAME:\t\t\tACME WIDGETS INC",
  "\t\tCENTRAL INDEX KEY:\t\t\t0009999999",
  "\t\tSTANDARD INDUSTRIAL CLASSIFICATION:\tWIDGETS [9999]",
  "\t\tFISCAL YEAR END:\t\t\t0630",
  "",
  "\tFILING VALUES:",
  "\t\tFORM TYPE:\t\t8-K",
  "\t\tSEC FILE NUMBER:\t001-99999",
  "",
  "\tFORMER COMPANY:\t",
  "\t\tFORMER CONFORMED NAME:\tACME WIDGET CO",
  "\t\tDATE OF NAME CHANGE:\t19990101",
  "",
  "FILER:",
  "",
  "\tCOMPANY DATA:\t",
  "\t\tCOMPANY CONFORMED NAME:\t\t\tACME WIDGETS FUNDING LLC",
  "\t\tCENTRAL INDEX KEY:\t\t\t0008888888",
  "</SEC-HEADER>"
].join("\n")

const documents = [
  "<DOCUMENT>",
  "<TYPE>8-K",
  "<SEQUENCE>1",
  "<FILENAME>acme-20240312.htm",
  "<DESCRIPTION>8-K",
  "<TEXT>",
  "<XBRL>",
  "<html><body><p><b>Item 2.02 Results of Operations and Financial Condition.</b></p>",
  "<p>Acme Widgets Inc. reported record quarterly widget sales.</p></body></html>",
  "</XBRL>",
  "</TEXT>",
  "</DOCUMENT>",
  "<DOCUMENT>",
  "<TYPE>EX-99.1",
  "<SEQUENCE>2",
  "<FILENAME>ex99-1.txt",
  "<DESCRIPTION>PRESS RELEASE",
  "<TEXT>",
  "ACME REPORTS RESULTS",
  "",
  "Springfield -- Acme Widgets Inc. today reported results.",
  "</TEXT>",
  "</DOCUMENT>",
  "<DOCUMENT>",
  "<TYPE>GRAPHIC",
  "<SEQUENCE>3",
  "<FILENAME>cat.txt",
  "<TEXT>",
  "begin 644 cat.txt",
  "#0V%T",
  "`",
  "end",
  "</TEXT>",
  "</DOCUMENT>",
  "<DOCUMENT>",
  "<TYPE>EX-101.SCH",
  "<SEQUENCE>4",
  "<FILENAME>acme-20240312.xsd",
  "<TEXT>",
  "<XBRL>",
  `<?xml version="1.0"?><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>`,
  "</XBRL>",
  "</TEXT>",
  "</DOCUMENT>",
  "</SEC-DOCUMENT>"
].join("\n")

const submission = `${header}\n${documents}\n`

const malformed = (text: string) => Effect.flip(SgmlSubmission.parse(text)).pipe(Effect.map((error) => error.reason))

describe("SgmlSubmission.parse", () => {
  it.effect("reads the header", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parse(submission)
      assert.deepStrictEqual(parsed.header, {
        accessionNumber: "0009999999-24-000042",
        form: "8-K",
        publicDocumentCount: 4,
        periodOfReport: "2024-03-12",
        filedAsOf: "2024-03-15",
        acceptedAt: "2024-03-15T16:15:00",
        items: ["Results of Operations and Financial Condition", "Financial Statements and Exhibits"],
        companyName: "ACME WIDGETS INC",
        cik: "0009999999",
        fiscalYearEnd: "0630",
        entities: [
          {
            role: "FILER",
            companyName: "ACME WIDGETS INC",
            cik: "0009999999",
            fiscalYearEnd: "0630",
            standardIndustrialClassification: "WIDGETS [9999]",
            fileNumber: "001-99999"
          },
          {
            role: "FILER",
            companyName: "ACME WIDGETS FUNDING LLC",
            cik: "0008888888",
            fiscalYearEnd: undefined,
            standardIndustrialClassification: undefined,
            fileNumber: undefined
          }
        ]
      })
      assert.deepStrictEqual(parsed.warnings, [])
    }))

  it.effect("lists the documents, unwrapped, with binary ones flagged", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parse(submission)
      assert.deepStrictEqual(
        parsed.documents.map(({ description, filename, format, sequence, type }) => ({
          type,
          sequence,
          filename,
          description,
          format
        })),
        [
          { type: "8-K", sequence: 1, filename: "acme-20240312.htm", description: "8-K", format: "html" },
          { type: "EX-99.1", sequence: 2, filename: "ex99-1.txt", description: "PRESS RELEASE", format: "text" },
          { type: "GRAPHIC", sequence: 3, filename: "cat.txt", description: undefined, format: "binary" },
          { type: "EX-101.SCH", sequence: 4, filename: "acme-20240312.xsd", description: undefined, format: "xml" }
        ]
      )
      const [primary, exhibit] = parsed.documents
      assert.isTrue(primary?.body.startsWith("<html><body>"))
      assert.notInclude(primary?.body, "XBRL>")
      assert.notInclude(primary?.body, "<TEXT>")
      assert.strictEqual(
        exhibit?.body,
        "ACME REPORTS RESULTS\n\nSpringfield -- Acme Widgets Inc. today reported results.\n"
      )
    }))

  it.effect("decodes a uuencoded document", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parse(submission)
      const graphic = parsed.documents.find((document) => document.format === "binary")
      assert.isDefined(graphic)
      if (graphic === undefined) return
      const bytes = yield* SgmlSubmission.decodeBinary(graphic)
      assert.strictEqual(new TextDecoder().decode(bytes), "Cat")
      const notBinary = yield* Effect.flip(SgmlSubmission.decodeBinary({ ...graphic, body: "hello" }))
      assert.strictEqual(notBinary.reason, "invalid-uuencode")
    }))

  it.effect("accepts CRLF line ends", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parse(submission.replace(/\n/g, "\r\n"))
      assert.strictEqual(parsed.header.accessionNumber, "0009999999-24-000042")
      assert.lengthOf(parsed.documents, 4)
    }))

  it.effect("parses documents without a header, with a warning", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parse(documents)
      assert.deepStrictEqual(parsed.header, { items: [], entities: [] })
      assert.deepStrictEqual(parsed.warnings, ["no <SEC-HEADER>: header fields are unknown"])
      assert.lengthOf(parsed.documents, 4)
    }))

  it.effect("warns about a truncated document and bad dates", () =>
    Effect.gen(function*() {
      const truncated = submission.replace(
        "CONFORMED PERIOD OF REPORT:\t20240312",
        "CONFORMED PERIOD OF REPORT:\t2024031"
      )
        .slice(0, submission.indexOf("</XBRL>"))
      const parsed = yield* SgmlSubmission.parse(truncated)
      assert.isUndefined(parsed.header.periodOfReport)
      assert.deepStrictEqual(parsed.warnings, [
        `CONFORMED PERIOD OF REPORT "2024031" is not a YYYYMMDD date`,
        "document 1 has no </DOCUMENT> (truncated?)",
        "document 1 (8-K) has no </TEXT> (truncated?)"
      ])
      assert.lengthOf(parsed.documents, 1)
    }))

  it.effect("fails with MalformedSubmission on input that is not a submission", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* malformed(""), "empty")
      assert.strictEqual(yield* malformed("<html><body>An HTML page</body></html>"), "not-a-submission")
      assert.strictEqual(yield* malformed(header), "no-documents")
      const error = yield* Effect.flip(SgmlSubmission.parse(header))
      assert.strictEqual(error._tag, "MalformedSubmission")
      assert.strictEqual(error.message, "Malformed submission (no-documents): the submission has no <DOCUMENT>")
    }))
})

describe("SgmlSubmission primary document", () => {
  it.effect("picks sequence 1, which Parser.parse reads", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parse(submission)
      assert.strictEqual(Option.getOrThrow(SgmlSubmission.primaryDocument(parsed)).filename, "acme-20240312.htm")
      const converted = yield* parseSubmission(parsed)
      assert.strictEqual(
        converted.markdown,
        "### Item 2.02 Results of Operations and Financial Condition.\n\nAcme Widgets Inc. reported record quarterly widget sales.\n"
      )
    }))

  it.effect("falls back to the document whose type is the form", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parse(submission.replace("<SEQUENCE>1\n", "<SEQUENCE>5\n"))
      assert.strictEqual(Option.getOrThrow(SgmlSubmission.primaryDocument(parsed)).type, "8-K")
    }))

  it.effect("converts plain-text documents through the text path", () =>
    Effect.gen(function*() {
      const parsed = yield* SgmlSubmission.parse(submission)
      const exhibit = parsed.documents[1]
      assert.isDefined(exhibit)
      if (exhibit === undefined) return
      const converted = yield* parseSubmissionDocument(exhibit)
      assert.strictEqual(
        converted.markdown,
        "ACME REPORTS RESULTS\n\nSpringfield -- Acme Widgets Inc. today reported results.\n"
      )
    }))

  it.effect("fails when no document is readable", () =>
    Effect.gen(function*() {
      const onlyBinary = yield* SgmlSubmission.parse(
        `${header}\n${documents.slice(documents.indexOf("<DOCUMENT>\n<TYPE>GRAPHIC"))}`
      )
      const error = yield* Effect.flip(parseSubmission(onlyBinary))
      assert.strictEqual(error._tag, "MalformedSubmission")
      assert.isTrue(error._tag === "MalformedSubmission" && error.reason === "no-primary-document")
    }))
})

describe("SgmlSubmission.parseBytes", () => {
  it.effect("decodes windows-1252 submissions", () =>
    Effect.gen(function*() {
      // A windows-1252 right double quote (0x94), which is not valid UTF-8, in the primary document.
      const [before, after] = submission.split("record")
      const encode = (text: string | undefined) => new TextEncoder().encode(text ?? "")
      const parsed = yield* SgmlSubmission.parseBytes(new Uint8Array([...encode(before), 0x94, ...encode(after)]))
      assert.include(parsed.documents[0]?.body, "reported \u201d quarterly")
      assert.match(parsed.warnings[0] ?? "", /windows-1252/)
    }))

  it.effect("fails on binary bytes", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(SgmlSubmission.parseBytes(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31])))
      assert.isTrue(error instanceof Parser.UnreadableDocument)
    }))
})
