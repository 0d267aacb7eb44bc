/**
 * unified parser plugin: reads plain text into mdast with `plainTextToMdast`, so text documents go
 * through the same remark plugins and serializer as HTML ones.
 */
import type { Root } from "mdast"
import type { Plugin } from "unified"
import { plainTextToMdast } from "./plainText.js"

export const remarkParsePlainText: Plugin<[], string, Root> = function() {
  this.parser = (document) => plainTextToMdast(document)
}
