/**
 * Structure flows down, Markdown only goes out: no package but the parser reads Markdown for its
 * structure. Readers take the parser's blocks (a table's rows and header rows, a heading's depth, a
 * paragraph's text); the parser alone reads Markdown back into blocks (`Blocks.fromMarkdown`). This
 * scans the sources of every other package for the ways Markdown gets parsed on the side: table
 * lines told by a leading `|`, cells split on `|`, headings by `#`, rules and separator rows by
 * dashes, the Markdown of a document searched for an exhibit's. An entry of `allowed` names a file
 * and a pattern it may hold, with the reason.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const repositoryRoot = fileURLToPath(new URL("../", import.meta.url))

/** What parsing Markdown on the side looks like in source text. */
const markdownParsing: ReadonlyArray<{ readonly name: string; readonly pattern: RegExp }> = [
  { name: "a table line told by its leading |", pattern: /\/\^\\s\*\\\||\/\^\\\||startsWith\("\|"\)/ },
  { name: "cells split on |", pattern: /split\(\s*(?:"\|"|'\|'|\/[^/\n]*\\\|[^/\n]*\/)/ },
  { name: "a heading told by #", pattern: /#\{1,6\}|\^#(?:\+|\{1,6\})?\\s|startsWith\("#/ },
  {
    name: "a rule or separator row told by dashes",
    pattern: /\(\?:\[-\*_\]|:\?-(?:[*+]|\{1,\}):\?|"\| --- \|"/
  },
  { name: "the Markdown of a document searched", pattern: /\.markdown\.includes\(/ },
  {
    name: "a Markdown table or heading helper",
    pattern: /\b(?:isTableLine|isTableRow|cellsOf|isHeadingRow|isRuleRow|isRule|periodGroups|columnHeadings)\b/
  }
]

/**
 * Files that may hold a pattern, each with why. The search snippet is the one reader of Markdown
 * left: a page of results reads its passages' text alone (their blocks only when a reader asks,
 * as chat does), and a snippet wants plain text of it, not its structure.
 */
const allowed: ReadonlyArray<{ readonly file: string; readonly name: string; readonly reason: string }> = [
  {
    file: "packages/storage/src/SearchText.ts",
    name: "a table line told by its leading |",
    reason: "a search snippet is plain text of the stored chunk's Markdown (cells kept apart, marks dropped), " +
      "read without the chunk's blocks so a page of results stays a read of the passages' text"
  },
  {
    file: "packages/storage/src/SearchText.ts",
    name: "a rule or separator row told by dashes",
    reason: "a search snippet leaves out the separator rows of the stored chunk's Markdown tables, read without " +
      "the chunk's blocks"
  },
  {
    file: "packages/storage/src/SearchText.ts",
    name: "a heading told by #",
    reason: "a search snippet drops the heading marks of the stored chunk's Markdown, read without the " +
      "chunk's blocks"
  }
]

const sourcesOf = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourcesOf(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

/** The code of a source file: comments left out, so a comment may speak of Markdown. */
const codeOf = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, "").split("\n").map((line) => line.replace(/^\s*\/\/.*$/, "")).join("\n")

const packagesDir = join(repositoryRoot, "packages")

const findings = (): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const name of readdirSync(packagesDir)) {
    if (name === "filings-parser") continue
    for (const file of sourcesOf(join(packagesDir, name, "src"))) {
      const path = relative(repositoryRoot, file)
      const code = codeOf(readFileSync(file, "utf8"))
      for (const { name: what, pattern } of markdownParsing) {
        if (!pattern.test(code)) continue
        if (allowed.some((entry) => entry.file === path && entry.name === what)) continue
        found.push(`${path}: ${what}`)
      }
    }
  }
  return found
}

describe("Markdown is parsed by the parser alone", () => {
  it("no package but the parser reads Markdown for tables, headings or rules", () => {
    assert.deepStrictEqual(findings(), [])
  })

  it("every allowance says why, and names a file and pattern that exist", () => {
    for (const entry of allowed) {
      assert.isAbove(entry.reason.length, 20, `${entry.file}: the reason is too short`)
      const pattern = markdownParsing.find(({ name }) => name === entry.name)?.pattern
      assert.isDefined(pattern, `${entry.file}: no pattern ${entry.name}`)
      // An allowance outlives its reason once the file reads structure: it goes then, so the list only shrinks.
      const code = codeOf(readFileSync(join(repositoryRoot, entry.file), "utf8"))
      assert.isTrue(pattern?.test(code), `${entry.file} no longer holds ${entry.name}: drop its allowance`)
    }
  })

  it("the patterns catch what they are meant to", () => {
    const caught = (code: string) =>
      markdownParsing.filter(({ pattern }) => pattern.test(codeOf(code))).map(({ name }) => name)
    assert.deepStrictEqual(caught("const isTableLine = (line: string) => /^\\s*\\|/.test(line)"), [
      "a table line told by its leading |",
      "a Markdown table or heading helper"
    ])
    assert.deepStrictEqual(caught("line.split(\"|\")"), ["cells split on |"])
    assert.deepStrictEqual(caught("const isHeading = (line) => /^\\s*#{1,6}\\s/.test(line)"), ["a heading told by #"])
    assert.deepStrictEqual(caught("line.replace(/^#+\\s*/, \"\")"), ["a heading told by #"])
    assert.deepStrictEqual(caught("const tableRule = /^\\s*\\|?\\s*:?-{1,}:?\\s*$/"), [
      "a table line told by its leading |",
      "a rule or separator row told by dashes"
    ])
    assert.deepStrictEqual(caught("cells.every((cell) => /^:?-*:?$/.test(cell))"), [
      "a rule or separator row told by dashes"
    ])
    assert.deepStrictEqual(caught("!document.markdown.includes(exhibit.content)"), [
      "the Markdown of a document searched"
    ])
    assert.deepStrictEqual(caught("// a comment about | --- | rows and # headings"), [])
  })
})
