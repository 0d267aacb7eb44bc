// Inline Markdown back to plain text: the one place that knows which marks the renderer writes
// (emphasis, links, images, code spans, backslash escapes), for every reader of Markdown text.

import { collapseSpaces } from "../characters.js"

export { collapseSpaces }

const markdownMark = /[\\*_`[]/

/** What becomes of an image: its alt text (its words, for a reader) or nothing (for prose). */
export type ImageText = "alt" | "omit"

const image = /!\[[^\]]*\]\([^)]*\)/g

/** Inline Markdown to plain text: links and images to their words, emphasis and code marks dropped, escapes undone. */
export const inlinePlainText = (markdown: string, images: ImageText = "alt"): string =>
  !markdownMark.test(markdown) ? collapseSpaces(markdown) : (images === "omit" ? markdown.replace(image, "") : markdown)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(?<!\\)(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(?<![\\*\w])([*_])(?=\S)([^*_]*?\S)\1(?![*\w])/g, "$2")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/\s+/g, " ")
    .trim()
