/**
 * Parses a filing with the parser library alone: no server, no database.
 *
 *   node --import tsx examples/parse-filing.ts examples/filings/acme-8k-2024-11-05.txt
 *
 * Any document the service handles works: a full EDGAR submission (`.txt`), an HTML or inline XBRL
 * filing, an old text filing, a PDF, an earnings call transcript. The result has the Markdown
 * body, the labeled sections with their pages, the exhibits and the chunks citations point to.
 */
import { Parser } from "@filings/filings-parser"
import { Console, Effect } from "effect"
import { readFile } from "node:fs/promises"
import { basename } from "node:path"

const path = process.argv[2] ?? "examples/filings/acme-8k-2024-11-05.txt"

const program = Effect.gen(function*() {
  const bytes = yield* Effect.promise(() => readFile(path))
  const parsed = yield* Parser.parse({ bytes, fileName: basename(path) })
  const header = parsed.header
  if (header !== undefined) {
    yield* Console.log(`${header.accessionNumber} ${header.form} filed ${header.filedAsOf} by ${header.companyName}`)
  }
  yield* Console.log(`${parsed.form ?? "unknown form"}: ${parsed.wordCount} words, ${parsed.pageCount} pages`)
  for (const section of parsed.sections) {
    yield* Console.log(`  ${section.title} (${section.wordCount} words, pages ${section.pageStart}-${section.pageEnd})`)
  }
  for (const exhibit of parsed.exhibits) yield* Console.log(`  Exhibit ${exhibit.exhibitNumber}: ${exhibit.title}`)
  yield* Console.log(`\n${parsed.chunks.length} chunks; the first:\n\n${parsed.chunks[0]?.text ?? ""}`)
})

Effect.runPromise(program.pipe(
  Effect.catchAll((error) => Console.error(`cannot parse ${path}: ${error.message}`))
))
