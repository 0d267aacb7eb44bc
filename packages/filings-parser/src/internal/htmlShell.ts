/**
 * Some "HTML" filings are plain-text filings with `<html><body>` around them: thousands of lines,
 * a handful of HTML tags, and the SGML text-table markup (`<TABLE>`, `<S>`, `<C>`, `<CAPTION>`)
 * inside. Parsed as HTML, their layout collapses into one paragraph and the SGML tables become HTML
 * tables that swallow the text around them. These helpers recognise such a document and unwrap it
 * for the plain-text path.
 */
import { decodeHTMLStrict } from "entities"

const tag = /<\/?([A-Za-z][A-Za-z0-9]*)\b[^<>]*>/g
// The markup of SGML text filings, which is not HTML.
const sgmlTextTags: ReadonlySet<string> = new Set(["s", "c", "caption", "table", "page", "fn", "r"])
const footnoteTag = /^f\d{1,2}$/
const minLines = 100
// Real HTML puts a tag on nearly every line; wrapped text has a few (html, head, body, div, pre...)
// in the whole document.
const maxTagsPer100Lines = 2
const minAllowedTags = 12

const isHtmlTag = (name: string): boolean => {
  const lower = name.toLowerCase()
  return !sgmlTextTags.has(lower) && !footnoteTag.test(lower)
}

// Real HTML has this many tags in its first 64 kB; a wrapped text filing never does.
const sampleLength = 65_536
const manyTagsInSample = 400

export const isTextInHtmlShell = (html: string): boolean => {
  let sampleTags = 0
  for (const match of html.slice(0, sampleLength).matchAll(tag)) {
    if (isHtmlTag(match[1] ?? "") && ++sampleTags > manyTagsInSample) return false
  }
  let lines = 0
  for (let index = html.indexOf("\n"); index !== -1; index = html.indexOf("\n", index + 1)) lines++
  if (lines < minLines) return false
  const allowed = Math.max(minAllowedTags, (lines / 100) * maxTagsPer100Lines)
  let htmlTags = 0
  for (const match of html.matchAll(tag)) {
    if (isHtmlTag(match[1] ?? "") && ++htmlTags > allowed) return false
  }
  return true
}

/** The text of a wrapped text filing: HTML tags and the `<head>` removed, character references decoded. */
export const unwrapHtmlShell = (html: string): string =>
  decodeHTMLStrict(
    html
      .replace(/<head\b[\s\S]*?<\/head>/i, "")
      .replace(tag, (whole, name: string) => isHtmlTag(name) ? "" : whole)
  )
