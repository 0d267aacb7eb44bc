/**
 * The `?section=` filter: finds a section by its name (`Risk Factors`), its item (`Item 1A`, `1A`,
 * `item 1a`, `2.02`, `Part II Item 1A`) or an alias of the item (`MD&A` is Item 7 of a 10-K and
 * Part I Item 2 of a 10-Q). Case, spacing and punctuation do not matter.
 */
import { catalogFor, type ItemForm, itemFormOf, normalizeQuery } from "./catalog.js"

/** What the filter needs of a section (both `DetectedSection` and the API's `Section` have it). */
export interface NamedSection {
  readonly title: string
  readonly item?: string | undefined
  readonly combinedItems?: ReadonlyArray<string> | undefined
}

const itemKeys = (section: NamedSection): ReadonlyArray<string> =>
  section.combinedItems ?? (section.item === undefined ? [] : [section.item])

/** `part2item1a` → `1a`; other keys as they are, normalised. */
const numberOfKey = (key: string): string => normalizeQuery(key).replace(/^part[12]item/, "")

const partOfKey = (key: string): string | undefined => /^part([12])item/.exec(key)?.[1]

/** A section's title without its `Item 1A.` / `Items 1 and 2.` label. */
const unlabeled = (title: string): string =>
  title.replace(/^items?\s+[\dA-Za-z.]+(?:\s*(?:,|and)\s*[\dA-Za-z.]+)*\.?\s+/i, "")

const guessForm = (sections: ReadonlyArray<NamedSection>): ItemForm | undefined => {
  const keys = sections.flatMap(itemKeys)
  if (keys.some((key) => key.startsWith("part"))) return "10-Q"
  if (keys.some((key) => /^\d+\.\d\d$/.test(key))) return "8-K"
  return keys.length > 0 ? "10-K" : undefined
}

/** Finds the section a `?section=` query names, if the document has it. */
export const findSection = <S extends NamedSection>(
  sections: ReadonlyArray<S>,
  query: string,
  form?: string | undefined
): S | undefined => {
  const wanted = normalizeQuery(query)
  if (wanted.length === 0) return undefined
  // `Part II, Item 1A` → part 2, item 1a; `Item 1A` → item 1a.
  const partMatch = /^part(i{1,2}|[12])(?=item)/.exec(wanted)
  const part = partMatch === null ? undefined : partMatch[1] === "i" || partMatch[1] === "1" ? "1" : "2"
  const afterPart = partMatch === null ? wanted : wanted.slice(partMatch[0].length)
  const itemQuery = /^items?(.+)$/.exec(afterPart)?.[1]
  const asNumber = itemQuery ?? wanted

  const byItem = sections.find((section) =>
    itemKeys(section).some((key) =>
      normalizeQuery(key) === wanted
      || (numberOfKey(key) === asNumber && (part === undefined || partOfKey(key) === part))
    )
  )
  if (byItem !== undefined) return byItem

  const byName = sections.find((section) =>
    normalizeQuery(section.title) === wanted || normalizeQuery(unlabeled(section.title)) === wanted
  )
  if (byName !== undefined) return byName

  const itemForm = itemFormOf(form) ?? guessForm(sections)
  if (itemForm !== undefined) {
    for (const item of catalogFor(itemForm).items) {
      const names = [item.title, ...item.aliases].map(normalizeQuery)
      if (!names.includes(wanted)) continue
      const found = sections.find((section) => itemKeys(section).includes(item.key))
      if (found !== undefined) return found
    }
  }
  return sections.find((section) => normalizeQuery(unlabeled(section.title)).startsWith(wanted))
}
