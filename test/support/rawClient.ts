/**
 * A client on a bare TCP socket, for tests of clients that misbehave on the wire: one that sends
 * its headers or its body slowly, announces more than it sends, or stops reading. It keeps what it
 * received and when the server closed the connection.
 */
import { connect, type Socket } from "node:net"

export interface RawClient {
  readonly socket: Socket
  /** Everything received so far, as text. */
  readonly received: () => string
  /** Bytes this client handed to its socket so far. */
  readonly sent: () => number
  /** Writes `data` unless the connection is gone; false once it is. */
  readonly send: (data: string | Uint8Array) => boolean
  /** Resolves when the connection is closed, by either side, with the time it was closed at. */
  readonly closed: Promise<number>
  readonly isClosed: () => boolean
}

/** Opens a connection to the server at `url` (an `http://host:port` URL). */
export const openRawClient = (url: string): Promise<RawClient> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    let received = ""
    let sent = 0
    let isClosed = false
    // A server that closes a connection while the client still sends makes its writes fail; that is expected.
    socket.on("error", () => undefined)
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")))
    const closed = new Promise<number>((done) =>
      socket.once("close", () => {
        isClosed = true
        done(Date.now())
      })
    )
    socket.once("connect", () =>
      resolve({
        socket,
        received: () => received,
        sent: () => sent,
        send: (data) => {
          if (isClosed || socket.destroyed || !socket.writable) return false
          sent += typeof data === "string" ? Buffer.byteLength(data) : data.byteLength
          socket.write(data)
          return true
        },
        closed,
        isClosed: () => isClosed
      }))
    socket.once("error", reject)
  })

/** The status and JSON body of the first response in `text`, once it is whole; undefined before. */
export const responseIn = (text: string): { readonly status: number; readonly body: unknown } | undefined => {
  const headEnd = text.indexOf("\r\n\r\n")
  if (headEnd < 0) return undefined
  const head = text.slice(0, headEnd)
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0)
  const body = text.slice(headEnd + 4, headEnd + 4 + length)
  if (body.length < length) return undefined
  return { status, body: length === 0 ? undefined : JSON.parse(body) }
}

/** The resident memory of the process `pid`, in bytes, read from `/proc/<pid>/status`. */
export const residentBytes = async (pid: number): Promise<number> => {
  const { readFile } = await import("node:fs/promises")
  const status = await readFile(`/proc/${pid}/status`, "utf8")
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]
  if (kilobytes === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`)
  return Number(kilobytes) * 1024
}
