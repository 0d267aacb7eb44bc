/**
 * What a reader's `section` query means: `Risk Factors`, `Item 1A`, `1A`, `MD&A`, `Item 2.02`.
 * A query names catalogued items (by number, title or alias, in the forms that have them) and, for
 * forms whose sections are named by their headings (S-1, DEF 14A, 6-K), a heading. The same rules
 * serve one document's `?section=` filter and the search across documents.
 *
 * @module
 */
import {
  catalogFor,
  type CatalogItem,
  earlierTitles,
  type ItemForm,
  itemFormOf,
  itemSectionName,
  normalizeQuery
} from "./internal/sections/catalog.js"

// An item answers to its names in every era: a 2018 10-K's section is `Item 6. Selected Financial Data`.
const itemNames = (form: ItemForm, item: CatalogItem): ReadonlyArray<string> => [
  item.key,
  item.number,
  `Item ${item.number}`,
  item.title,
  itemSectionName(form, item),
  ...earlierTitles(form, item).flatMap((title) => [title, `Item ${item.number}. ${title}`]),
  ...item.aliases
]

// `Part II, Item 1A`, `Part 2 Item 1A`, `part2item1a` once normalised: the part and the item after it.
const partQualified = /^part(i{1,2}|[12])(item.+)$/

/**
 * The item keys `query` names in documents of `form` (`["1A"]` for `Risk Factors` in a 10-K); none
 * when the form has no items. A 10-Q numbers items in each of its two parts: `Part II, Item 1` names
 * Part II's item; a bare number or label (`Item 1`, `2`) names Part I's item of that number when Part I
 * has one, else Part II's (`Item 1A`, `Item 6`); a title or alias names its own item (`Legal
 * Proceedings` is Part II, Item 1). Other forms number items once, so a part there only qualifies.
 */
export const itemKeysFor = (query: string, form: string): ReadonlyArray<string> => {
  const itemForm = itemFormOf(form)
  if (itemForm === undefined) return []
  const wanted = normalizeQuery(query)
  if (wanted === "") return []
  const qualified = partQualified.exec(wanted)
  const part = qualified === null ? undefined : qualified[1] === "i" || qualified[1] === "1" ? 1 : 2
  const name = qualified?.[2] ?? wanted
  const named = catalogFor(itemForm).items.filter((item) =>
    // Only a 10-Q's items carry a part; elsewhere the part adds nothing (`Part II, Item 7` of a 10-K).
    (part === undefined || item.part === undefined || item.part === part)
    && itemNames(itemForm, item).some((candidate) => normalizeQuery(candidate) === name)
  )
  // An unqualified number both parts have answers with Part I's item.
  const inPartOne = named.filter((item) => item.part === 1)
  const chosen = part === undefined && inPartOne.length > 0 && named.some((item) => item.part === 2)
    ? inPartOne
    : named
  return chosen.map((item) => item.key)
}

/** Whether the forms' sections are named by their headings rather than catalogued items. */
export const hasNamedSections = (form: string): boolean => itemFormOf(form) === undefined

/** Whether a document's section answers `query`: one of the items it names, or the section's own title. */
export const matches = (
  query: string,
  form: string,
  section: { readonly title: string; readonly item?: string | undefined }
): boolean => {
  const wanted = normalizeQuery(query)
  if (wanted === "") return false
  if (section.item !== undefined && itemKeysFor(query, form).includes(section.item)) return true
  // A heading-named section answers to its whole title only, so `Risk Factors` never also picks up
  // a neighbouring `Summary of Risk Factors`.
  return normalizeQuery(section.title) === wanted
}

/** Every name a form's catalogued items answer to, for messages that say what is available. */
export const catalogNames = (form: string): ReadonlyArray<string> => {
  const itemForm = itemFormOf(form)
  return itemForm === undefined ? [] : catalogFor(itemForm).items.map((item) => itemSectionName(itemForm, item))
}

/**
 * The 8-K item number an ITEM INFORMATION line of a submission header names (`2.02` for "Results
 * of Operations and Financial Condition"). Headers abbreviate long titles, so a title matches when
 * either is the start of the other; the current numbering (since 2004) is the one headers use.
 */
export const eightKItemForTitle = (title: string): string | undefined => {
  const wanted = normalizeQuery(title)
  if (wanted === "") return undefined
  const match = catalogFor("8-K").items
    .filter((item) => item.number.includes("."))
    .find((item) =>
      [item.title, ...item.aliases].some((name) => {
        const known = normalizeQuery(name)
        return wanted.startsWith(known) || known.startsWith(wanted)
      })
    )
  return match?.number
}
