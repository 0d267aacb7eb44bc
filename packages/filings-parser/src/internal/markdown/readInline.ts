/**
 * Inline Markdown back to inline nodes: the marks the renderer writes (`**strong**`, `_emphasis_`
 * or `*emphasis*`, `[links](url)`, `![images](src)`, line breaks (with or without `\`), backslash
 * escapes), for Markdown the parser wrote before blocks were kept (stored documents) and for tests
 * that write their documents as Markdown. Anything else is text.
 */
import type { Inline } from "@filings/domain/Blocks"
import { pushInline, pushText } from "../inline.js"

const escapable = /[!-/:-@[-`{-~]/
const letter = /\p{L}|\p{N}/u

/** Index of the `]` that closes the `[` before `from`, escapes and nested brackets skipped. */
const closingBracket = (source: string, from: number): number => {
  let depth = 0
  for (let index = from; index < source.length; index++) {
    const character = source[index]
    if (character === "\\") index++
    else if (character === "[") depth++
    else if (character === "]") {
      if (depth === 0) return index
      depth--
    }
  }
  return -1
}

/** `(destination)` at `from`: the destination (`<...>` unwrapped) and the index after `)`. */
const destinationAt = (source: string, from: number): { readonly url: string; readonly end: number } | undefined => {
  if (source[from] !== "(") return undefined
  if (source[from + 1] === "<") {
    const close = source.indexOf(">)", from + 2)
    return close === -1 ? undefined : { url: source.slice(from + 2, close), end: close + 2 }
  }
  const close = source.indexOf(")", from + 1)
  return close === -1 ? undefined : { url: source.slice(from + 1, close), end: close + 1 }
}

/** Index of the unescaped `marker` closing a run opened before `from`, or -1. */
const closingMark = (source: string, from: number, marker: string): number => {
  for (let index = from; index < source.length; index++) {
    const character = source[index]
    if (character === "\\") {
      index++
      continue
    }
    if (!source.startsWith(marker, index) || index === from) continue
    if (/\s/.test(source[index - 1] ?? " ")) continue
    const after = source[index + marker.length] ?? ""
    if (marker === "_" && letter.test(after)) continue
    if (marker === "*" && source[index + 1] === "*") {
      index++
      continue
    }
    return index
  }
  return -1
}

const unescape = (value: string): string => value.replace(/\\([!-/:-@[-`{-~])/g, "$1")

/** Inline Markdown (one paragraph, heading or list item) to inline nodes. */
export const readInline = (source: string): Array<Inline> => {
  const nodes: Array<Inline> = []
  let text = ""
  const flush = () => {
    pushText(nodes, text)
    text = ""
  }
  let index = 0
  while (index < source.length) {
    const character = source[index] ?? ""
    const next = source[index + 1] ?? ""
    if (character === "\\" && next === "\n") {
      flush()
      pushInline(nodes, { kind: "break" })
      index += 2
      while (source[index] === " ") index++
      continue
    }
    if (character === "\\" && escapable.test(next)) {
      text += next
      index += 2
      continue
    }
    if (character === "\n") {
      // The renderer only writes hard breaks; a bare newline (Markdown written by hand) keeps its line too.
      flush()
      pushInline(nodes, { kind: "break" })
      index++
      while (source[index] === " ") index++
      continue
    }
    if ((character === "!" && next === "[") || character === "[") {
      const open = character === "!" ? index + 1 : index
      const close = closingBracket(source, open + 1)
      const target = close === -1 ? undefined : destinationAt(source, close + 1)
      if (target !== undefined) {
        flush()
        const inner = source.slice(open + 1, close)
        if (character === "!") pushInline(nodes, { kind: "image", alt: unescape(inner), src: target.url })
        else pushInline(nodes, { kind: "link", url: target.url, children: readInline(inner) })
        index = target.end
        continue
      }
    }
    if (character === "*" && next === "*" && !/\s/.test(source[index + 2] ?? " ")) {
      const close = closingMark(source, index + 2, "**")
      if (close !== -1) {
        flush()
        pushInline(nodes, { kind: "strong", children: readInline(source.slice(index + 2, close)) })
        index = close + 2
        continue
      }
    }
    const opensEmphasis = (character === "_" && !letter.test(source[index - 1] ?? "")) || character === "*"
    if (opensEmphasis && !/\s/.test(next) && next !== "") {
      const close = closingMark(source, index + 1, character)
      if (close !== -1) {
        flush()
        pushInline(nodes, { kind: "emphasis", children: readInline(source.slice(index + 1, close)) })
        index = close + 1
        continue
      }
    }
    text += character
    index++
  }
  flush()
  return nodes
}
