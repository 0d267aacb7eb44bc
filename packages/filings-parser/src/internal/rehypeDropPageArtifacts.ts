/**
 * rehype plugin: removes what the printed page adds to a filing: page-break rules, bare page
 * numbers ("12", "- 12 -", "F-7", "iii"), running footers ("Apple Inc. | 2024 Form 10-K | 12") and
 * the "Table of Contents" back-links repeated at the top of each page. Tables are left alone: a
 * lone number in a cell is data.
 */
import type { Element, Root } from "hast"
import type { Plugin } from "unified"
import { blockTags, collapseWhitespace, hasPageBreak } from "./hast.js"

// Longer text is never a page artefact; stop collecting there so large blocks stay cheap.
const limit = 160

const pageNumber = /^(?:[Pp]age\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlc]{1,7}|[A-Z]{1,2}-\s?\d{1,4})\.?\s*[-–—]?$/
const runningFooter = /^[^|]{1,80}(?:\|[^|]{1,80})*\|\s*(?:\d{1,4}|[A-Z]{1,2}-\d{1,4})$/
const tableOfContentsLink = /^(?:back to |return to )?(?:table of contents|index)$/i

interface Summary {
  /** Raw text of the subtree, or `undefined` once it passed `limit`. */
  readonly text: string | undefined
  /** Whether the subtree holds an image or a table, which are never artefacts. */
  readonly content: boolean
}

const hasInternalLink = (node: Element): boolean =>
  node.children.some((child) =>
    child.type === "element" &&
    ((child.tagName === "a" && String(child.properties["href"] ?? "").startsWith("#")) || hasInternalLink(child))
  )

const isArtifact = (node: Element, summary: Summary): boolean => {
  if (summary.content || summary.text === undefined) return false
  const text = collapseWhitespace(summary.text)
  // An empty element that only carries the page break (`<p style="page-break-before:always">`).
  if (text === "") return hasPageBreak(node)
  if (!blockTags.has(node.tagName)) return false
  return pageNumber.test(text) || runningFooter.test(text) || (tableOfContentsLink.test(text) && hasInternalLink(node))
}

/** Cleans the children of `node` (post-order, so a footer's wrappers see it gone) and summarises it. */
const clean = (node: Element | Root): Summary => {
  let text: string | undefined = ""
  let content = false
  const append = (value: string) => {
    if (text === undefined) return
    text += value
    if (text.length > limit) text = undefined
  }
  node.children = node.children.filter((child) => {
    if (child.type === "text") {
      append(child.value)
      return true
    }
    if (child.type !== "element") return true
    if (child.tagName === "table" || child.tagName === "img") {
      content = true
      return true
    }
    if (child.tagName === "hr") return !hasPageBreak(child)
    if (child.tagName === "br") {
      append(" ")
      return true
    }
    const summary = clean(child)
    if (isArtifact(child, summary)) return false
    content ||= summary.content
    if (summary.text === undefined) text = undefined
    else append(blockTags.has(child.tagName) ? ` ${summary.text} ` : summary.text)
    return true
  })
  return { text, content }
}

export const rehypeDropPageArtifacts: Plugin<[], Root> = function() {
  return (tree) => {
    clean(tree)
  }
}
