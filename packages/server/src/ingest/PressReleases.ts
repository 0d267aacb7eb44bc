/**
 * Press releases taken from a filing: the EX-99 exhibits of an 8-K that are news releases (an
 * earnings release under Item 2.02, an announcement under Item 7.01 or 8.01) become documents of
 * their own, `PRESS_RELEASE`, identified by the filing's accession number and the exhibit
 * (`0000796343-23-000041-ex99.1`), with the filing's company and date, the fiscal period they
 * report on (else the filing's), and their own extraction. Exhibits that are no release (financial statements of an acquired business, a
 * presentation, an agreement) stay exhibits only.
 */
import { Ids } from "@filings/domain"
import { CallAnnouncements } from "@filings/extractor"
import type { ParsedDocument, SgmlSubmission } from "@filings/filings-parser"
import { Blocks, FiscalPeriod, Parser } from "@filings/filings-parser"
import type { DocumentStore } from "@filings/storage"
import { Effect } from "effect"
import { exhibitDocument, storeExhibitDocument } from "./StoredForms.js"

/** What marks an exhibit as a news release: its description, or the newswire dateline in its text. */
const releaseDescription = /\b(?:press|news|earnings)\s+release\b|\bshareholder letter\b/i
const releaseText =
  /\b(?:for immediate release|press release|news release)\b|--\s*\(?(?:business wire|globe newswire)\)?\s*--|\/\s*PRNewswire\s*\/|\/\s*(?:GLOBE NEWSWIRE|ACCESSWIRE|ACCESS Newswire)\s*\//i

/** `EX-99.1` → `99.1`; undefined for other exhibit types. */
const pressExhibitNumber = (type: string): string | undefined => /^EX-(99(?:\.\d{1,3})?)$/i.exec(type.trim())?.[1]

export interface ReleaseExhibit {
  readonly number: string
  readonly fileName?: string | undefined
  readonly body: string
}

/**
 * A full submission as the parser read it: its documents (which exhibits are releases or decks is
 * told from their descriptions and text), and the exhibits read into blocks once, with the filing.
 */
export interface ReadSubmission {
  readonly submission: SgmlSubmission.Submission
  readonly exhibits: ReadonlyArray<ParsedDocument.ParsedExhibit>
}

/**
 * The blocks the parser read for a submission's exhibit, by its number and file name; none when
 * the parser left the exhibit out (it could not be read, and the filing's warnings say why).
 */
export const exhibitBlocksOf = (
  read: ReadSubmission,
  exhibit: { readonly number: string; readonly fileName?: string | undefined }
): ReadonlyArray<Blocks.Block> | undefined =>
  read.exhibits.find((parsed) => parsed.exhibitNumber === exhibit.number && parsed.fileName === exhibit.fileName)
    ?.blocks

/** The exhibits of a submission that are news releases, in the submission's order. */
export const releaseExhibitsOf = (submission: SgmlSubmission.Submission): ReadonlyArray<ReleaseExhibit> =>
  submission.documents.flatMap((document) => {
    const number = pressExhibitNumber(document.type)
    if (number === undefined || document.format !== "html" && document.format !== "text") return []
    const isRelease = releaseDescription.test(document.description ?? "") ||
      releaseText.test(document.body.slice(0, 20_000).replace(/<[^>]{0,2000}>/g, " "))
    return isRelease ? [{ number, fileName: document.filename, body: document.body }] : []
  })

// Lines a release puts before its headline: the exhibit label, contacts, the release marker.
const notHeadline =
  /^(?:ex(?:hibit)?[\s.-]*\d|about\b)|\bcontacts?\b|forward-looking|immediate release|^(?:news|press) release$/i

/** A line that reads as a headline: four words or more, not too long, no label or contact line. */
const readsAsHeadline = (line: string): boolean => {
  const text = line.replace(/\s+/g, " ").trim()
  return text.split(" ").length >= 4 && text.length <= 300 && !notHeadline.test(text)
}

/** The lines a headline may be: every block's but a table's (a table's rows are figures, not headlines). */
const candidateLines = (blocks: ReadonlyArray<Blocks.Block>): Array<string> =>
  blocks.flatMap((block) => (block.kind === "table" ? [] : Blocks.lines(block)))

/**
 * A release's (or a deck's) headline, from its blocks: its first heading that reads as one, else its
 * first line that does (a release whose headline is a bold or centred paragraph, not a heading).
 */
export const headlineOf = (blocks: ReadonlyArray<Blocks.Block>): string | undefined => {
  const headings = blocks.filter((block) => block.kind === "heading")
  const line = candidateLines(headings).find(readsAsHeadline) ?? candidateLines(blocks).find(readsAsHeadline)
  return line?.replace(/\s+/g, " ").trim()
}

export interface SavedRelease {
  readonly document: DocumentStore.DocumentMetadata
  /** The earnings call the release announces, when it names one. */
  readonly call?: CallAnnouncements.CallAnnouncement | undefined
}

/**
 * Stores the filing's press releases as documents with their extraction and feed item, through the
 * `DocumentSink` (idempotent on their ids, like every save). An unreadable exhibit is skipped with a warning in the log: the filing itself
 * is stored already.
 */
export const savePressReleases = Effect.fn("PressReleases.savePressReleases")(function*(
  filing: DocumentStore.DocumentMetadata,
  read: ReadSubmission,
  /** When the filing was published: its releases' time in the feed. */
  publishedAt: string,
  /** The company's name now, for the feed items; the documents keep the filing's. */
  currentName: string = filing.companyName
) {
  const { fiscalYearEnd } = read.submission.header
  const saved: Array<SavedRelease> = []
  for (const exhibit of releaseExhibitsOf(read.submission)) {
    const publicationId = Ids.exhibitDocumentId(filing.publicationId, exhibit.number)
    if (publicationId === undefined) continue
    const blocks = exhibitBlocksOf(read, exhibit)
    if (blocks === undefined) {
      yield* Effect.logWarning(`${filing.publicationId}: exhibit ${exhibit.number} unreadable: the parser left it out`)
      continue
    }
    // The exhibit was read with the filing: its blocks are assembled, not parsed again.
    const release = Parser.fromBlocks({ blocks, form: "PRESS_RELEASE" })
    const document = exhibitDocument(filing, {
      publicationId,
      docType: "PRESS_RELEASE",
      title: headlineOf(release.blocks) ?? `${filing.companyName} press release ${filing.filingDate}`,
      fileName: exhibit.fileName,
      period: FiscalPeriod.periodOf(release.discussedPeriod, filing.filingDate)
    }, release)
    const stored = yield* storeExhibitDocument(filing, exhibit.number, {
      document,
      currentName,
      extraction: {
        // Read only for inline XBRL the exhibit may carry.
        bytes: new TextEncoder().encode(exhibit.body),
        parsed: release,
        filing: { form: "8-K", fiscalYearEnd }
      },
      publishedAt,
      feedItems: filing.items
    })
    if (!stored) continue
    const { body: _body, chunks: _chunks, exhibits: _exhibits, sections: _sections, ...metadata } = document
    saved.push({
      document: metadata,
      call: CallAnnouncements.findCallAnnouncement(release.blocks, filing.filingDate)
    })
  }
  return saved as ReadonlyArray<SavedRelease>
})

/** The instant a release was published, as the filing's acceptance time says, else its filing date. */
export const publishedAtOf = (filing: DocumentStore.DocumentMetadata, acceptedAt: string | undefined): string =>
  acceptedAt !== undefined && !Number.isNaN(Date.parse(acceptedAt))
    ? new Date(acceptedAt).toISOString()
    : `${filing.filingDate}T00:00:00.000Z`
