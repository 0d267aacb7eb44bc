/**
 * Turns an EDGAR document (HTML, inline XBRL, or plain text) into clean GitHub-flavoured Markdown:
 * hidden XBRL facts, scripts, styles and page furniture removed, inline XBRL text kept, financial
 * tables rebuilt as rectangular GFM tables, and bold "PART I" / "Item 1A." lines made headings.
 *
 * Documents are first read into blocks (`readHtmlBlocks`, `readTextBlocks`, `readBlocks`: headings,
 * paragraphs, lists, tables and preformatted text with their pages and typographic hints: the
 * document model of the `Blocks` module), then rendered (`renderMarkdown`); the `...ToMarkdown`
 * functions do both. Use the functions directly,
 * or the `FilingsParser` service (`layer`) where the conversion should be swappable. Unusable
 * input fails with `UnreadableDocument`; everything else succeeds, with any oddities reported in
 * `warnings`.
 *
 * @module
 */
import { Context, Effect, Either, Layer, Schema } from "effect"
import type { Block } from "./internal/blocks.js"
import { decode } from "./internal/charset.js"
import { NestingTooDeep } from "./internal/html/readHtml.js"
import { countBlockWords, renderMarkdown as renderBlocks } from "./internal/markdown/render.js"
import { type DocumentBlocks, readHtmlDocument, readTextDocument } from "./internal/readDocument.js"
import { looksLikeHtml, unusableText } from "./internal/sniff.js"

export type {
  Block,
  HeadingBlock,
  ListBlock,
  ParagraphBlock,
  PreformattedBlock,
  TableBlock,
  TextStyle
} from "./internal/blocks.js"
export type { DocumentBlocks } from "./internal/readDocument.js"

/**
 * Why a document could not be converted. `missing-dependency`: reading it needs an optional peer
 * dependency that is not installed (pdfjs-dist, for a PDF); the detail says which.
 */
export const UnreadableReason = Schema.Literal(
  "empty",
  "binary",
  "not-html",
  "unsupported-format",
  "too-complex",
  "missing-dependency"
)
export type UnreadableReason = typeof UnreadableReason.Type

/**
 * A document that cannot be converted, with the reason and what was found.
 *
 * @example
 * Effect.runPromise(FilingsParser.htmlToMarkdown("")).catch((error) => error.reason) // "empty"
 */
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

/**
 * Runs a synchronous reader. The readers keep their own element stack, so deep markup cannot
 * overflow the call stack; markup nested thousands of levels deep is refused as `too-complex`
 * (see `maxNestingDepth`). Any other exception is a bug and stays a defect.
 */
const readWith = (read: () => DocumentBlocks): Effect.Effect<DocumentBlocks, UnreadableDocument> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(read())
    } catch (error) {
      return error instanceof NestingTooDeep
        ? Effect.fail(
          new UnreadableDocument({
            reason: "too-complex",
            detail: `markup nested more than ${error.depth} elements deep`
          })
        )
        : Effect.die(error)
    }
  })

/**
 * Renders blocks `[start, end)` (all by default) as GFM Markdown ending with one newline: one
 * blank line between blocks, tables with their first row as header and `|` escaped, preformatted
 * text fenced. Sections and chunks are ranges of a document's blocks.
 */
export const renderMarkdown: (blocks: ReadonlyArray<Block>, start?: number, end?: number) => string = renderBlocks

/** Words in blocks `[start, end)`: whitespace-separated tokens with a letter or digit, table values included. */
export const countWords: (blocks: ReadonlyArray<Block>, start?: number, end?: number) => number = countBlockWords

const toDocument = (reading: DocumentBlocks): ConvertedDocument => {
  const markdown = renderBlocks(reading.blocks)
  const wordCount = countBlockWords(reading.blocks)
  return reading.title === undefined
    ? { markdown, wordCount, warnings: reading.warnings }
    : { markdown, wordCount, title: reading.title, warnings: reading.warnings }
}

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
 * Reads an HTML or inline XBRL document into blocks, with its title, page count and warnings.
 * Fails when the input is empty, binary, has no HTML markup at all (use `readTextBlocks` for plain
 * text) or nests elements absurdly deep.
 */
export const readHtmlBlocks: (html: string) => Effect.Effect<DocumentBlocks, UnreadableDocument> = Effect.fn(
  "FilingsParser.readHtmlBlocks"
)(function*(html: string) {
  yield* checkUsable(html)
  if (!looksLikeHtml(html)) {
    return yield* new UnreadableDocument({ reason: "not-html", detail: "no HTML tags found" })
  }
  return yield* readWith(() => readHtmlDocument(html))
})

/**
 * Reads a plain-text document (old EDGAR text filings, the text of an SGML `<DOCUMENT>`) into
 * blocks, keeping its paragraphs; column-aligned tables stay preformatted.
 */
export const readTextBlocks: (text: string) => Effect.Effect<DocumentBlocks, UnreadableDocument> = Effect.fn(
  "FilingsParser.readTextBlocks"
)(function*(text: string) {
  yield* checkUsable(text)
  return yield* readWith(() => readTextDocument(text))
})

/**
 * Converts an HTML or inline XBRL document to Markdown. Fails when the input is empty, binary, or
 * has no HTML markup at all (use `textToMarkdown` for plain text).
 */
export const htmlToMarkdown: (html: string) => Effect.Effect<ConvertedDocument, UnreadableDocument> = Effect.fn(
  "FilingsParser.htmlToMarkdown"
)(function*(html: string) {
  return toDocument(yield* readHtmlBlocks(html))
})

/**
 * Converts a plain-text document (old EDGAR text filings, the text of an SGML `<DOCUMENT>`) to
 * Markdown, keeping its paragraphs; column-aligned tables stay as fenced code blocks.
 */
export const textToMarkdown: (text: string) => Effect.Effect<ConvertedDocument, UnreadableDocument> = Effect.fn(
  "FilingsParser.textToMarkdown"
)(function*(text: string) {
  return toDocument(yield* readTextBlocks(text))
})

const htmlContentType = /^\s*(?:text\/html|application\/xhtml\+xml)\b/i
const textContentType = /^\s*text\/plain\b/i

/**
 * Decodes and reads a document as served into blocks: HTML when the content type says so or the
 * text has HTML markup, plain text otherwise. Other declared types (PDF, images, XML) fail with
 * `unsupported-format`. Decoding warnings come first in `warnings`.
 */
export const readBlocks: (
  bytes: Uint8Array,
  contentType?: string | undefined
) => Effect.Effect<DocumentBlocks, UnreadableDocument> = Effect.fn("FilingsParser.readBlocks")(
  function*(bytes: Uint8Array, contentType?: string | undefined) {
    if (contentType !== undefined && !htmlContentType.test(contentType) && !textContentType.test(contentType)) {
      return yield* new UnreadableDocument({
        reason: "unsupported-format",
        detail: `content type ${contentType.trim()} is neither HTML nor plain text`
      })
    }
    const decoded = yield* decodeBytes(bytes, contentType)
    const isHtml = contentType !== undefined ? htmlContentType.test(contentType) : looksLikeHtml(decoded.text)
    const reading = yield* (isHtml ? readHtmlBlocks(decoded.text) : readTextBlocks(decoded.text))
    return { ...reading, warnings: [...decoded.warnings, ...reading.warnings] }
  }
)

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
    return toDocument(yield* readBlocks(bytes, contentType))
  }
)

/** The conversion as a service, for code that wants it injected (and replaceable in tests). */
export interface Service {
  /** Bytes to text in their declared or detected charset (the module's `decodeBytes`). */
  readonly decodeBytes: typeof decodeBytes
  /** HTML or inline XBRL to blocks (the module's `readHtmlBlocks`). */
  readonly readHtmlBlocks: typeof readHtmlBlocks
  /** Plain text to blocks (the module's `readTextBlocks`). */
  readonly readTextBlocks: typeof readTextBlocks
  /** Bytes as served to blocks (the module's `readBlocks`). */
  readonly readBlocks: typeof readBlocks
  /** HTML or inline XBRL to Markdown (the module's `htmlToMarkdown`). */
  readonly htmlToMarkdown: typeof htmlToMarkdown
  /** Plain text to Markdown (the module's `textToMarkdown`). */
  readonly textToMarkdown: typeof textToMarkdown
  /** Bytes as served to Markdown (the module's `bytesToMarkdown`). */
  readonly bytesToMarkdown: typeof bytesToMarkdown
}

/** The conversion as a service (`layer`), for code that injects it and replaces it in tests. */
export class FilingsParser extends Context.Tag("@filings/filings-parser/FilingsParser")<FilingsParser, Service>() {}

/** The conversion functions of this module, as the service. */
export const make: Effect.Effect<Service> = Effect.succeed({
  decodeBytes,
  readHtmlBlocks,
  readTextBlocks,
  readBlocks,
  htmlToMarkdown,
  textToMarkdown,
  bytesToMarkdown
})

/** The conversion service, as a layer. */
export const layer: Layer.Layer<FilingsParser> = Layer.effect(FilingsParser, make)
