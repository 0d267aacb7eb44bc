/**
 * The `filings` command line: `serve`, `parse`, `extract`, `facts`, `summarize`, `keys`, `ingest`, `search`,
 * `ask`, `edgar`, `companies` and `webhooks`. Operator commands get their `Operator` from `OperatorSelection`, so they work whether or
 * not a server is running.
 */
import { Command } from "@effect/cli"
import { askCommand } from "./AskCommand.js"
import { companiesCommand } from "./CompaniesCommand.js"
import { edgarCommand } from "./EdgarCommand.js"
import { extractCommand } from "./ExtractCommand.js"
import { factsCommand } from "./FactsCommand.js"
import { ingestCommand } from "./IngestCommand.js"
import { keysCommand } from "./KeysCommand.js"
import * as OperatorSelection from "./OperatorSelection.js"
import { parseCommand } from "./ParseCommand.js"
import { searchCommand } from "./SearchCommand.js"
import { serveCommand } from "./ServeCommand.js"
import { summarizeCommand } from "./SummarizeCommand.js"
import { webhooksCommand } from "./WebhooksCommand.js"

const filings = Command.make("filings").pipe(
  Command.withSubcommands([
    serveCommand,
    parseCommand,
    extractCommand,
    factsCommand,
    summarizeCommand,
    keysCommand.pipe(Command.provide(OperatorSelection.layer)),
    ingestCommand.pipe(Command.provide(OperatorSelection.layer)),
    searchCommand.pipe(Command.provide(OperatorSelection.layer)),
    askCommand.pipe(Command.provide(OperatorSelection.layer)),
    edgarCommand.pipe(Command.provide(OperatorSelection.layer)),
    companiesCommand.pipe(Command.provide(OperatorSelection.layer)),
    webhooksCommand
  ])
)

export const run = Command.run(filings, { name: "filings", version: "0.1.0" })
