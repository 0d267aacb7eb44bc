/**
 * Turns an EDGAR document (HTML, inline XBRL, or plain text) into clean GitHub-flavoured Markdown:
 * hidden XBRL facts, scripts, styles and page furniture removed, inline XBRL text kept, financial
 * tables rebuilt as rectangular GFM tables, and bold "PART I" / "Item 1A." lines made headings.
 *
 * Use the functions directly, or the `FilingsParser` service (`layer`) where the pipeline should be
 * swappable. Unusable input fails with `UnreadableDocument`; everything else succeeds, with any
 * oddities reported in `warnings`.
 */
import { Context, Effect, Either, Layer, Schema } from "effect"
import { decode } from "./internal/charset.js"
import { type Converted, convertHtml, convertText } from "./internal/pipeline.js"
import { looksLikeHtml, unusableText } from "./internal/sniff.js"

/** Why a document could not be converted. */
export const UnreadableReason = Schema.Literal("empty", "binary", "not-html", "unsupported-format", "too-complex")
export type UnreadableReason = typeof UnreadableReason.Type

export class UnreadableDocument extends Schema.TaggedError<UnreadableDocument>()("UnreadableDocument", {
  reason: UnreadableReason,
  detail: Schema.String
}) {
  override get message(): string {
    return `Unreadable document (${this.reason}): ${this.detail}`
  }
}

/** The errors of this module. */
export type FilingsParserError = UnreadableDocument

/** A document converted to Markdown. */
export const ConvertedDocument = Schema.Struct({
  /** GFM Markdown, ending with one newline. */
  markdown: Schema.String,
  /** Whitespace-separated tokens with a letter or digit, table values included. */
  wordCount: Schema.Int,
  /** The HTML `<title>`, when there is a non-empty one. */
  title: Schema.optional(Schema.String),
  /** Things worth knowing that did not stop the conversion (charset fallback, flattened tables). */
  warnings: Schema.Array(Schema.String)
})
export type ConvertedDocument = typeof ConvertedDocument.Type

/** Text decoded from bytes. */
export const DecodedText = Schema.Struct({
  text: Schema.String,
  /** WHATWG name of the encoding used ("utf-8", "windows-1252", ...). */
  charset: Schema.String,
  warnings: Schema.Array(Schema.String)
})
export type DecodedText = typeof DecodedText.Type

const toDocument = (converted: Converted): ConvertedDocument =>
  converted.title === undefined
    ? { markdown: converted.markdown, wordCount: converted.wordCount, warnings: converted.warnings }
    : converted

/**
 * Runs a synchronous conversion. Markup nested thousands of levels deep overflows the stack of the
 * (recursive) unified utilities: that is a property of the input, so it becomes a typed failure;
 * any other exception is a bug and stays a defect.
 */
const convertWith = (convert: () => Converted): Effect.Effect<ConvertedDocument, UnreadableDocument> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(toDocument(convert()))
    } catch (error) {
      return error instanceof RangeError && /call stack/i.test(error.message)
        ? Effect.fail(new UnreadableDocument({ reason: "too-complex", detail: "markup nested too deeply to convert" }))
        : Effect.die(error)
    }
  })

const checkUsable = (input: string): Effect.Effect<void, UnreadableDocument> => {
  const problem = unusableText(input)
  return problem === undefined ? Effect.void : Effect.fail(new UnreadableDocument(problem))
}

/**
 * Decodes document bytes. The charset comes from a byte-order mark, the `charset` parameter of
 * `contentType`, or a `<meta charset>` / `http-equiv` tag or XML declaration, in that order;
 * undeclared bytes are UTF-8 when valid and windows-1252 otherwise (with a warning). Empty input and
 * binary content (PDF, images, archives, NUL bytes) fail.
 */
export const decodeBytes: (
  bytes: Uint8Array,
  contentType?: string | undefined
) => Effect.Effect<DecodedText, UnreadableDocument> = Effect.fn("FilingsParser.decodeBytes")(
  function*(bytes: Uint8Array, contentType?: string | undefined) {
    const decoded = decode(bytes, contentType)
    if (Either.isLeft(decoded)) return yield* new UnreadableDocument(decoded.left)
    return decoded.right
  }
)

/**
 * Converts an HTML or inline XBRL document to Markdown. Fails when the input is empty, binary, or
 * has no HTML markup at all (use `textToMarkdown` for plain text).
 */
export const htmlToMarkdown: (html: string) => Effect.Effect<ConvertedDocument, UnreadableDocument> = Effect.fn(
  "FilingsParser.htmlToMarkdown"
)(function*(html: string) {
  yield* checkUsable(html)
  if (!looksLikeHtml(html)) {
    return yield* new UnreadableDocument({ reason: "not-html", detail: "no HTML tags found" })
  }
  return yield* convertWith(() => convertHtml(html))
})

/**
 * Converts a plain-text document (old EDGAR text filings, the text of an SGML `<DOCUMENT>`) to
 * Markdown, keeping its paragraphs; column-aligned tables stay as fenced code blocks.
 */
export const textToMarkdown: (text: string) => Effect.Effect<ConvertedDocument, UnreadableDocument> = Effect.fn(
  "FilingsParser.textToMarkdown"
)(function*(text: string) {
  yield* checkUsable(text)
  return yield* convertWith(() => convertText(text))
})

const htmlContentType = /^\s*(?:text\/html|application\/xhtml\+xml)\b/i
const textContentType = /^\s*text\/plain\b/i

/**
 * Decodes and converts a document as served: HTML when the content type says so or the text has
 * HTML markup, plain text otherwise. Other declared types (PDF, images, XML) fail with
 * `unsupported-format`. Decoding warnings come first in `warnings`.
 */
export const bytesToMarkdown: (
  bytes: Uint8Array,
  contentType?: string | undefined
) => Effect.Effect<ConvertedDocument, UnreadableDocument> = Effect.fn("FilingsParser.bytesToMarkdown")(
  function*(bytes: Uint8Array, contentType?: string | undefined) {
    if (contentType !== undefined && !htmlContentType.test(contentType) && !textContentType.test(contentType)) {
      return yield* new UnreadableDocument({
        reason: "unsupported-format",
        detail: `content type ${contentType.trim()} is neither HTML nor plain text`
      })
    }
    const decoded = yield* decodeBytes(bytes, contentType)
    const isHtml = contentType !== undefined ? htmlContentType.test(contentType) : looksLikeHtml(decoded.text)
    const converted = yield* (isHtml ? htmlToMarkdown(decoded.text) : textToMarkdown(decoded.text))
    return { ...converted, warnings: [...decoded.warnings, ...converted.warnings] }
  }
)

/** The conversion pipeline as a service, for code that wants it injected (and replaceable in tests). */
export interface Service {
  readonly decodeBytes: typeof decodeBytes
  readonly htmlToMarkdown: typeof htmlToMarkdown
  readonly textToMarkdown: typeof textToMarkdown
  readonly bytesToMarkdown: typeof bytesToMarkdown
}

export class FilingsParser extends Context.Tag("@filings/filings-parser/FilingsParser")<FilingsParser, Service>() {}

export const make: Effect.Effect<Service> = Effect.succeed({
  decodeBytes,
  htmlToMarkdown,
  textToMarkdown,
  bytesToMarkdown
})

export const layer: Layer.Layer<FilingsParser> = Layer.effect(FilingsParser, make)
