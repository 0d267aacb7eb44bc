/**
 * The check every package's `test/quickStart.test.ts` makes: the blocks that file runs, between its
 * `// README:<name>:start` and `// README:<name>:end` markers, appear verbatim as `ts` code blocks
 * under the "Quick start" heading of the package's README, so the README cannot drift from code
 * that runs. The other way round for shell commands: `shellBlocks` reads a README's `sh` blocks so
 * a test runs them as written (the consumer test runs the install lines of the repository's README).
 */
import { assert, it } from "@effect/vitest"
import { readFileSync } from "node:fs"

/** The lines of `source` between `// README:<name>:start` and `// README:<name>:end`. */
const snippet = (source: string, name: string): string => {
  const startMarker = `// README:${name}:start\n`
  const start = source.indexOf(startMarker)
  const end = source.indexOf(`// README:${name}:end`)
  assert.isTrue(start >= 0 && end > start, `markers of ${name}`)
  return source.slice(start + startMarker.length, end)
}

/** The section of a README under the level-two `heading`, up to the next one; "" when it has none. */
export const readmeSection = (readme: string, heading: string): string => {
  const at = readme.indexOf(`\n## ${heading}\n`)
  if (at < 0) return ""
  const next = readme.indexOf("\n## ", at + 1)
  return next < 0 ? readme.slice(at) : readme.slice(at, next)
}

/** The "Quick start" section of a README, up to the next level-two heading; "" when it has none. */
export const quickStartSection = (readme: string): string => readmeSection(readme, "Quick start")

/** The text of each `sh` code block of `markdown`, in order: commands a reader is told to run. */
export const shellBlocks = (markdown: string): Array<string> =>
  [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "")

/**
 * A test that the README beside the test file at `testFile` (its `import.meta.url`) shows each
 * named block of that file under its Quick start heading.
 */
export const itShowsQuickStart = (testFile: string, names: ReadonlyArray<string>): void => {
  it(`shows the ${names.join(" and ")} block${names.length > 1 ? "s" : ""} this file runs, under the README's Quick start heading`, () => {
    const readme = readFileSync(new URL("../README.md", testFile), "utf8")
    const source = readFileSync(new URL(testFile), "utf8")
    const section = quickStartSection(readme)
    assert.isNotEmpty(section, "the README has a Quick start section")
    for (const name of names) assert.include(section, "```ts\n" + snippet(source, name) + "```")
  })
}
