/**
 * remark plugin: unwraps links that point inside the HTML page (`#i7bfbfbe..._52`, the table of
 * contents and "see Note 4" cross-references) or nowhere (`<a name="x">` anchors). Their targets do
 * not exist in Markdown; the link text stays.
 */
import type { Root } from "mdast"
import type { Plugin } from "unified"
import { replaceChildren } from "./mdast.js"

export const remarkDropFragmentLinks: Plugin<[], Root> = function() {
  return (tree) => {
    replaceChildren(tree, (child) => {
      if (child.type !== "link") return undefined
      const url = child.url.trim()
      return url === "" || url.startsWith("#") ? child.children : undefined
    })
  }
}
