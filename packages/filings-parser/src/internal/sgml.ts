/**
 * Reading an EDGAR full submission (`<accession>.txt`): the `<SEC-HEADER>` (or older
 * `<IMS-HEADER>`) block of `KEY:<tab>value` lines, then one `<DOCUMENT>` per file of the filing,
 * each with `<TYPE>`, `<SEQUENCE>`, `<FILENAME>`, `<DESCRIPTION>` lines and a `<TEXT>` body.
 *
 * The layout is fixed by EDGAR, but files in the wild are truncated, wrapped in a PEM envelope
 * (1990s filings), or lack a header (documents extracted on their own): those are parsed as far as
 * they go, with warnings.
 */
import { Either } from "effect"
import { looksLikeHtml } from "./sniff.js"
import { uuencodedName } from "./uuencode.js"

export interface Entity {
  readonly role: string
  readonly companyName?: string | undefined
  readonly cik?: string | undefined
  readonly fiscalYearEnd?: string | undefined
  readonly standardIndustrialClassification?: string | undefined
  readonly fileNumber?: string | undefined
}

export interface Header {
  readonly accessionNumber?: string | undefined
  readonly form?: string | undefined
  readonly publicDocumentCount?: number | undefined
  readonly periodOfReport?: string | undefined
  readonly filedAsOf?: string | undefined
  readonly acceptedAt?: string | undefined
  readonly items: ReadonlyArray<string>
  readonly companyName?: string | undefined
  readonly cik?: string | undefined
  readonly fiscalYearEnd?: string | undefined
  readonly entities: ReadonlyArray<Entity>
}

export type Format = "html" | "text" | "xml" | "json" | "binary"

export interface Document {
  readonly type: string
  readonly sequence?: number | undefined
  readonly filename?: string | undefined
  readonly description?: string | undefined
  readonly format: Format
  readonly body: string
}

export interface Parsed {
  readonly header: Header
  readonly documents: ReadonlyArray<Document>
  readonly warnings: ReadonlyArray<string>
}

export type ParseProblem = {
  readonly reason: "empty" | "not-a-submission" | "no-documents"
  readonly detail: string
}

interface Field {
  readonly key: string
  readonly value: string
}

const keyValueLine = /^([A-Z][A-Z0-9 ,&()./'-]*?):\s*(.*?)\s*$/
const tagLine = /^<([A-Z0-9][A-Z0-9-]*)>\s*(.*?)\s*$/
const accessionInOpening = /<SEC-DOCUMENT>\s*(\d{10}-\d{2}-\d{6})/
const compactDate = /^(\d{4})(\d{2})(\d{2})$/
const compactDateTime = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/

const validDate = (year: string, month: string, day: string): boolean => {
  const monthNumber = Number(month)
  const dayNumber = Number(day)
  return Number(year) >= 1900 && monthNumber >= 1 && monthNumber <= 12 && dayNumber >= 1 && dayNumber <= 31
}

/** "20191115" -> "2019-11-15"; `undefined` (with a warning) when it is not a date. */
const isoDate = (value: string | undefined, key: string, warnings: Array<string>): string | undefined => {
  if (value === undefined || value === "") return undefined
  const match = compactDate.exec(value)
  if (match !== null && validDate(match[1] ?? "", match[2] ?? "", match[3] ?? "")) {
    return `${match[1]}-${match[2]}-${match[3]}`
  }
  warnings.push(`${key} "${value}" is not a YYYYMMDD date`)
  return undefined
}

/** "20191115060224" -> "2019-11-15T06:02:24" (EDGAR time, America/New_York; no offset given). */
const isoDateTime = (value: string | undefined, warnings: Array<string>): string | undefined => {
  if (value === undefined || value === "") return undefined
  const match = compactDateTime.exec(value)
  if (match !== null && validDate(match[1] ?? "", match[2] ?? "", match[3] ?? "")) {
    return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}`
  }
  warnings.push(`ACCEPTANCE-DATETIME "${value}" is not a YYYYMMDDhhmmss time`)
  return undefined
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === "" ? undefined : value

const first = (fields: ReadonlyArray<Field>, key: string): string | undefined =>
  nonEmpty(fields.find((field) => field.key === key)?.value)

const toEntity = (role: string, fields: ReadonlyArray<Field>): Entity => ({
  role,
  companyName: first(fields, "COMPANY CONFORMED NAME"),
  cik: first(fields, "CENTRAL INDEX KEY"),
  fiscalYearEnd: first(fields, "FISCAL YEAR END"),
  standardIndustrialClassification: first(fields, "STANDARD INDUSTRIAL CLASSIFICATION"),
  fileNumber: first(fields, "SEC FILE NUMBER")
})

// Whose name and CIK the filing is "for" when several entities are listed.
const rolePriority = ["FILER", "SUBJECT COMPANY", "ISSUER", "FILED BY", "REPORTING-OWNER"]

const primaryEntity = (entities: ReadonlyArray<Entity>): Entity | undefined => {
  for (const role of rolePriority) {
    const entity = entities.find((candidate) => candidate.role === role)
    if (entity !== undefined) return entity
  }
  return entities[0]
}

const parseHeader = (block: string, opening: string, warnings: Array<string>): Header => {
  const lines = block.split("\n")
  const top: Array<Field> = []
  const sections: Array<{ readonly role: string; readonly fields: Array<Field> }> = []
  let section: { readonly role: string; readonly fields: Array<Field> } | undefined
  lines.forEach((line, index) => {
    if (line.trim() === "") return
    const indented = /^\s/.test(line)
    const trimmed = line.trim()
    const match = tagLine.exec(trimmed) ?? keyValueLine.exec(trimmed)
    if (match === null) return
    const field = { key: match[1] ?? "", value: match[2] ?? "" }
    if (indented && section !== undefined) {
      section.fields.push(field)
      return
    }
    // "FILER:" with nothing after it and indented lines below opens an entity section.
    const next = lines.slice(index + 1).find((candidate) => candidate.trim() !== "")
    if (!indented && field.value === "" && next !== undefined && /^\s/.test(next)) {
      section = { role: field.key, fields: [] }
      sections.push(section)
      return
    }
    section = undefined
    top.push(field)
  })

  const entities = sections
    .filter((candidate) =>
      candidate.fields.some((field) => field.key === "COMPANY CONFORMED NAME" || field.key === "CENTRAL INDEX KEY")
    )
    .map((candidate) => toEntity(candidate.role, candidate.fields))
  const primary = primaryEntity(entities)
  const documentCount = first(top, "PUBLIC DOCUMENT COUNT")
  return {
    accessionNumber: first(top, "ACCESSION NUMBER") ?? accessionInOpening.exec(opening)?.[1],
    form: first(top, "CONFORMED SUBMISSION TYPE"),
    publicDocumentCount: documentCount !== undefined && /^\d+$/.test(documentCount) ? Number(documentCount) : undefined,
    periodOfReport: isoDate(first(top, "CONFORMED PERIOD OF REPORT"), "CONFORMED PERIOD OF REPORT", warnings),
    filedAsOf: isoDate(first(top, "FILED AS OF DATE"), "FILED AS OF DATE", warnings),
    acceptedAt: isoDateTime(first(top, "ACCEPTANCE-DATETIME"), warnings),
    items: top.filter((field) => field.key === "ITEM INFORMATION" && field.value !== "").map((field) => field.value),
    companyName: primary?.companyName,
    cik: primary?.cik,
    fiscalYearEnd: primary?.fiscalYearEnd,
    entities
  }
}

const wrapper = /^\s*<(XBRL|XML|PDF|JSON)>\s*\n?([\s\S]*?)\s*<\/\1>\s*$/i
const extension = /\.([a-z0-9]+)$/i
const htmlExtensions: ReadonlySet<string> = new Set(["htm", "html", "xhtml"])
const xmlExtensions: ReadonlySet<string> = new Set(["xml", "xsd", "xbrl"])
const binaryExtensions: ReadonlySet<string> = new Set([
  "pdf",
  "jpg",
  "jpeg",
  "gif",
  "png",
  "zip",
  "xls",
  "xlsx",
  "doc",
  "docx"
])

const formatOf = (body: string, filename: string | undefined): Format => {
  if (uuencodedName(body) !== undefined) return "binary"
  const suffix = filename === undefined ? undefined : extension.exec(filename)?.[1]?.toLowerCase()
  if (suffix !== undefined) {
    if (htmlExtensions.has(suffix)) return "html"
    if (xmlExtensions.has(suffix)) return "xml"
    if (suffix === "json") return "json"
    if (binaryExtensions.has(suffix)) return "binary"
  }
  const start = body.trimStart()
  if (start.startsWith("<?xml") && !looksLikeHtml(start.slice(0, 4096))) return "xml"
  return looksLikeHtml(body) ? "html" : "text"
}

const metadata = (head: string, tag: string): string | undefined =>
  nonEmpty(new RegExp(`^<${tag}>(.*)$`, "m").exec(head)?.[1]?.trim())

const parseDocument = (raw: string, ordinal: number, warnings: Array<string>): Document => {
  const textStart = raw.search(/^<TEXT>/m)
  const head = textStart === -1 ? raw : raw.slice(0, textStart)
  const type = metadata(head, "TYPE") ?? ""
  const sequenceText = metadata(head, "SEQUENCE")
  const sequence = sequenceText !== undefined && /^\d+$/.test(sequenceText) ? Number(sequenceText) : undefined
  const filename = metadata(head, "FILENAME")
  const description = metadata(head, "DESCRIPTION")
  const label = `document ${sequence ?? ordinal} (${type === "" ? "no type" : type})`
  if (type === "") warnings.push(`${label} has no <TYPE>`)
  let body = ""
  if (textStart === -1) {
    warnings.push(`${label} has no <TEXT>`)
  } else {
    const contentStart = raw.indexOf("\n", textStart)
    const textEnd = raw.lastIndexOf("</TEXT>")
    if (textEnd === -1) warnings.push(`${label} has no </TEXT> (truncated?)`)
    body = raw.slice(contentStart === -1 ? raw.length : contentStart + 1, textEnd === -1 ? raw.length : textEnd)
    const wrapped = wrapper.exec(body)
    if (wrapped !== null) body = wrapped[2] ?? ""
    body = body.replace(/\s+$/, "\n")
  }
  return { type, sequence, filename, description, format: formatOf(body, filename), body }
}

const documentOpen = /^<DOCUMENT>[ \t]*$/gm

export const parseSubmission = (input: string): Either.Either<Parsed, ParseProblem> => {
  const text = input.replace(/\r\n?/g, "\n")
  if (text.trim() === "") return Either.left({ reason: "empty", detail: "no text" })
  const warnings: Array<string> = []

  const starts = [...text.matchAll(documentOpen)].map((match) => match.index)
  const headerStart = text.search(/^<(?:SEC|IMS)-HEADER>/m)
  if (headerStart === -1 && starts.length === 0) {
    return Either.left({ reason: "not-a-submission", detail: "neither a <SEC-HEADER> nor a <DOCUMENT> was found" })
  }

  let header: Header = { items: [], entities: [] }
  if (headerStart === -1) {
    warnings.push("no <SEC-HEADER>: header fields are unknown")
  } else {
    const openingEnd = text.indexOf("\n", headerStart)
    const closing = text.slice(headerStart).search(/^<\/(?:SEC|IMS)-HEADER>/m)
    const end = closing === -1 ? (starts.find((start) => start > headerStart) ?? text.length) : headerStart + closing
    if (closing === -1) warnings.push("the header has no closing </SEC-HEADER>")
    const opening = text.slice(0, openingEnd === -1 ? text.length : openingEnd)
    header = parseHeader(text.slice(openingEnd === -1 ? end : openingEnd + 1, end), opening, warnings)
  }
  if (starts.length === 0) return Either.left({ reason: "no-documents", detail: "the submission has no <DOCUMENT>" })

  const documents = starts.map((start, index) => {
    const next = starts[index + 1] ?? text.length
    const close = text.indexOf("</DOCUMENT>", start)
    const end = close !== -1 && close < next ? close : next
    const ordinal = index + 1
    if (close === -1 || close > next) warnings.push(`document ${ordinal} has no </DOCUMENT> (truncated?)`)
    return parseDocument(text.slice(start + "<DOCUMENT>".length, end), ordinal, warnings)
  })
  return Either.right({ header, documents, warnings })
}
