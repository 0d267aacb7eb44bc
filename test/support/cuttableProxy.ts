/**
 * A TCP proxy in front of a server whose connections the test can cut, as a dropped network or a
 * restarted load balancer would, and whose target it can move to another server: a client that
 * reconnects through it lands wherever the target now is.
 */
import { createServer, type Server, Socket } from "node:net"

export interface CuttableProxy {
  readonly url: string
  /** Where new connections go from now on. */
  readonly retarget: (url: string) => void
  /** The head (request line and headers) of every request clients sent through it, oldest first. */
  readonly requestHeads: () => ReadonlyArray<string>
  /** Destroys every open connection, both ways; returns how many there were. */
  readonly cut: () => number
  readonly close: () => Promise<void>
}

export const startCuttableProxy = (targetUrl: string): Promise<CuttableProxy> =>
  new Promise((resolve, reject) => {
    let target = new URL(targetUrl)
    const open = new Set<Socket>()
    const heads: Array<string> = []
    const server: Server = createServer((client) => {
      const upstream = new Socket()
      upstream.connect(Number(target.port), target.hostname)
      for (const socket of [client, upstream]) {
        open.add(socket)
        socket.on("close", () => open.delete(socket))
        socket.on("error", () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.on("data", (chunk: Buffer) => {
        const text = chunk.toString("latin1")
        if (/^[A-Z]+ \S+ HTTP\/1\.1\r\n/.test(text)) heads.push(text.slice(0, Math.max(0, text.indexOf("\r\n\r\n"))))
      })
      client.pipe(upstream)
      upstream.pipe(client)
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (address === null || typeof address === "string") return reject(new Error("no TCP address"))
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        retarget: (url) => (target = new URL(url)),
        requestHeads: () => [...heads],
        cut: () => {
          const count = open.size / 2
          for (const socket of open) socket.destroy()
          return count
        },
        close: () =>
          new Promise((done) => {
            for (const socket of open) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })
