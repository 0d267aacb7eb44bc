/**
 * Character tests read one UTF-16 code unit at a time, for scans of a whole document's text that
 * count rather than copy (a regular expression's `replace` or `match` makes a string or an array).
 */

/** Whether the code unit is one `\s` matches. */
export const isWhitespace = (code: number): boolean =>
  code === 32 || (code >= 9 && code <= 13) ||
  (code >= 0xa0 &&
    (code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
      code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff))

const letterOrNumber = /[\p{L}\p{N}]/u

/** Whether the character at `index` (a code point, whole where it is a surrogate pair) is a letter or a number. */
export const isLetterOrNumberAt = (text: string, index: number): boolean => {
  const code = text.charCodeAt(index)
  if (code < 0x80) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
  return letterOrNumber.test(String.fromCodePoint(text.codePointAt(index) ?? code))
}

/** The length of `text` without its whitespace. */
export const nonWhitespaceLength = (text: string): number => {
  let count = 0
  for (let index = 0; index < text.length; index++) {
    if (!isWhitespace(text.charCodeAt(index))) count++
  }
  return count
}

/** Words in a text: runs of non-whitespace with at least one letter or number. */
export const countWords = (text: string): number => {
  let words = 0
  let inWord = false
  let counted = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (isWhitespace(code)) {
      inWord = false
      continue
    }
    if (!inWord) {
      inWord = true
      counted = false
    }
    if (!counted && isLetterOrNumberAt(text, index)) {
      words++
      counted = true
    }
  }
  return words
}

// Whitespace other than single spaces inside the text, or at either end: only then is there
// something to collapse.
const spacesToCollapse = /[^\S ]| {2}|^ | $/

/** `replace(/\s+/g, " ").trim()`, without building a new string for text already single-spaced. */
export const collapseSpaces = (text: string): string =>
  spacesToCollapse.test(text) ? text.replace(/\s+/g, " ").trim() : text
