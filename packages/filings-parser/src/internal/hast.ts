/**
 * Small hast helpers shared by the rehype plugins: element tests, inline style checks and text
 * collection. The unified collective has packages for most of these, but they are not dependencies
 * of this package, and the EDGAR-specific variants (bold via inline style) are a few lines each.
 */
import type { Element, ElementContent, Nodes, Parents, Properties, Text } from "hast"

/** Elements that start a new block when rendered; text on either side of them is not joined. */
export const blockTags: ReadonlySet<string> = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "html",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "xmp"
])

export const isElement = (node: Nodes | undefined): node is Element => node !== undefined && node.type === "element"

export const isParent = (node: Nodes): node is Parents => node.type === "element" || node.type === "root"

export const isBlock = (node: Nodes): boolean => isElement(node) && blockTags.has(node.tagName)

export const element = (
  tagName: string,
  properties: Properties,
  children: Array<ElementContent>
): Element => ({ type: "element", tagName, properties, children })

export const text = (value: string): Text => ({ type: "text", value })

export const styleOf = (node: Element): string => {
  const style = node.properties["style"]
  return typeof style === "string" ? style : ""
}

const displayNone = /(?:^|;)\s*display\s*:\s*none\b/i

export const isDisplayNone = (node: Element): boolean => displayNone.test(styleOf(node))

const pageBreak = /page-break-(?:before|after)\s*:\s*always|break-(?:before|after)\s*:\s*page/i

export const hasPageBreak = (node: Element): boolean => pageBreak.test(styleOf(node))

const boldValue = /^(?:bold|bolder|[6-9]00)$/i
const normalValue = /^(?:normal|lighter|[1-5]00)$/i

/**
 * Whether an element makes its text bold, makes it explicitly not bold, or leaves the inherited
 * weight alone. EDGAR tools mark bold with `<b>`, `<strong>` or an inline `font-weight` (or `font`
 * shorthand) style; the last declaration wins, as in CSS.
 */
export const boldness = (node: Element): boolean | undefined => {
  if (node.tagName === "b" || node.tagName === "strong" || /^h[1-6]$/.test(node.tagName)) return true
  let result: boolean | undefined
  for (const declaration of styleOf(node).split(";")) {
    const colon = declaration.indexOf(":")
    if (colon === -1) continue
    const property = declaration.slice(0, colon).trim().toLowerCase()
    const value = declaration.slice(colon + 1).trim()
    if (property === "font-weight") {
      if (boldValue.test(value)) result = true
      else if (normalValue.test(value)) result = false
    } else if (property === "font") {
      result = /\bbold(?:er)?\b|\b[6-9]00\b/i.test(value)
    }
  }
  return result
}

/** Collapses whitespace runs (the parser already turned `&#160;` into plain spaces) and trims. */
export const collapseWhitespace = (value: string): string => value.replace(/\s+/g, " ").trim()

/**
 * The visible text of a node with whitespace collapsed. Block boundaries and `<br>` count as a space,
 * so two paragraphs in one table cell do not run together.
 */
export const textContent = (node: Nodes): string => {
  const parts: Array<string> = []
  const walk = (current: Nodes): void => {
    if (current.type === "text") {
      parts.push(current.value)
    } else if (current.type === "element") {
      if (current.tagName === "br") {
        parts.push(" ")
        return
      }
      const block = blockTags.has(current.tagName)
      if (block) parts.push(" ")
      for (const child of current.children) walk(child)
      if (block) parts.push(" ")
    } else if (current.type === "root") {
      for (const child of current.children) walk(child)
    }
  }
  walk(node)
  return collapseWhitespace(parts.join(""))
}

/**
 * Like `textContent`, but gives up (returns `undefined`) once the raw text passes `limit`
 * characters: cheap enough to ask of every block in a multi-megabyte filing.
 */
export const shortTextContent = (node: Nodes, limit: number): string | undefined => {
  let length = 0
  const parts: Array<string> = []
  const walk = (current: Nodes): boolean => {
    if (current.type === "text") {
      length += current.value.length
      parts.push(current.value)
      return length <= limit
    }
    if (current.type === "element") {
      if (current.tagName === "br" || blockTags.has(current.tagName)) parts.push(" ")
      for (const child of current.children) {
        if (!walk(child)) return false
      }
      if (blockTags.has(current.tagName)) parts.push(" ")
    }
    return true
  }
  return walk(node) ? collapseWhitespace(parts.join("")) : undefined
}

/** Whether a subtree holds an element with one of the given tag names. */
export const containsTag = (node: Nodes, tagNames: ReadonlySet<string>): boolean => {
  if (node.type !== "element" && node.type !== "root") return false
  for (const child of node.children) {
    if (child.type === "element" && (tagNames.has(child.tagName) || containsTag(child, tagNames))) return true
  }
  return false
}

/**
 * Rewrites flow content as phrasing content, for places that only take one line (a table cell, a
 * paragraph built from a layout table): blocks become `span`s that keep their inline style (so bold
 * survives for heading detection), separated by spaces, and `<br>` becomes a space.
 */
export const toPhrasing = (children: ReadonlyArray<ElementContent>): Array<ElementContent> => {
  const result: Array<ElementContent> = []
  let previousWasBlock = false
  for (const child of children) {
    if (child.type !== "element") {
      if (child.type === "text" && previousWasBlock) result.push(text(" "))
      result.push(child)
      previousWasBlock = false
      continue
    }
    if (child.tagName === "br") {
      result.push(text(" "))
      previousWasBlock = false
      continue
    }
    if (blockTags.has(child.tagName)) {
      if (result.length > 0) result.push(text(" "))
      const style = styleOf(child)
      result.push(element("span", style === "" ? {} : { style }, toPhrasing(child.children)))
      previousWasBlock = true
      continue
    }
    if (previousWasBlock) result.push(text(" "))
    result.push({ ...child, children: toPhrasing(child.children) })
    previousWasBlock = false
  }
  return result
}

/** Keeps the children of `parent` for which `keep` holds, in one pass. */
export const filterChildren = (parent: Parents, keep: (child: Nodes) => boolean): void => {
  if (parent.type === "root") parent.children = parent.children.filter(keep)
  else parent.children = parent.children.filter(keep)
}
