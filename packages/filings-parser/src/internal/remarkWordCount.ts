/**
 * remark plugin: counts the words of the document into `file.data.wordCount`. A word is a
 * whitespace-separated token with at least one letter or digit, so table values count and
 * punctuation and Markdown syntax do not.
 */
import type { Nodes, Root } from "mdast"
import type { Plugin } from "unified"
import { isParent } from "./mdast.js"

declare module "vfile" {
  interface DataMap {
    /** Words in the converted document. */
    wordCount: number
  }
}

const wordToken = /[^\s]*[\p{L}\p{N}][^\s]*/gu

export const countWords = (value: string): number => value.match(wordToken)?.length ?? 0

export const remarkWordCount: Plugin<[], Root> = function() {
  return (tree, file) => {
    let count = 0
    const stack: Array<Nodes> = [tree]
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (node.type === "text" || node.type === "inlineCode" || node.type === "code") count += countWords(node.value)
      else if (isParent(node)) { for (const child of node.children) stack.push(child) }
    }
    file.data.wordCount = count
  }
}
