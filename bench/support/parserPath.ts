/**
 * The parser's full path as the parser benchmark measures it: the bytes of one HTML document in,
 * the finished `ParsedDocument` out (decoding, blocks, Markdown, sections, chunks), synchronously
 * (every step is synchronous inside the effect).
 */
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"

export const fullPathName = "Parser.parse({ bytes, contentType: \"text/html\" })"

/** Parses one document; returns the length of its Markdown so the work cannot be optimised away. */
export const runFullPath = (bytes: Uint8Array): number =>
  Effect.runSync(Parser.parse({ bytes, contentType: "text/html" })).markdown.length
