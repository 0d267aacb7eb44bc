/**
 * Signers and the signing date from a filing's signature page. The page is read as a sequence of
 * short lines (table cells row by row, paragraph lines): a `/s/ Name` line starts a signer, the
 * printed name repeated under it is skipped, the next short line is the title, and the first date
 * written on the page is the signing date.
 */
import type { ExtractedValues } from "@filings/domain"
import type { ParsedDocument } from "@filings/filings-parser"
import { findDate } from "../dates.js"
import { type DocumentPart, partsOf, readParts } from "../tables/documentParts.js"

const signatureHeading = /^SIGNATURES?$/i

/** The signature page: the `Signatures` section, else from a `SIGNATURE(S)` heading to the end of its part. */
const signaturePage = (document: ParsedDocument.ParsedDocument): DocumentPart | undefined => {
  const parts = partsOf(document)
  const section = parts.find((candidate) => /^signatures?$/i.test(candidate.title.trim()))
  if (section !== undefined) return section
  for (const part of parts) {
    for (let index = part.start; index < part.end; index++) {
      const block = part.blocks[index]
      if (block?.kind === "heading" && signatureHeading.test(block.text.trim())) return { ...part, start: index }
    }
  }
  return undefined
}

const slashS = /^(?:by:?\s*)?\/s\/\s*/i
const labelPrefix = /^(?:by|name|title|its|date|dated)\s*:\s*/i
// "(Principal Executive Officer)" says in which capacity the form is signed, not the person's title.
const capacity = /\s*\((?:duly authorized officer and\s+)?principal [^)]*\)/gi

const samePerson = (left: string, right: string): boolean =>
  left.replace(/[^a-z]/gi, "").toLowerCase() === right.replace(/[^a-z]/gi, "").toLowerCase()

const isDateLine = (line: string): boolean => findDate(line) !== undefined && line.replace(labelPrefix, "").length <= 30

// Where the signature page ends when nothing else marks it: the auditor's report on a schedule,
// the schedules, the exhibit index.
const afterSignatures = /report of independent|^schedule\b|exhibit index|^index to|^exhibits?\b|financial statements/i

const roleWord =
  /officer|director|president|chair|secretary|treasurer|controller|counsel|vice|manager|partner|trustee|attorney|member|founder|executive|head|chief|principal|accounting|general|owner|ceo|cfo|coo|vp\b|managing|authorized|signatory|administrator|agent/i

/** `/s/ JONAH SHACKNAI Jonah Shacknai` (signature and printed name in one cell) → `Jonah Shacknai`. */
const printedName = (name: string): string => {
  const words = name.split(" ")
  if (words.length % 2 !== 0) return name
  const half = words.length / 2
  const signed = words.slice(0, half).join(" ")
  const printed = words.slice(half).join(" ")
  return samePerson(signed, printed) ? printed : name
}

/** `David M. Wehner Chief Financial Officer` (printed name and title in one cell) → the title. */
const withoutName = (title: string, name: string): string => {
  const words = title.split(" ")
  const count = name.split(" ").length
  return words.length > count && samePerson(words.slice(0, count).join(" "), name)
    ? words.slice(count).join(" ")
    : title
}

/** The short lines of the signature page in reading order. */
const linesOf = (page: DocumentPart): Array<string> => {
  const lines: Array<string> = []
  for (const block of readParts(page)) {
    if (block.kind === "text" && block.depth > 0 && lines.length > 0 && afterSignatures.test(block.text)) break
    if (block.kind === "text") {
      lines.push(...block.lines)
      continue
    }
    for (const row of block.rows) {
      for (const cell of row) if (cell.trim() !== "") lines.push(cell.trim())
    }
  }
  return lines
}

export const readSignatures = (
  document: ParsedDocument.ParsedDocument
): { readonly signatures?: ExtractedValues.Signatures | undefined; readonly warnings: Array<string> } => {
  const page = signaturePage(document)
  if (page === undefined) return { warnings: ["no signature page found"] }
  const lines = linesOf(page)
  const signers: Array<ExtractedValues.Signer> = []
  let signedDate: string | undefined
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ""
    if (signedDate === undefined && isDateLine(line)) signedDate = findDate(line)
    if (!slashS.test(line) || !/\/s\//i.test(line)) continue
    let name = printedName(line.replace(slashS, "").replace(labelPrefix, "").trim())
    let next = index + 1
    // `/s/` alone on its line: the printed name follows.
    if (name === "") {
      name = (lines[next] ?? "").replace(labelPrefix, "").trim()
      next++
    }
    let title = ""
    for (let look = next; look < Math.min(lines.length, next + 4); look++) {
      const candidate = lines[look] ?? ""
      if (/\/s\//i.test(candidate) || candidate.length > 150) break
      const text = candidate.replace(labelPrefix, "").trim()
      if (text === "" || samePerson(text, name) || isDateLine(candidate) || /^by:?$/i.test(candidate)) continue
      // A line without a role in it is someone else's name (directors listed for an attorney-in-fact).
      if (!roleWord.test(text)) break
      title = withoutName(text, name).replace(capacity, "").trim()
      break
    }
    if (name === "") continue
    if (signers.some((signer) => samePerson(signer.name, name))) continue
    signers.push({ name, title })
  }
  if (signers.length === 0) return { warnings: ["signature page has no /s/ signer"] }
  const warnings: Array<string> = []
  if (signedDate === undefined) warnings.push("signature page has no date")
  return { signatures: { ...(signedDate === undefined ? {} : { signedDate }), signers }, warnings }
}
