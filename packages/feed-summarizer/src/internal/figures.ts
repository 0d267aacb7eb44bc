/**
 * The figures a text states, for the one check a feed must never fail: every number in a highlight
 * is in the passage it cites. Figures are compared as written, digits and decimal point only, so
 * `$1,500.0` in a highlight needs `1500.0` (or `1,500.0`) in the passage, and a rounded or
 * recomputed number counts as unsupported.
 */

const figurePattern = /\d[\d,]*(?:\.\d+)?/g

/** The figures of `text`, thousands separators removed: "$1,234.5 million, up 7%" gives 1234.5 and 7. */
export const figuresOf = (text: string): ReadonlyArray<string> =>
  Array.from(text.matchAll(figurePattern), (match) => match[0].replace(/,(?=\d{3}\b)/g, "").replace(/,$/, ""))

/** The figures of `highlight` that none of `passages` states. */
export const unsupportedFigures = (highlight: string, passages: ReadonlyArray<string>): ReadonlyArray<string> => {
  const stated = new Set(passages.flatMap(figuresOf))
  return [...new Set(figuresOf(highlight))].filter((figure) => !stated.has(figure))
}
