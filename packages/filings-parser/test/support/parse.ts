/**
 * Test helpers: `Parser.parse` of a string as HTML or plain text, or of bytes with a content type,
 * the way the tests feed documents written inline.
 */
import { Parser, type SgmlSubmission } from "../../src/index.js"

const encoder = new TextEncoder()

/** Parses HTML (or inline XBRL) given as a string. */
export const parseHtml = (html: string) =>
  Parser.parse({ bytes: encoder.encode(html), contentType: "text/html; charset=utf-8" })

/** Parses a plain-text document given as a string. */
export const parseText = (text: string) =>
  Parser.parse({ bytes: encoder.encode(text), contentType: "text/plain; charset=utf-8" })

/** Parses bytes as served, with their content type when known. */
export const parseBytes = (bytes: Uint8Array, contentType?: string) => Parser.parse({ bytes, contentType })

/** Parses a submission already split by `SgmlSubmission.parse`: its primary document and exhibits. */
export const parseSubmission = (submission: SgmlSubmission.Submission) =>
  Parser.parse({ bytes: new Uint8Array(), submission })

/** Parses one document of a submission as its format says: HTML, else plain text. */
export const parseSubmissionDocument = (document: SgmlSubmission.SubmissionDocument) =>
  document.format === "html" ? parseHtml(document.body) : parseText(document.body)
