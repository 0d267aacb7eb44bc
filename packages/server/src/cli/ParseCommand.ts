/**
 * `filings parse FILE`: parses one filing with the parser library alone (no server, no database)
 * and prints its Markdown, its sections, or everything as JSON.
 */
import { Args, Command, Options } from "@effect/cli"
import { Document } from "@filings/domain"
import type { ParsedDocument } from "@filings/filings-parser"
import { Effect, Schema } from "effect"
import * as Output from "./Output.js"
import { formOption, readAndParse } from "./ReadFiling.js"
import { jsonOption } from "./SharedOptions.js"

// An exhibit is printed as the API serves one (`exhibit_number`, `title`, `content`), its blocks left out.
const exhibitJson = Schema.encodeSync(Document.Exhibit)

const summary = (parsed: ParsedDocument.ParsedDocument) => ({
  doc_type: parsed.form ?? null,
  word_count: parsed.wordCount,
  page_count: parsed.pageCount,
  // The command prints a section under `name`, its item key left out: its own JSON, not the API's.
  sections: parsed.sections.map((section) => ({
    name: section.title,
    content: section.content,
    word_count: section.wordCount,
    page_start: section.pageStart,
    page_end: section.pageEnd
  })),
  exhibits: parsed.exhibits.map((exhibit) => exhibitJson(exhibit)),
  warnings: parsed.warnings
})

const sectionsText = (parsed: ParsedDocument.ParsedDocument): string =>
  parsed.sections.length === 0
    ? "No sections found."
    : Output.table(
      ["SECTION", "WORDS", "PAGES"],
      parsed.sections.map((section) => [
        section.title,
        String(section.wordCount),
        section.pageStart === section.pageEnd ? String(section.pageStart) : `${section.pageStart}-${section.pageEnd}`
      ])
    )

export const parseCommand = Command.make(
  "parse",
  {
    file: Args.file({ name: "FILE", exists: "yes" }),
    form: formOption,
    format: Options.choice("format", ["markdown", "sections", "json"]).pipe(
      Options.withDescription("markdown: the body; sections: the section list; json: everything"),
      Options.withDefault("markdown" as const)
    ),
    json: jsonOption
  },
  ({ file, form, format, json }) =>
    Effect.gen(function*() {
      const { parsed } = yield* readAndParse(file, form)
      if (json || format === "json") return yield* Output.json(summary(parsed))
      if (format === "sections") return yield* Output.lines(sectionsText(parsed))
      return yield* Output.lines(parsed.markdown.trimEnd())
    })
).pipe(Command.withDescription("Parse a filing into Markdown and sections, without storing it"))
