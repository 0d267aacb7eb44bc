/**
 * remark plugin: makes lists of the paragraphs that EDGAR HTML starts with a bullet glyph
 * ("• our potential exposure ..."), since filings draw bullets instead of using `<ul>`, and joins
 * lists that follow each other (one per bullet table row or `<ul>`) into one.
 */
import type { List, ListItem, Paragraph, Parents, Root, RootContent } from "mdast"
import type { Plugin } from "unified"
import { isParent } from "./mdast.js"

const bulletGlyph = /^\s*[•·●◦▪■►‣⁃]\s*/

const bulletItem = (node: RootContent): ListItem | undefined => {
  if (node.type !== "paragraph") return undefined
  const [first, ...rest] = node.children
  if (first?.type !== "text" || !bulletGlyph.test(first.value)) return undefined
  const value = first.value.replace(bulletGlyph, "")
  const children: Paragraph["children"] = value === "" ? rest : [{ ...first, value }, ...rest]
  if (children.length === 0) return undefined
  return { type: "listItem", spread: false, children: [{ type: "paragraph", children }] }
}

const listify = (parent: Parents): void => {
  const children: Array<RootContent> = []
  for (const child of parent.children) {
    const previous = children[children.length - 1]
    const item = bulletItem(child)
    if (item !== undefined) {
      if (previous?.type === "list" && previous.ordered !== true) previous.children.push(item)
      else children.push({ type: "list", ordered: false, spread: false, children: [item] } satisfies List)
      continue
    }
    if (child.type === "list" && previous?.type === "list" && previous.ordered === child.ordered) {
      previous.children.push(...child.children)
      continue
    }
    children.push(child)
  }
  ;(parent as { children: Array<RootContent> }).children = children
}

export const remarkBulletLists: Plugin<[], Root> = function() {
  return (tree) => {
    const stack: Array<Parents> = [tree]
    for (let parent = stack.pop(); parent !== undefined; parent = stack.pop()) {
      // Paragraphs only sit in flow containers; phrasing parents have nothing to turn into lists.
      if (parent.type === "root" || parent.type === "listItem" || parent.type === "blockquote") listify(parent)
      for (const child of parent.children) if (isParent(child)) stack.push(child)
    }
  }
}
