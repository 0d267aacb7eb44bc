/**
 * rehype plugin: normalises the characters EDGAR HTML uses for layout. Non-breaking and other fixed
 * spaces become plain spaces, so the whitespace minifier can collapse the `&#160;&#160;&#160;` runs
 * used for indentation and empty paragraphs; zero-width characters and soft hyphens are removed.
 */
import type { Nodes, Root } from "hast"
import type { Plugin } from "unified"
import { isParent } from "./hast.js"

const fixedSpaces = /[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g
const invisibleCharacters = /[\u00ad\u200b-\u200d\u2060\ufeff]/g

export const rehypeNormalizeText: Plugin<[], Root> = function() {
  return (tree) => {
    const stack: Array<Nodes> = [tree]
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (node.type === "text") {
        node.value = node.value.replace(fixedSpaces, " ").replace(invisibleCharacters, "")
      } else if (isParent(node)) {
        for (const child of node.children) stack.push(child)
      }
    }
  }
}
