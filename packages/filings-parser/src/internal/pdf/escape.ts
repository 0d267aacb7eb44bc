/**
 * Inline Markdown for text read from PDFs and transcripts: the characters that Markdown would
 * otherwise take as syntax are escaped, so the text reads back as itself.
 */

/** Escape `text` so that, as a paragraph or heading, CommonMark/GFM shows it literally. */
export const escapeInline = (text: string): string =>
  text
    .replace(/[\\`*_[\]<>|~]/g, (character) => `\\${character}`)
    // Line-start syntax: headings, block quotes, list markers, thematic breaks.
    .replace(/^([#>+=-])/, "\\$1")
    .replace(/^(\d{1,9})([.)])(\s|$)/, "$1\\$2$3")
