/**
 * The parse alone, for the browser test: what runs in the Web Worker, with the parser and nothing
 * else, and what the page and Node compare it with.
 */
import { type ParsedDocument, Parser } from "@filings/filings-parser"
import { Effect, Either } from "effect"

/** What the parse gave: enough to name sections and count words, and a digest of all the rest. */
export interface ParseSummary {
  readonly form: string | undefined
  readonly sectionNames: ReadonlyArray<string>
  readonly wordCount: number
  readonly chunkCount: number
  /** SHA-256 of the whole parsed document as JSON: equal digests, equal documents. */
  readonly digest: string
}

/** SHA-256 of `value` as JSON, in hexadecimal (Web Crypto, as in the browser). */
export const sha256 = async (value: unknown): Promise<string> => {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(value)))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** The summary of a parsed document. */
export const summarizeParse = async (parsed: ParsedDocument.ParsedDocument): Promise<ParseSummary> => ({
  form: parsed.form,
  sectionNames: parsed.sections.map((section) => section.title),
  wordCount: parsed.wordCount,
  chunkCount: parsed.chunks.length,
  digest: await sha256(parsed)
})

/** Parses the filing and sums it up (what the worker runs). */
export const parseSummary = async (bytes: Uint8Array): Promise<ParseSummary> =>
  summarizeParse(await Effect.runPromise(Parser.parse({ bytes })))

/** How parsing `bytes` ended: `parsed`, or the failure's tag, reason and message. */
export const parseOutcome = async (bytes: Uint8Array): Promise<string> => {
  const result = await Effect.runPromise(Effect.either(Parser.parse({ bytes })))
  if (Either.isRight(result)) return "parsed"
  const error = result.left
  return `${error._tag} ${error.reason}: ${error.message}`
}
