/**
 * rehype plugin: turns the bold, standalone short lines that EDGAR documents use as headings into
 * real headings, because filings rarely use `<h1>`..`<h6>`. "PART II" becomes a level-2 heading,
 * "Item 1A. Risk Factors" or "Item 2.02 Results of Operations" level 3, any other bold line level 4
 * (or `genericDepth`). This is deliberately simple; labelling sections is a later, separate step.
 *
 * A line is a `p`, `div` or `center` without block descendants whose visible text is all bold
 * (`<b>`, `<strong>` or an inline `font-weight`), outside tables and lists.
 */
import type { Element, ElementContent, Root } from "hast"
import type { Plugin } from "unified"
import { blockTags, boldness, collapseWhitespace, element, text } from "./hast.js"

export interface Options {
  /** Longest text (characters) a bold line may have to become a heading; default 120. */
  readonly maxLength?: number | undefined
  /** Depth of headings that are neither a Part nor an Item; default 4. */
  readonly genericDepth?: 4 | 5 | 6 | undefined
}

const part = /^part\s+(?:i{1,3}|iv|v)\b/i
const item = /^item\s+\d{1,2}[a-z]?(?:\.\d{1,2})?\b/i
const hasLetter = /\p{L}/u
// Not headings: sentence fragments, "(Exact name of registrant ...)" captions, check-box lines,
// fill-in blanks and "Label: value" lines.
const notGenericHeading = /[,;]$|^[\p{Ll}(\[☐☒☑✓✔•·]|__|:\s*\S/u
// Part and Item headings can be long ("Item 5. Market for Registrant's Common Equity, ...").
const maxItemLength = 200

const lineTags: ReadonlySet<string> = new Set(["p", "div", "center"])
const skippedTags: ReadonlySet<string> = new Set(["table", "ul", "ol", "dl", "pre", "h1", "h2", "h3", "h4", "h5", "h6"])

interface Settings {
  readonly maxLength: number
  readonly genericDepth: number
}

interface Line {
  readonly containsBlock: boolean
  /** Raw text, or `undefined` once longer than any heading can be. */
  readonly text: string | undefined
  readonly allBold: boolean
}

const headingDepth = (line: Line, options: Settings): number | undefined => {
  if (line.containsBlock || !line.allBold || line.text === undefined) return undefined
  const value = collapseWhitespace(line.text)
  if (!hasLetter.test(value) || value.length > maxItemLength) return undefined
  if (part.test(value)) return 2
  if (item.test(value)) return 3
  if (value.length > options.maxLength || notGenericHeading.test(value)) return undefined
  return options.genericDepth
}

const visit = (parent: Element | Root, bold: boolean, options: Settings): Line => {
  let containsBlock = false
  let value: string | undefined = ""
  let allBold = true
  const append = (more: string | undefined) => {
    value = value === undefined || more === undefined || value.length + more.length > maxItemLength
      ? undefined
      : value + more
  }
  const children: Array<ElementContent> = []
  for (const child of parent.children) {
    if (child.type === "doctype") continue
    if (child.type !== "element") {
      if (child.type === "text") {
        if (!bold && child.value.trim() !== "") allBold = false
        append(child.value)
      }
      children.push(child)
      continue
    }
    if (skippedTags.has(child.tagName)) {
      containsBlock = true
      children.push(child)
      continue
    }
    if (child.tagName === "br") {
      append(" ")
      children.push(child)
      continue
    }
    const line = visit(child, boldness(child) ?? bold, options)
    const depth = lineTags.has(child.tagName) ? headingDepth(line, options) : undefined
    if (depth !== undefined && line.text !== undefined) {
      children.push(element(`h${depth}`, {}, [text(collapseWhitespace(line.text))]))
    } else {
      children.push(child)
    }
    const isBlock = blockTags.has(child.tagName)
    containsBlock ||= isBlock || line.containsBlock
    allBold &&= line.allBold
    append(isBlock && line.text !== undefined ? ` ${line.text} ` : line.text)
  }
  parent.children = children
  return { containsBlock, text: value, allBold }
}

export const rehypeHeadings: Plugin<[Options?], Root> = function(options) {
  const settings: Settings = {
    maxLength: options?.maxLength ?? 120,
    genericDepth: options?.genericDepth ?? 4
  }
  return (tree) => {
    visit(tree, false, settings)
  }
}
