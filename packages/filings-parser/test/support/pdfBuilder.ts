/**
 * Writes small, valid PDFs by hand for tests: Letter pages with Helvetica / Helvetica-Bold text at
 * given positions, an xref table with the real byte offsets, and an optional Title.
 */

export interface PdfTextLine {
  readonly text: string
  /** Left edge of the baseline, points from the page's left edge. */
  readonly x: number
  /** Baseline, points from the page's bottom edge (Letter: 792 high). */
  readonly y: number
  readonly size?: number | undefined
  readonly bold?: boolean | undefined
}

export interface PdfBuildOptions {
  readonly title?: string | undefined
}

/** PDF literal string: backslash, parentheses escaped (text must be Latin-1). */
const literal = (text: string) => `(${text.replace(/[\\()]/g, (character) => `\\${character}`)})`

const contentStream = (lines: ReadonlyArray<PdfTextLine>): string =>
  lines.map((line) =>
    `BT /${line.bold === true ? "F2" : "F1"} ${line.size ?? 11} Tf ${line.x} ${line.y} Td ${literal(line.text)} Tj ET`
  ).join("\n")

/** A PDF whose pages hold the given lines of text. */
export const buildPdf = (pages: ReadonlyArray<ReadonlyArray<PdfTextLine>>, options?: PdfBuildOptions): Uint8Array => {
  const objects: Array<string> = []
  const add = (body: string) => objects.push(body)
  const pageIds = pages.map((_, index) => 5 + index * 2)
  add("<< /Type /Catalog /Pages 2 0 R >>")
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`)
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
  for (const [index, lines] of pages.entries()) {
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${
        pageIds[index]! + 1
      } 0 R >>`
    )
    const stream = contentStream(lines)
    add(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`)
  }
  const infoId = options?.title === undefined ? undefined : objects.length + 1
  if (options?.title !== undefined) add(`<< /Title ${literal(options.title)} /Producer (filings test) >>`)

  let pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
  const offsets: Array<number> = []
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"))
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(pdf, "latin1")
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${infoId === undefined ? "" : ` /Info ${infoId} 0 R`} >>\n`
  pdf += `startxref\n${xref}\n%%EOF\n`
  return new Uint8Array(Buffer.from(pdf, "latin1"))
}
