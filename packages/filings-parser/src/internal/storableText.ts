// Text every store can keep: PostgreSQL refuses NUL (U+0000) in text and JSON, and a lone UTF-16
// surrogate has no UTF-8 form. PDFs whose fonts map glyphs to code 0 give NULs; other C0 control
// characters are never text either. Every parsed document is cleaned once, on its way out.

// C0 controls except tab, line feed and carriage return; lone surrogates (no `u` flag: code units).
const unstorable =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** `text` without control characters other than whitespace; a lone surrogate becomes U+FFFD. */
export const storableText = (text: string): string =>
  text.replace(unstorable, (character) => (character.charCodeAt(0) >= 0xd800 ? "\uFFFD" : ""))

// What may need cleaning: a control character, or any surrogate (a pair is kept, so the full
// pattern decides). One character class, without lookarounds, is the cheap test of every string.
const mayBeUnstorable = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/
const hasUnstorable = (text: string): boolean => mayBeUnstorable.test(text) && new RegExp(unstorable.source).test(text)

// Nearly every document is clean: what has nothing to clean is returned as it is, not copied.
const cleanValue = (value: unknown): unknown => {
  if (typeof value === "string") return hasUnstorable(value) ? storableText(value) : value
  if (Array.isArray(value)) {
    let cleaned: Array<unknown> | undefined
    value.forEach((item: unknown, index) => {
      const clean = cleanValue(item)
      if (clean !== item) (cleaned ??= value.slice())[index] = clean
    })
    return cleaned ?? value
  }
  if (value instanceof Map) {
    let cleaned: Map<unknown, unknown> | undefined
    for (const [key, field] of value) {
      const clean = cleanValue(field)
      if (clean !== field) (cleaned ??= new Map(value)).set(key, clean)
    }
    return cleaned ?? value
  }
  if (value !== null && typeof value === "object") {
    let cleaned: Record<string, unknown> | undefined
    for (const [key, field] of Object.entries(value)) {
      const clean = cleanValue(field)
      if (clean !== field) (cleaned ??= { ...value })[key] = clean
    }
    return cleaned ?? value
  }
  return value
}

/**
 * Plain data (objects, arrays, maps, strings, numbers) with every string made storable; the shape is
 * unchanged. Parts with nothing to clean are the same objects, not copies.
 */
export const storableData = <T>(value: T): T => cleanValue(value) as T
