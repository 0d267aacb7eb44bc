/**
 * uudecoding, for the binary documents (images, PDFs, ZIP and Excel files) of an EDGAR submission,
 * which arrive as `begin 644 name` ... `end` blocks.
 */
import { Either } from "effect"

const beginLine = /^begin\s+[0-7]{3,4}\s+(.+?)\s*$/m

/** The file name of a uuencoded body, when the text is one. */
export const uuencodedName = (body: string): string | undefined => {
  const start = body.trimStart()
  if (!start.startsWith("begin ")) return undefined
  return beginLine.exec(start)?.[1]
}

// Each character encodes 6 bits as (value + 32); "`" stands for 0.
const sixBits = (code: number): number => (code - 32) & 0x3f

export const uudecode = (body: string): Either.Either<Uint8Array, string> => {
  const lines = body.replace(/\r\n?/g, "\n").split("\n")
  const begin = lines.findIndex((line) => beginLine.test(line))
  if (begin === -1) return Either.left("no 'begin' line")
  const chunks: Array<Uint8Array> = []
  let total = 0
  let ended = false
  for (const line of lines.slice(begin + 1)) {
    if (line.trim() === "end") {
      ended = true
      break
    }
    if (line === "") continue
    const length = sixBits(line.charCodeAt(0))
    if (length === 0) continue
    const chunk = new Uint8Array(length)
    let written = 0
    // Encoders may strip trailing spaces, so characters past the end of a line count as zero.
    for (let index = 1; written < length; index += 4) {
      const a = sixBits(line.charCodeAt(index))
      const b = sixBits(line.charCodeAt(index + 1) || 32)
      const c = sixBits(line.charCodeAt(index + 2) || 32)
      const d = sixBits(line.charCodeAt(index + 3) || 32)
      const bytes = [(a << 2) | (b >> 4), ((b & 0x0f) << 4) | (c >> 2), ((c & 0x03) << 6) | d]
      for (const byte of bytes) {
        if (written < length) chunk[written++] = byte
      }
    }
    chunks.push(chunk)
    total += length
  }
  if (!ended) return Either.left("no 'end' line (truncated?)")
  const result = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    result.set(chunk, offset)
    offset += chunk.length
  }
  return Either.right(result)
}
