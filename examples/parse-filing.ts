/**
 * Parses a filing into Markdown with the parser library alone: no server, no database.
 *
 *   node --import tsx examples/parse-filing.ts examples/filings/acme-8k-2024-11-05.txt
 *
 * A full EDGAR submission (`.txt`) is split into its documents and the primary one converted;
 * anything else is decoded (charset detected) and converted as HTML or plain text.
 */
import { FilingsParser, SgmlSubmission } from "@filings/filings-parser"
import { Console, Effect } from "effect"
import { readFile } from "node:fs/promises"

const path = process.argv[2] ?? "examples/filings/acme-8k-2024-11-05.txt"

const program = Effect.gen(function*() {
  const bytes = yield* Effect.promise(() => readFile(path))
  if (path.endsWith(".txt")) {
    const submission = yield* SgmlSubmission.parseBytes(bytes)
    const { header } = submission
    yield* Console.log(`${header.accessionNumber} ${header.form} filed ${header.filedAsOf} by ${header.companyName}`)
    yield* Console.log(
      submission.documents.map((document) => `  ${document.type} ${document.filename ?? ""}`).join("\n")
    )
    const primary = yield* SgmlSubmission.primaryDocumentToMarkdown(submission)
    yield* Console.log(`\n${primary.markdown}`)
  } else {
    const converted = yield* FilingsParser.bytesToMarkdown(bytes)
    yield* Console.log(converted.markdown)
    yield* Console.log(`${converted.wordCount} words`)
  }
})

Effect.runPromise(program.pipe(
  Effect.catchAll((error) => Console.error(`cannot parse ${path}: ${error.message}`))
))
