/**
 * EDGAR serves the documents of older filings with the SGML envelope of the full submission
 * still around them (`<DOCUMENT>`, `<TYPE>10-K`, `<SEQUENCE>1`, `<FILENAME>`, `<DESCRIPTION>`,
 * `<TEXT>` ... `</TEXT>`, `</DOCUMENT>`). Those lines are metadata, not content: an HTML parser
 * would show them as a first paragraph ("10-K 1 crr-10k_20171231.htm 10-K").
 */

const envelopeStart = /^\s*<DOCUMENT>[ \t]*\n(?:<(?:TYPE|SEQUENCE|FILENAME|DESCRIPTION)>[^\n]*\n)*<TEXT>[ \t]*\n/
const envelopeEnd = /\n<\/TEXT>\s*(?:<\/DOCUMENT>\s*)?$/

const mayHaveEnvelope = /^\s*<DOCUMENT>/

export const stripDocumentEnvelope = (input: string): string => {
  // Most documents have none: skip normalising the line ends of a multi-megabyte string.
  if (!mayHaveEnvelope.test(input.slice(0, 256))) return input
  const text = input.replace(/\r\n?/g, "\n")
  const start = envelopeStart.exec(text)
  if (start === null) return input
  return text.slice(start[0].length).replace(envelopeEnd, "\n")
}
