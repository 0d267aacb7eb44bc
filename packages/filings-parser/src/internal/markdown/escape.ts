/**
 * Escapes plain text for inline GFM Markdown: the characters that would otherwise start emphasis,
 * links, code, raw HTML, autolinks or character references, plus the line-start constructs
 * (headings, quotes, list markers) at the start of a block. It escapes a little more than strictly
 * needed, never less: a stray `\` before punctuation is harmless in Markdown.
 */

const inlineSpecial = /[\\`*[\]]|_(?=\P{L})|(?<=\P{L}|^)_|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)|~(?=~)/gu
const blockStart = /^(?:[#>]|[-+*](?=\s|$)|\d{1,9}(?=[.)](?:\s|$))|=+\s*$)/

const mayNeedEscape = /[\\`*_[\]<&~]/

const escapeInlineMatch = (match: string): string => `\\${match}`

/** Escapes text that sits inside a line (not at its start). */
export const escapeInline = (text: string): string =>
  mayNeedEscape.test(text) ? text.replace(inlineSpecial, escapeInlineMatch) : text

/** Escapes text that opens a block (a paragraph, a heading's text, a list item). */
export const escapeBlockStart = (markdown: string): string => {
  const match = blockStart.exec(markdown)
  if (match === null) return markdown
  const digits = /^\d+/.exec(match[0])
  // `1. text` would become a list: escape the delimiter, not the number.
  if (digits !== null) return `${digits[0]}\\${markdown.slice(digits[0].length)}`
  return `\\${markdown}`
}

/** Escapes text for a GFM table cell: inline escapes plus `|`. */
export const escapeCell = (text: string): string => escapeInline(text).replace(/\|/g, "\\|")
