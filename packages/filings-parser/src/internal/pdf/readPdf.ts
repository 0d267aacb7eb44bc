/**
 * Reads a PDF into blocks with pdfjs-dist (legacy build, the one that runs on Node): the text of
 * every page in reading order, grouped into headings, paragraphs, lists and tables, each with its
 * page, and the running headers, footers and page numbers taken out (see `layout.ts`).
 *
 * pdfjs-dist is an optional peer: it is imported only when a PDF is read, so the rest of the
 * parser loads, bundles and runs (in a browser or a worker too) without it, and a PDF read where
 * it is not installed fails with the `pdfjs-missing` reason. Nothing here imports a `node:` module.
 */
import { Context, Effect, Schema } from "effect"
import type * as PdfjsModule from "pdfjs-dist/legacy/build/pdf.mjs"
import type { Block } from "../blocks.js"
import { dropPageFurniture, type Line, linesToBlocks, pageLines, type PositionedText } from "./layout.js"

/** Why a PDF could not be read. */
export const PdfUnreadableReason = Schema.Literal("not-a-pdf", "encrypted", "corrupt", "too-large", "pdfjs-missing")
export type PdfUnreadableReason = typeof PdfUnreadableReason.Type

export class PdfUnreadable extends Schema.TaggedError<PdfUnreadable>()("PdfUnreadable", {
  reason: PdfUnreadableReason,
  detail: Schema.String
}) {
  override get message(): string {
    return `PDF unreadable (${this.reason}): ${this.detail}`
  }
}

export interface ReadPdfOptions {
  /** Documents with more pages fail with `too-large`. Default 2000. */
  readonly maxPages?: number | undefined
}

export interface PdfContent {
  readonly blocks: Array<Block>
  readonly pageCount: number
  /** The document's Title metadata, when it has a useful one. */
  readonly title?: string | undefined
  readonly warnings: Array<string>
}

export const defaultMaxPages = 2000

// Every ASCII byte decodes to itself, so the header is found byte for byte (no Buffer needed).
const headerDecoder = new TextDecoder("latin1")

/** `%PDF-` in the first KiB: the spec lets a little junk precede the header. */
export const looksLikePdf = (bytes: Uint8Array): boolean =>
  headerDecoder.decode(bytes.subarray(0, 1024)).includes("%PDF-")

export type Pdfjs = typeof PdfjsModule

/** The module of pdfjs-dist the parser reads PDFs with. */
export const pdfjsSpecifier = "pdfjs-dist/legacy/build/pdf.mjs"

/**
 * Imports pdfjs-dist (or `specifier`). The specifier is a variable and bundlers are told to leave
 * the import alone, so a bundle of the parser holds no pdfjs and builds where it is not installed.
 */
export const importPdfjs = (specifier: string = pdfjsSpecifier): Promise<Pdfjs> =>
  import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<Pdfjs>

// Loaded on first use: pdfjs is large and most documents are not PDFs. A failed import is not
// kept, so a later PDF tries again.
let pdfjsModule: Promise<Pdfjs> | undefined
const importPdfjsOnce = (): Promise<Pdfjs> =>
  pdfjsModule ??= importPdfjs().catch((cause: unknown) => {
    pdfjsModule = undefined
    throw cause
  })

/**
 * How `readPdf` gets pdfjs-dist: imported on first use unless a test provides another loader
 * (one that fails, to show what a reader without pdfjs-dist sees).
 */
export class PdfjsLoader extends Context.Reference<PdfjsLoader>()("@filings/filings-parser/PdfjsLoader", {
  defaultValue: (): () => Promise<Pdfjs> => importPdfjsOnce
}) {}

const loadPdfjs = Effect.flatMap(PdfjsLoader, (load) =>
  Effect.tryPromise({
    try: load,
    catch: (cause) =>
      new PdfUnreadable({
        reason: "pdfjs-missing",
        detail: "reading PDFs needs the optional peer dependency pdfjs-dist; install it (npm install pdfjs-dist)" +
          ` where the parser runs (its import failed: ${cause instanceof Error ? cause.message : String(cause)})`
      })
  }))

/**
 * The directory of pdfjs's standard fonts on Node, where pdfjs reads them with fs (a path with its
 * trailing slash); undefined elsewhere. Node's modules come from `process.getBuiltinModule`, only
 * when a PDF is read, so that loading the parser imports nothing from `node:`.
 */
const standardFontDataUrl = (): string | undefined => {
  const node = typeof process === "undefined" ? undefined : process
  if (node?.getBuiltinModule === undefined) return undefined
  const { createRequire } = node.getBuiltinModule("module")
  const { dirname, join } = node.getBuiltinModule("path")
  return join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts/")
}

interface PdfFont {
  readonly bold: boolean
  readonly italic: boolean
}

/** Bold and italic from the font's PostScript name (`ABCDEF+Arial-BoldItalicMT`). */
export const fontFlags = (name: string): PdfFont => ({
  bold: /bold|black|heavy|semibold|demi/i.test(name),
  italic: /italic|oblique/i.test(name)
})

const classifyOpenFailure = (cause: unknown): PdfUnreadable => {
  const name = cause instanceof Error ? cause.name : ""
  const detail = cause instanceof Error ? cause.message : String(cause)
  return new PdfUnreadable({ reason: name === "PasswordException" ? "encrypted" : "corrupt", detail })
}

/** A Title worth showing: not empty, not a file name or an editor's placeholder. */
const usefulTitle = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined
  const title = value.replace(/^Microsoft (?:Word|PowerPoint|Excel) - /, "").replace(/\s+/g, " ").trim()
  // Empty, a placeholder, a file name, or an identifier without words (`0000320193-23-000077`).
  if (/^untitled$/i.test(title) || /\.(?:docx?|pdf|html?|xlsx?|pptx?)$/i.test(title) || !/\p{L}{2}/u.test(title)) {
    return undefined
  }
  return title
}

/**
 * Read the blocks of a PDF. Fails with `PdfUnreadable` for bytes that are not a PDF, a PDF that
 * needs a password, one pdfjs cannot open, or one with more than `maxPages` pages. A page whose
 * text cannot be read becomes a warning.
 */
export const readPdf = Effect.fn("readPdf")(function*(bytes: Uint8Array, options?: ReadPdfOptions) {
  if (!looksLikePdf(bytes)) {
    return yield* new PdfUnreadable({ reason: "not-a-pdf", detail: "no %PDF- header in the first 1024 bytes" })
  }
  const maxPages = options?.maxPages ?? defaultMaxPages
  const pdfjs = yield* loadPdfjs
  const fontDirectory = standardFontDataUrl()
  return yield* Effect.acquireUseRelease(
    Effect.sync(() =>
      pdfjs.getDocument({
        // A plain copy: pdfjs refuses Buffers and may transfer (detach) the buffer it is given.
        data: new Uint8Array(bytes),
        ...(fontDirectory === undefined ? {} : { standardFontDataUrl: fontDirectory }),
        isEvalSupported: false,
        disableFontFace: true,
        useSystemFonts: false,
        verbosity: pdfjs.VerbosityLevel.ERRORS
      })
    ),
    (task) =>
      Effect.gen(function*() {
        const doc = yield* Effect.tryPromise({ try: () => task.promise, catch: classifyOpenFailure })
        if (doc.numPages > maxPages) {
          return yield* new PdfUnreadable({
            reason: "too-large",
            detail: `${doc.numPages} pages, more than the limit of ${maxPages}`
          })
        }
        if (doc.numPages === 0) {
          return yield* new PdfUnreadable({ reason: "corrupt", detail: "the document has no pages" })
        }
        const warnings: Array<string> = []
        const fonts = new Map<string, PdfFont>()
        const pages: Array<Array<Line>> = []
        let failedPages = 0
        for (let number = 1; number <= doc.numPages; number++) {
          const lines = yield* Effect.tryPromise(async () => {
            const page = await doc.getPage(number)
            try {
              const viewport = page.getViewport({ scale: 1 })
              const content = await page.getTextContent()
              const items = content.items.flatMap((item) => "str" in item ? [item] : [])
              // Font names (for bold) are only known once the page's fonts are loaded, which the
              // operator list does; fonts are shared across pages, so this runs on few pages.
              if (items.some((item) => !fonts.has(item.fontName))) {
                await page.getOperatorList()
                for (const item of items) {
                  if (fonts.has(item.fontName)) continue
                  const font: unknown = page.commonObjs.has(item.fontName)
                    ? page.commonObjs.get(item.fontName)
                    : undefined
                  const name =
                    typeof font === "object" && font !== null && "name" in font && typeof font.name === "string"
                      ? font.name
                      : ""
                  fonts.set(item.fontName, fontFlags(name))
                }
              }
              const positioned: Array<PositionedText> = items.map((item) => {
                const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform
                const font = fonts.get(item.fontName) ?? { bold: false, italic: false }
                return {
                  text: item.str,
                  x,
                  y,
                  width: item.width,
                  // Rotated text (b, c non-zero) keeps its size in the vector length.
                  fontSize: Math.max(Math.hypot(c, d), Math.abs(b) > Math.abs(a) ? Math.hypot(a, b) : 0),
                  bold: font.bold,
                  italic: font.italic
                }
              })
              return pageLines({ page: number, width: viewport.width, height: viewport.height, items: positioned })
            } finally {
              page.cleanup()
            }
          }).pipe(
            Effect.catchAll((error) =>
              Effect.sync(() => {
                failedPages++
                warnings.push(`PDF page ${number}: text could not be read (${error.message})`)
                return [] as Array<Line>
              })
            )
          )
          pages.push(lines)
        }
        if (failedPages === doc.numPages) {
          return yield* new PdfUnreadable({ reason: "corrupt", detail: "no page of the document could be read" })
        }
        const { pages: kept } = dropPageFurniture(pages)
        const blocks = linesToBlocks(kept)
        if (blocks.length === 0) warnings.push("PDF has no text layer (scanned images?): no text extracted")
        const metadata = yield* Effect.tryPromise(() => doc.getMetadata()).pipe(Effect.option)
        const info: unknown = metadata._tag === "Some" ? metadata.value.info : undefined
        const title = typeof info === "object" && info !== null && "Title" in info ? usefulTitle(info.Title) : undefined
        const content: PdfContent = {
          blocks,
          pageCount: doc.numPages,
          warnings,
          ...(title === undefined ? {} : { title })
        }
        return content
      }),
    (task) => Effect.promise(() => task.destroy().catch(() => undefined))
  )
})
