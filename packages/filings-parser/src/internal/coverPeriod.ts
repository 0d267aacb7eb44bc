// The period end a filing's cover page prints ("For the fiscal year ended December 31, 2018", "For the
// quarterly period ended June 30, 2018"): documents without inline XBRL or a submission header (old
// HTML, plain text, PDFs) say their period only there, and a filing date would name the wrong year.
import { type Block, blockText } from "./blocks.js"
import { toIsoDate } from "./coverFacts.js"

// The cover comes first; a 10-K's table of contents or forward-looking statements can follow it.
const coverBlocks = 80

const periodLine =
  /\bfor\s+the\s+(?:fiscal\s+)?(?:year|quarterly\s+period|quarter)\s+ended\s*:?\s*([A-Za-z]+\.?\s+\d{1,2}\s*,?\s*\d{4}|\d{1,2}\s+[A-Za-z]+,?\s+\d{4}|\d{4}-\d{2}-\d{2})/i

/** The ISO end date of the period the cover page reports on, when it prints one. */
export const printedPeriodEnd = (blocks: ReadonlyArray<Block>): string | undefined => {
  for (const block of blocks.slice(0, coverBlocks)) {
    if (block.kind === "table" || block.kind === "list") continue
    const date = periodLine.exec(blockText(block))?.[1]
    // PDFs space text oddly ("December 31 , 2018"): one space, no space before the comma.
    const iso = date === undefined ? undefined : toIsoDate(date.replace(/\s+/g, " ").replace(/ ,/g, ","))
    if (iso !== undefined) return iso
  }
  return undefined
}
