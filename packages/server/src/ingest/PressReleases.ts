/**
 * Press releases taken from a filing: the EX-99 exhibits of an 8-K that are news releases (an
 * earnings release under Item 2.02, an announcement under Item 7.01 or 8.01) become documents of
 * their own, `PRESS_RELEASE`, identified by the filing's accession number and the exhibit
 * (`0000796343-23-000041-ex99.1`), with the filing's company and date, the fiscal period they
 * report on (else the filing's), and their own extraction. Exhibits that are no release (financial statements of an acquired business, a
 * presentation, an agreement) stay exhibits only.
 */
import { Ids } from "@filings/domain"
import { CallAnnouncements, Extractor } from "@filings/extractor"
import type { SgmlSubmission } from "@filings/filings-parser"
import { FiscalPeriod, Parser } from "@filings/filings-parser"
import type { DocumentStore } from "@filings/storage"
import { ExtractionStore } from "@filings/storage"
import { Effect, Either } from "effect"
import { writeFeedItem } from "../feed/FeedWriter.js"
import { exhibitDocument, saveExhibitDocument, toStoredExtraction } from "./StoredForms.js"

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

const plainLine = (line: string): string =>
  line.replace(/^#+\s*/, "").replace(/[*_]/g, "").replace(/\\/g, "").replace(/\s+/g, " ").trim()

/** The release's headline: its first heading that reads as one, else its first line that does. */
export const headlineOf = (markdown: string): string | undefined => {
  const lines = markdown.split("\n").filter((line) => !/^\s*(?:\||!\[|$)/.test(line))
  const reads = (line: string) => {
    const text = plainLine(line)
    return text.split(" ").length >= 4 && text.length <= 300 && !notHeadline.test(text) ? text : undefined
  }
  for (const line of lines) {
    if (!line.startsWith("#")) continue
    const text = reads(line)
    if (text !== undefined) return text
  }
  for (const line of lines) {
    const text = reads(line)
    if (text !== undefined) return text
  }
  return undefined
}

export interface SavedRelease {
  readonly document: DocumentStore.DocumentMetadata
  /** The earnings call the release announces, when it names one. */
  readonly call?: CallAnnouncements.CallAnnouncement | undefined
}

/**
 * Saves the filing's press releases as documents with their extraction (idempotent on their ids,
 * like every save). An unreadable exhibit is skipped with a warning in the log: the filing itself
 * is stored already.
 */
export const savePressReleases = Effect.fn("PressReleases.savePressReleases")(function*(
  filing: DocumentStore.DocumentMetadata,
  submission: SgmlSubmission.Submission,
  /** When the filing was published: its releases' time in the feed. */
  publishedAt: string,
  /** The company's name now, for the feed items; the documents keep the filing's. */
  currentName: string = filing.companyName
) {
  const extractions = yield* ExtractionStore.ExtractionStore
  const { fiscalYearEnd } = submission.header
  const saved: Array<SavedRelease> = []
  for (const exhibit of releaseExhibitsOf(submission)) {
    const publicationId = Ids.exhibitDocumentId(filing.publicationId, exhibit.number)
    if (publicationId === undefined) continue
    const bytes = new TextEncoder().encode(exhibit.body)
    const parsed = yield* Effect.either(
      Parser.parse({ bytes, fileName: exhibit.fileName ?? `${publicationId}.htm`, form: "PRESS_RELEASE" })
    )
    if (Either.isLeft(parsed)) {
      yield* Effect.logWarning(`${filing.publicationId}: exhibit ${exhibit.number} unreadable: ${parsed.left.message}`)
      continue
    }
    const release = parsed.right
    const document = exhibitDocument(filing, {
      publicationId,
      docType: "PRESS_RELEASE",
      title: headlineOf(release.markdown) ?? `${filing.companyName} press release ${filing.filingDate}`,
      fileName: exhibit.fileName,
      period: FiscalPeriod.periodOf(release.discussedPeriod, filing.filingDate)
    }, release)
    if (!(yield* saveExhibitDocument(filing, exhibit.number, document))) continue
    const extraction = yield* Extractor.extract({
      bytes,
      parsed: release,
      publicationId,
      filing: { form: "8-K", fiscalYearEnd }
    })
    yield* extractions.save(publicationId, toStoredExtraction(extraction))
    yield* writeFeedItem({ ...document, companyName: currentName }, publishedAt, filing.items)
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
