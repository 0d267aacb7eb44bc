/**
 * rehype plugin: replaces inline XBRL tags (`ix:nonFraction`, `ix:nonNumeric`, `ix:continuation`,
 * `ix:exclude`, ...) and any other namespaced element (`o:p` from Word exports) by their children.
 * The tags carry facts for machines; their text is part of the visible document and must stay.
 * Run it after `rehypeDropHidden`, which removes the hidden `ix:header` as a whole.
 */
import type { ElementContent, Nodes, Root, RootContent } from "hast"
import type { Plugin } from "unified"
import { isParent } from "./hast.js"

const isNamespaced = (node: Nodes): boolean => node.type === "element" && node.tagName.includes(":")

const unwrap = <Child extends ElementContent | RootContent>(children: Array<Child>): Array<Child> => {
  if (!children.some(isNamespaced)) return children
  const result: Array<Child> = []
  // Nested ix tags are common (a nonFraction inside a nonNumeric text block); unwrap until none are left.
  const pending: Array<Child> = [...children].reverse()
  for (let child = pending.pop(); child !== undefined; child = pending.pop()) {
    if (child.type === "element" && isNamespaced(child)) {
      for (let index = child.children.length - 1; index >= 0; index--) {
        const grandchild = child.children[index]
        if (grandchild !== undefined) pending.push(grandchild as Child)
      }
    } else {
      result.push(child)
    }
  }
  return result
}

export const rehypeUnwrapInlineXbrl: Plugin<[], Root> = function() {
  return (tree) => {
    const stack: Array<Nodes> = [tree]
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (!isParent(node)) continue
      if (node.type === "root") node.children = unwrap(node.children)
      else node.children = unwrap(node.children)
      for (const child of node.children) stack.push(child)
    }
  }
}
