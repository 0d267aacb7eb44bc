/**
 * rehype plugin: removes everything a reader of the filing never sees. That is the inline XBRL
 * header (`<ix:header>`, with its hidden facts and contexts), any `display:none` or `hidden`
 * element, scripts, styles and other non-content elements, and comments (including the `<?xml ...?>`
 * prologue, which the HTML parser turns into a comment).
 */
import type { Nodes, Root } from "hast"
import type { Plugin } from "unified"
import { filterChildren, isDisplayNone, isParent } from "./hast.js"

const invisibleTags: ReadonlySet<string> = new Set([
  "applet",
  "embed",
  "head",
  "iframe",
  "ix:header",
  "math",
  "noscript",
  "object",
  "script",
  "style",
  "svg",
  "template"
])

const isVisible = (node: Nodes): boolean => {
  if (node.type === "comment" || node.type === "doctype") return false
  if (node.type !== "element") return true
  return !(invisibleTags.has(node.tagName) || node.properties["hidden"] === true || isDisplayNone(node))
}

export const rehypeDropHidden: Plugin<[], Root> = function() {
  return (tree) => {
    // An explicit stack: deeply nested EDGAR markup must not overflow the call stack.
    const stack: Array<Nodes> = [tree]
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (!isParent(node)) continue
      filterChildren(node, isVisible)
      for (const child of node.children) stack.push(child)
    }
  }
}
