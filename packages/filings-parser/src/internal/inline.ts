/**
 * Inline nodes (`Inline` of `@filings/domain/Blocks`): building them while reading, and reading
 * them back as plain text and lines. Every reader of the parser builds a block's inline content
 * with these helpers; only `markdown/render.ts` turns nodes into Markdown.
 */
import type { Inline, InlineText } from "@filings/domain/Blocks"
import { collapseSpaces } from "./characters.js"
import { escapeInline } from "./markdown/escape.js"

/** A text node. */
export const text = (value: string): InlineText => ({ kind: "text", text: value })

// Escaping a character depends on its neighbours only for `_`, `<`, `~` (one character either
// side) and `&` (an entity name after it), so only a boundary with one of these is checked.
const boundaryAfter = /(?:&#?[A-Za-z0-9]*|[_<~])$/
// An entity name is short: the end of the text before is all a boundary can depend on.
const boundaryReach = 64

const isAsciiAlphanumeric = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)

/** Whether `value` ends with what `boundaryAfter` matches, read back from its end without a copy. */
const endsAtBoundary = (value: string): boolean => {
  let index = value.length - 1
  const last = value.charCodeAt(index)
  // `_`, `<`, `~`, `&`
  if (last === 95 || last === 60 || last === 126 || last === 38) return true
  while (index >= 0 && isAsciiAlphanumeric(value.charCodeAt(index))) index--
  if (value.charCodeAt(index) === 35) index-- // `#`
  return value.charCodeAt(index) === 38
}

/**
 * Whether `left + right` renders as `left` and `right` rendered apart: then two text nodes may be
 * one. Where the source split its text (`<span>a</span><span>_b</span>`), escaping the joined text
 * could differ, and the nodes stay apart.
 */
const joinsCleanly = (left: string, right: string): boolean => {
  // Nearly every join: no boundary character on either side, nothing to escape differently.
  if (!right.startsWith("_") && !endsAtBoundary(left)) return true
  const near = left.length > boundaryReach ? left.slice(-boundaryReach) : left
  const tail = boundaryAfter.exec(near)
  if (tail === null && !right.startsWith("_")) return true
  const edge = near.slice(tail === null ? near.length - 1 : tail.index)
  return escapeInline(edge + right) === escapeInline(edge) + escapeInline(right)
}

/** Appends text (no node for empty text), joined to a text node before it where that renders the same. */
export const pushText = (nodes: Array<Inline>, value: string): void => {
  if (value !== "" && !joinToLast(nodes, value)) nodes.push(text(value))
}

/** Joins `value` to the text node the nodes end with, where that renders the same; whether it did. */
const joinToLast = (nodes: Array<Inline>, value: string): boolean => {
  const last = nodes[nodes.length - 1]
  if (value === "" || last === undefined || last.kind !== "text" || !joinsCleanly(last.text, value)) return false
  nodes[nodes.length - 1] = text(last.text + value)
  return true
}

/** Appends a node, joining it to a text node before it where that renders the same. */
export const pushInline = (nodes: Array<Inline>, node: Inline): void => {
  if (node.kind !== "text") nodes.push(node)
  else if (!joinToLast(nodes, node.text) && node.text !== "") nodes.push(node)
}

/** Nodes joined with a space between each non-empty run, as one line of text. */
export const joinInlines = (runs: ReadonlyArray<ReadonlyArray<Inline>>): Array<Inline> => {
  const nodes: Array<Inline> = []
  for (const run of runs) {
    if (run.length === 0) continue
    if (nodes.length > 0) pushText(nodes, " ")
    for (const node of run) pushInline(nodes, node)
  }
  return nodes
}

/** What an image becomes in plain text: its alt text (what a reader is told it shows) or nothing. */
export type ImageText = "alt" | "omit"

const collectText = (nodes: ReadonlyArray<Inline>, images: ImageText, into: Array<string>): void => {
  for (const node of nodes) {
    switch (node.kind) {
      case "text":
        into.push(node.text)
        break
      case "break":
        into.push(" ")
        break
      case "image":
        if (images === "alt") into.push(node.alt)
        break
      default:
        collectText(node.children, images, into)
    }
  }
}

/** The one text node the nodes are, if they are one (most paragraphs of a filing are). */
const oneText = (nodes: ReadonlyArray<Inline>): string | undefined => {
  const [first] = nodes
  return nodes.length === 1 && first?.kind === "text" ? first.text : undefined
}

/** Inline nodes as plain text: marks dropped, images as their alt text (or nothing), whitespace collapsed. */
export const inlinesText = (nodes: ReadonlyArray<Inline>, images: ImageText = "alt"): string => {
  const single = oneText(nodes)
  if (single !== undefined) return collapseSpaces(single)
  const parts: Array<string> = []
  collectText(nodes, images, parts)
  return collapseSpaces(parts.join(""))
}

/** Whether any of the nodes (nested ones included) is an image. */
export const hasImage = (nodes: ReadonlyArray<Inline>): boolean =>
  nodes.some((node) =>
    node.kind === "image" || (node.kind !== "text" && node.kind !== "break" && hasImage(node.children))
  )

/** The plain-text lines of inline content: split at its hard breaks, empty lines left out. */
export const inlineLines = (nodes: ReadonlyArray<Inline>, images: ImageText = "alt"): Array<string> => {
  const single = oneText(nodes)
  if (single !== undefined) {
    const line = collapseSpaces(single)
    return line === "" ? [] : [line]
  }
  const lines: Array<Array<string>> = [[]]
  const walk = (run: ReadonlyArray<Inline>): void => {
    for (const node of run) {
      switch (node.kind) {
        case "text":
          lines[lines.length - 1]?.push(node.text)
          break
        case "break":
          lines.push([])
          break
        case "image":
          if (images === "alt") lines[lines.length - 1]?.push(node.alt)
          break
        default:
          walk(node.children)
      }
    }
  }
  walk(nodes)
  return lines.map((parts) => collapseSpaces(parts.join(""))).filter((line) => line !== "")
}

/**
 * The nodes after a leading match of `pattern` (a bullet glyph) in their first text node, and the
 * whitespace after it; `undefined` when the nodes do not start with a text node that matches.
 */
export const dropLeading = (nodes: ReadonlyArray<Inline>, pattern: RegExp): Array<Inline> | undefined => {
  const [first, ...rest] = nodes
  if (first === undefined || first.kind !== "text") return undefined
  const match = pattern.exec(first.text)
  if (match === null || match.index !== 0) return undefined
  const remainder = first.text.slice(match[0].length)
  if (remainder !== "") return [text(remainder), ...rest]
  const [next, ...after] = rest
  if (next?.kind !== "text") return rest
  const trimmed = next.text.trimStart()
  return trimmed === "" ? after : [text(trimmed), ...after]
}
