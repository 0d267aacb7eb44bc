/**
 * The first steps of every parse: bytes decoded to text, HTML or plain text read into blocks, and
 * the typed error for input that cannot be read. `Parser` exports the error and the decoding; the
 * readers stay inside the package (`Parser.parse` is the one way in).
 */
import { Effect, Either, Schema } from "effect"
import { decode } from "./charset.js"
import { NestingTooDeep } from "./html/readHtml.js"
import { type DocumentBlocks, readHtmlDocument, readTextDocument } from "./readDocument.js"
import { looksLikeHtml, unusableText } from "./sniff.js"

/**
 * Why a document could not be read. `missing-dependency`: reading it needs an optional peer
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
/** Why a document could not be read. */
export type UnreadableReason = typeof UnreadableReason.Type

/**
 * A document that cannot be read, with the reason and what was found.
 *
 * @example
 * Effect.runPromise(Parser.parse({ bytes: new Uint8Array() })).catch((error) => error.reason) // "empty"
 */
export class UnreadableDocument extends Schema.TaggedError<UnreadableDocument>()("UnreadableDocument", {
  reason: UnreadableReason,
  detail: Schema.String
}) {
  override get message(): string {
    return `Unreadable document (${this.reason}): ${this.detail}`
  }
}

/** Text decoded from bytes. */
export const DecodedText = Schema.Struct({
  text: Schema.String,
  /** WHATWG name of the encoding used ("utf-8", "windows-1252", ...). */
  charset: Schema.String,
  warnings: Schema.Array(Schema.String)
})
/** Text decoded from bytes. */
export type DecodedText = typeof DecodedText.Type

/**
 * Decodes document bytes. The charset comes from a byte-order mark, the `charset` parameter of
 * `contentType`, or a `<meta charset>` / `http-equiv` tag or XML declaration, in that order;
 * undeclared bytes are UTF-8 when valid and windows-1252 otherwise (with a warning). Empty input and
 * binary content (PDF, images, archives, NUL bytes) fail.
 */
export const decodeBytes: (
  bytes: Uint8Array,
  contentType?: string | undefined
) => Effect.Effect<DecodedText, UnreadableDocument> = Effect.fn("Parser.decodeBytes")(
  function*(bytes: Uint8Array, contentType?: string | undefined) {
    const decoded = decode(bytes, contentType)
    if (Either.isLeft(decoded)) return yield* new UnreadableDocument(decoded.left)
    return decoded.right
  }
)

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

const checkUsable = (input: string): Effect.Effect<void, UnreadableDocument> => {
  const problem = unusableText(input)
  return problem === undefined ? Effect.void : Effect.fail(new UnreadableDocument(problem))
}

/**
 * Reads an HTML or inline XBRL document into blocks, with its title, page count and warnings.
 * Fails when the input is empty, binary, has no HTML markup at all or nests elements absurdly deep.
 */
export const readHtmlBlocks = (html: string): Effect.Effect<DocumentBlocks, UnreadableDocument> =>
  Effect.flatMap(checkUsable(html), () =>
    looksLikeHtml(html)
      ? readWith(() => readHtmlDocument(html))
      : Effect.fail(new UnreadableDocument({ reason: "not-html", detail: "no HTML tags found" })))

/** Reads a plain-text document (old EDGAR text filings, the text of an SGML `<DOCUMENT>`) into blocks. */
export const readTextBlocks = (text: string): Effect.Effect<DocumentBlocks, UnreadableDocument> =>
  Effect.flatMap(checkUsable(text), () => readWith(() => readTextDocument(text)))
