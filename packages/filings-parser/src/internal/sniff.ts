/**
 * Cheap checks on decoded text: is it usable at all, and is it HTML or plain text?
 */

// Tags that only HTML has: SGML text filings use <TABLE>, <PAGE>, <S>, <C> but never these.
const htmlTag = /<(?:!doctype\s+html|html|head|body|p|div|br|font|tr|td|span|b|i|u|center|h[1-6]|ul|ol|li|a)[\s>/]/i

export const looksLikeHtml = (input: string): boolean => htmlTag.test(input)

const sampleLength = 65536
// Control characters other than tab/newline/carriage return/form feed, and U+FFFD from a bad decode.
const controlCharacter = /[\u0000-\u0008\u000b\u000e-\u001f\ufffd]/g
const maxControlRatio = 0.01

/** Why a string cannot be a document at all, if it cannot. */
export const unusableText = (
  input: string
): { readonly reason: "empty" | "binary"; readonly detail: string } | undefined => {
  if (input.trim() === "") return { reason: "empty", detail: "no text" }
  if (input.startsWith("%PDF-")) return { reason: "binary", detail: "PDF" }
  const sample = input.slice(0, sampleLength)
  const controls = sample.match(controlCharacter)?.length ?? 0
  return controls > Math.max(1, sample.length * maxControlRatio)
    ? { reason: "binary", detail: `${controls} control characters in the first ${sample.length}` }
    : undefined
}
