/**
 * remark plugin: removes the debris HTML-to-Markdown conversion leaves behind: blank paragraphs
 * and headings, raw HTML, line breaks inside table cells (a GFM cell is one line), and horizontal
 * rules that open or close the document or repeat.
 */
import type { Nodes, Root, RootContent } from "mdast"
import type { Plugin } from "unified"
import { isBlank, replaceChildren } from "./mdast.js"

const blankWhenEmpty: ReadonlySet<Nodes["type"]> = new Set([
  "paragraph",
  "heading",
  "emphasis",
  "strong",
  "delete",
  "link"
])

export const remarkTidy: Plugin<[], Root> = function() {
  return (tree) => {
    replaceChildren(tree, (child, parent) => {
      if (child.type === "html") return []
      if (child.type === "break" && parent.type === "tableCell") return [{ type: "text", value: " " }]
      if (blankWhenEmpty.has(child.type) && isBlank(child)) return []
      return undefined
    })
    const children: Array<RootContent> = []
    for (const child of tree.children) {
      const previous = children[children.length - 1]
      if (child.type === "thematicBreak" && (previous === undefined || previous.type === "thematicBreak")) continue
      children.push(child)
    }
    while (children[children.length - 1]?.type === "thematicBreak") children.pop()
    tree.children = children
  }
}
