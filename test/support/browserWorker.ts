/**
 * The Web Worker of the browser test: parses the filing bytes it is sent with the bundled parser
 * alone and answers with the parse summary, or with what went wrong.
 */
import { parseSummary } from "./browserParse.js"

// The worker's global scope, as far as it is used here (the project's TypeScript has no DOM library).
declare const self: {
  onmessage: ((event: { readonly data: Uint8Array }) => void) | null
  postMessage: (message: unknown) => void
}

self.onmessage = (event) => {
  parseSummary(event.data).then(
    (summary) => self.postMessage({ summary }),
    (error: unknown) =>
      self.postMessage({ error: error instanceof Error ? error.stack ?? error.message : String(error) })
  )
}
