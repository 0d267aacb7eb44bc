/**
 * Child process of `bench/parser.ts`: parses one file with the parser's full path and prints,
 * as JSON, the process's resident set size before the work and its peak (`maxRSS` from
 * getrusage, which the OS tracks, so no sampling can miss a short spike). Running each file in a
 * fresh process keeps one file's garbage from counting against the next.
 *
 *   node --import tsx bench/support/parserRss.ts <file.htm>
 */
import { readFileSync } from "node:fs"
import { runFullPath } from "./parserPath.js"

const path = process.argv[2]
if (path === undefined) {
  process.stderr.write("usage: parserRss.ts <file.htm>\n")
  process.exit(2)
}
const bytes = readFileSync(path)
const beforeMb = process.memoryUsage().rss / 1024 / 1024
const markdownLength = runFullPath(bytes)
const peakMb = process.resourceUsage().maxRSS / 1024
process.stdout.write(`${JSON.stringify({ beforeMb, peakMb, markdownLength })}\n`)
