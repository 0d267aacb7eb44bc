/**
 * Inline XBRL filings are XHTML, and their generators write empty elements as `<td/>`, `<div/>` or
 * `<ix:nonFraction .../>`. An HTML parser ignores the `/` on non-void elements, so `<td
 * style="display:none"/>` would swallow the cells after it and `<a name="x"/>` would turn the rest of
 * a paragraph into a link. Expanding those tags to `<x ...></x>` before parsing keeps the tree the
 * author meant.
 */

const voidElements: ReadonlySet<string> = new Set([
  "area",
  "base",
  "basefont",
  "bgsound",
  "br",
  "col",
  "embed",
  "frame",
  "hr",
  "image",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr"
])

// A start tag whose attribute values may be quoted; attribute values never contain a raw `<`.
const selfClosingTag = /<([A-Za-z][\w:.-]*)((?:\s+(?:[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>]+))?))*)\s*\/>/g

export const expandSelfClosingTags = (html: string): string =>
  html.replace(
    selfClosingTag,
    (tag, name: string, attributes: string) =>
      voidElements.has(name.toLowerCase()) ? tag : `<${name}${attributes}></${name}>`
  )
