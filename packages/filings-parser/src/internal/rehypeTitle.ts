/**
 * rehype plugin: records the document `<title>` in `file.data.title` (whitespace collapsed). Run it
 * before `rehypeDropHidden`, which removes the `<head>`.
 */
import type { Nodes, Root } from "hast"
import type { Plugin } from "unified"
import { collapseWhitespace, isParent, textContent } from "./hast.js"

declare module "vfile" {
  interface DataMap {
    /** The document's `<title>`, when it has a non-empty one. */
    title: string
  }
}

export const rehypeTitle: Plugin<[], Root> = function() {
  return (tree, file) => {
    const stack: Array<Nodes> = [tree]
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (node.type === "element" && node.tagName === "title") {
        const title = collapseWhitespace(textContent(node))
        if (title !== "") file.data.title = title
        return
      }
      // The title lives in <head>; never walk into <body>, which is most of a filing.
      if (isParent(node) && !(node.type === "element" && node.tagName === "body")) {
        for (let index = node.children.length - 1; index >= 0; index--) {
          const child = node.children[index]
          if (child !== undefined) stack.push(child)
        }
      }
    }
  }
}
