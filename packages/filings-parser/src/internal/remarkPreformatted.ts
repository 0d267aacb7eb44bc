/**
 * remark plugin: reads the preformatted blocks of an HTML document (`<pre>`, which became code
 * blocks without a language) as plain text. EDGAR wraps whole text filings in one `<pre>`; as a code
 * block they would keep every hard wrap and lose their headings and paragraphs.
 */
import type { Root } from "mdast"
import type { Plugin } from "unified"
import { replaceChildren } from "./mdast.js"
import { plainTextToMdast } from "./plainText.js"

export const remarkPreformatted: Plugin<[], Root> = function() {
  return (tree) => {
    replaceChildren(tree, (child, parent) => {
      // Only flow containers can take the paragraphs and headings the text turns into.
      if (child.type !== "code" || child.lang != null || !(parent.type === "root" || parent.type === "blockquote")) {
        return undefined
      }
      return plainTextToMdast(child.value).children
    })
  }
}
