/**
 * Bytes to text for EDGAR documents, with the WHATWG `TextDecoder` (Node, browsers, workers).
 *
 * The charset comes from a byte-order mark, else the content type, else a `<meta>` tag or XML
 * declaration near the start. Without one, bytes are UTF-8 when they are valid UTF-8 and
 * windows-1252 otherwise: older EDGAR filings are windows-1252/latin1 without saying so. A declared
 * latin1/ASCII charset is also overruled when the bytes are non-ASCII, valid UTF-8: the declaration
 * is then a template default that the content disproves.
 */

import { Either } from "effect"

export interface Decoded {
  readonly text: string
  /** WHATWG name of the encoding used, e.g. "utf-8", "windows-1252". */
  readonly charset: string
  readonly warnings: ReadonlyArray<string>
}

export type DecodeProblem =
  | { readonly reason: "empty"; readonly detail: string }
  | { readonly reason: "binary"; readonly detail: string }

// How much of the start to inspect for a charset declaration or binary content.
const sniffLength = 4096
const binarySampleLength = 65536
// Text has no NUL bytes; a few in a sample may be corruption, more mean a binary file.
const maxNulRatio = 0.001

const magicNumbers: ReadonlyArray<readonly [string, ReadonlyArray<number>]> = [
  ["PDF", [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ["PNG image", [0x89, 0x50, 0x4e, 0x47]],
  ["JPEG image", [0xff, 0xd8, 0xff]],
  ["GIF image", [0x47, 0x49, 0x46, 0x38]],
  ["ZIP archive (or XLSX/DOCX)", [0x50, 0x4b, 0x03, 0x04]],
  ["OLE compound file (XLS/DOC)", [0xd0, 0xcf, 0x11, 0xe0]],
  ["gzip archive", [0x1f, 0x8b]]
]

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>): boolean =>
  prefix.every((byte, index) => bytes[index] === byte)

const binaryKind = (bytes: Uint8Array): string | undefined => {
  for (const [kind, magic] of magicNumbers) {
    if (startsWith(bytes, magic)) return kind
  }
  const sample = bytes.subarray(0, binarySampleLength)
  let nuls = 0
  for (const byte of sample) if (byte === 0) nuls++
  return nuls > Math.max(1, sample.length * maxNulRatio)
    ? `binary data (${nuls} NUL bytes in the first ${sample.length})`
    : undefined
}

const byteOrderMark = (bytes: Uint8Array): string | undefined => {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return "utf-8"
  if (startsWith(bytes, [0xff, 0xfe])) return "utf-16le"
  if (startsWith(bytes, [0xfe, 0xff])) return "utf-16be"
  return undefined
}

const contentTypeCharset = /;\s*charset\s*=\s*["']?([\w.:-]+)/i
const metaCharset = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i
const xmlEncoding = /^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i

/** The charset declared in the content type, or (unless the content type says plain text) in the markup. */
const declaredCharset = (bytes: Uint8Array, contentType: string | undefined): string | undefined => {
  const fromContentType = contentType === undefined ? undefined : contentTypeCharset.exec(contentType)?.[1]
  if (fromContentType !== undefined) return fromContentType
  if (contentType !== undefined && /^\s*text\/plain\b/i.test(contentType)) return undefined
  const head = decodeWindows1252(bytes.subarray(0, sniffLength))
  return metaCharset.exec(head)?.[1] ?? xmlEncoding.exec(head)?.[1]
}

const encodingFor = (label: string): string | undefined => {
  try {
    return new TextDecoder(label).encoding
  } catch {
    return undefined
  }
}

const decodeStrictUtf8 = (bytes: Uint8Array): string | undefined => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

// windows-1252 bytes 0x80-0x9F (WHATWG encoding standard); undefined bytes map to the C1 control.
const windows1252High = [
  0x20ac,
  0x81,
  0x201a,
  0x0192,
  0x201e,
  0x2026,
  0x2020,
  0x2021,
  0x02c6,
  0x2030,
  0x0160,
  0x2039,
  0x0152,
  0x8d,
  0x017d,
  0x8f,
  0x90,
  0x2018,
  0x2019,
  0x201c,
  0x201d,
  0x2022,
  0x2013,
  0x2014,
  0x02dc,
  0x2122,
  0x0161,
  0x203a,
  0x0153,
  0x9d,
  0x017e,
  0x0178
]

/**
 * windows-1252 by table: Node 20's `TextDecoder("windows-1252")` decodes 0x80-0x9F as C1 control
 * characters (ISO-8859-1), which would lose the curly quotes and dashes old filings are full of.
 */
export const decodeWindows1252 = (bytes: Uint8Array): string => {
  // The platform decoder is fast (and correct outside 0x80-0x9F); the table fixes that range, which
  // it may have decoded as C1 controls. A decoder that already maps it right leaves nothing to fix.
  const latin = new TextDecoder("windows-1252").decode(bytes)
  return c1Control.test(latin) ? latin.replace(c1Controls, fromC1Control) : latin
}

const c1Control = /[\u0080-\u009f]/
const c1Controls = /[\u0080-\u009f]/g
const fromC1Control = (character: string): string => {
  const code = character.charCodeAt(0)
  return String.fromCharCode(windows1252High[code - 0x80] ?? code)
}

const decodeWith = (encoding: string, bytes: Uint8Array): string =>
  encoding === "windows-1252" ? decodeWindows1252(bytes) : new TextDecoder(encoding).decode(bytes)

// Read four bytes at a time where the bytes are aligned for it: a whole filing is scanned here.
const highBits = 0x80808080

const hasNonAscii = (bytes: Uint8Array): boolean => {
  const alignedStart = Math.min(bytes.length, (4 - (bytes.byteOffset % 4)) % 4)
  const words = Math.floor((bytes.length - alignedStart) / 4)
  for (let index = 0; index < alignedStart; index++) {
    if (bytes[index]! >= 0x80) return true
  }
  const wide = new Uint32Array(bytes.buffer, bytes.byteOffset + alignedStart, words)
  for (let index = 0; index < wide.length; index++) {
    if ((wide[index]! & highBits) !== 0) return true
  }
  for (let index = alignedStart + words * 4; index < bytes.length; index++) {
    if (bytes[index]! >= 0x80) return true
  }
  return false
}

export const decode = (bytes: Uint8Array, contentType: string | undefined): Either.Either<Decoded, DecodeProblem> => {
  const ok = (text: string, charset: string, warnings: ReadonlyArray<string> = []) =>
    Either.right({ text, charset, warnings })
  if (bytes.length === 0) return Either.left({ reason: "empty", detail: "no bytes" })

  const bom = byteOrderMark(bytes)
  if (bom !== undefined) return ok(decodeWith(bom, bytes), bom)

  const binary = binaryKind(bytes)
  if (binary !== undefined) return Either.left({ reason: "binary", detail: binary })

  const warnings: Array<string> = []
  const label = declaredCharset(bytes, contentType)
  let encoding = label === undefined ? undefined : encodingFor(label)
  if (label !== undefined && encoding === undefined) {
    warnings.push(`unknown charset "${label}" ignored`)
  }
  // "replacement" is the WHATWG stand-in for encodings that must not be decoded (e.g. ISO-2022-KR).
  if (encoding === "replacement") {
    warnings.push(`charset "${label}" cannot be decoded safely; ignored`)
    encoding = undefined
  }

  if (encoding === undefined || encoding === "utf-8") {
    const utf8 = decodeStrictUtf8(bytes)
    if (utf8 !== undefined) return ok(utf8, "utf-8", warnings)
    warnings.push(
      `${encoding === undefined ? "bytes" : "bytes declared as UTF-8"} are not valid UTF-8; decoded as windows-1252`
    )
    return ok(decodeWindows1252(bytes), "windows-1252", warnings)
  }
  if (encoding === "windows-1252") {
    // ASCII is the same in every charset EDGAR uses: decode it as such, without the 0x80-0x9F fix-up.
    if (!hasNonAscii(bytes)) return ok(new TextDecoder("utf-8").decode(bytes), encoding, warnings)
    const utf8 = decodeStrictUtf8(bytes)
    if (utf8 !== undefined) {
      warnings.push(`declared charset "${label}" but the bytes are valid UTF-8; decoded as UTF-8`)
      return ok(utf8, "utf-8", warnings)
    }
  }
  return ok(decodeWith(encoding, bytes), encoding, warnings)
}
