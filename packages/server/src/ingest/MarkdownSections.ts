/**
 * Splits a Markdown body at its headings into titled sections. This is the simple split the
 * server uses until the parser labels sections itself (`Item 1A. Risk Factors` and the like, with
 * page numbers); every section is reported on page 1 until then.
 */
import type { DocumentStore } from "@filings/storage"

const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/

export const split = (markdown: string): ReadonlyArray<DocumentStore.StoredSection> => {
  const sections: Array<DocumentStore.StoredSection> = []
  let title = "Cover"
  let lines: Array<string> = []
  const close = () => {
    const content = lines.join("\n").trim()
    if (content !== "" || title !== "Cover") sections.push({ title, content, pageStart: 1, pageEnd: 1 })
  }
  let inFence = false
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence
    const match = inFence ? null : heading.exec(line)
    if (match !== null) {
      close()
      title = match[1]!.replace(/\*\*|__/g, "").trim()
      lines = []
    } else {
      lines.push(line)
    }
  }
  close()
  return sections
}
