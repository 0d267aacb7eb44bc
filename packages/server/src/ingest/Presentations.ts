/**
 * Investor presentations taken from a filing: the EX-99 exhibits of an 8-K that are slide decks
 * (an earnings deck beside the release, an investor-day presentation), as HTML or as a PDF,
 * become documents of their own, `PRESENTATION`, identified like press releases by the filing's
 * accession number and the exhibit (`0000077476-23-000020-ex99.2`), and get their feed item. A deck
 * is known by its description or file name; an exhibit that reads as a press release is one, not a
 * presentation.
 */
import { Ids } from "@filings/domain"
import { Parser, SgmlSubmission } from "@filings/filings-parser"
import type { DocumentStore } from "@filings/storage"
import { Effect, Either } from "effect"
import { exhibitBlocksOf, headlineOf, type ReadSubmission, releaseExhibitsOf } from "./PressReleases.js"
import { exhibitDocument, storeExhibitDocument } from "./StoredForms.js"

const deckName = /\bpresentation\b|\bslides?\b|\b(?:investor|analyst) day\b|\bdeck\b/i

/** `EX-99.2` → `99.2`; undefined for other exhibit types. */
const exhibit99Number = (type: string): string | undefined => /^EX-(99(?:\.\d{1,3})?)$/i.exec(type.trim())?.[1]

export interface PresentationExhibit {
  readonly number: string
  readonly fileName?: string | undefined
  readonly description?: string | undefined
  readonly document: SgmlSubmission.SubmissionDocument
}

/** The exhibits of a submission that are presentations, in the submission's order. */
export const presentationExhibitsOf = (
  submission: SgmlSubmission.Submission
): ReadonlyArray<PresentationExhibit> => {
  const releases = new Set(releaseExhibitsOf(submission).map((release) => release.number))
  return submission.documents.flatMap((document) => {
    const number = exhibit99Number(document.type)
    if (number === undefined || releases.has(number)) return []
    const isPdf = document.format === "binary" && /\.pdf$/i.test(document.filename ?? "")
    if (!isPdf && document.format !== "html" && document.format !== "text") return []
    const named = deckName.test(document.description ?? "") || deckName.test(document.filename ?? "")
    return named ? [{ number, fileName: document.filename, description: document.description, document }] : []
  })
}

/**
 * The deck as a parsed document: an HTML or text deck from the blocks read with the filing, a PDF
 * (which the filing's parse does not read) from its decoded bytes.
 */
const parseDeck = (read: ReadSubmission, exhibit: PresentationExhibit, publicationId: Ids.PublicationId) => {
  if (exhibit.document.format === "binary") {
    return SgmlSubmission.decodeBinary(exhibit.document).pipe(
      Effect.flatMap((bytes) =>
        Parser.parse({ bytes, fileName: exhibit.fileName ?? `${publicationId}.pdf`, form: "PRESENTATION" })
      ),
      Effect.mapError((error) => error.message)
    )
  }
  const blocks = exhibitBlocksOf(read, exhibit)
  return blocks === undefined
    ? Effect.fail("the parser left it out")
    : Effect.succeed(Parser.fromBlocks({ blocks, form: "PRESENTATION" }))
}

/**
 * Stores the filing's presentations as documents, each with its feed item, through the
 * `DocumentSink`; returns their ids. An
 * unreadable exhibit is skipped with a warning in the log: the filing itself is stored already.
 */
export const savePresentations = Effect.fn("Presentations.savePresentations")(function*(
  filing: DocumentStore.DocumentMetadata,
  read: ReadSubmission,
  /** When the filing was published: its presentations' time in the feed. */
  publishedAt: string,
  /** The company's name now, for the feed items; the documents keep the filing's. */
  currentName: string = filing.companyName
) {
  const saved: Array<Ids.PublicationId> = []
  for (const exhibit of presentationExhibitsOf(read.submission)) {
    const publicationId = Ids.exhibitDocumentId(filing.publicationId, exhibit.number)
    if (publicationId === undefined) continue
    const parsed = yield* Effect.either(parseDeck(read, exhibit, publicationId))
    if (Either.isLeft(parsed)) {
      yield* Effect.logWarning(`${filing.publicationId}: exhibit ${exhibit.number} unreadable: ${parsed.left}`)
      continue
    }
    const deck = parsed.right
    const document = exhibitDocument(filing, {
      publicationId,
      docType: "PRESENTATION",
      title: headlineOf(deck.blocks) ?? exhibit.description ??
        `${filing.companyName} investor presentation ${filing.filingDate}`,
      fileName: exhibit.fileName
    }, deck)
    const stored = yield* storeExhibitDocument(filing, exhibit.number, {
      document,
      currentName,
      publishedAt,
      feedItems: filing.items
    })
    if (!stored) continue
    saved.push(publicationId)
  }
  return saved as ReadonlyArray<Ids.PublicationId>
})
