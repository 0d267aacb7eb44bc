/**
 * Opens a page in headless Chromium, when the machine has it, and reports every request the page
 * made and how each ended, what the page shows, and a screenshot. Chromium is driven over the
 * DevTools protocol on a pipe (`--remote-debugging-pipe`), so no browser-automation package is
 * needed.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Readable, Writable } from "node:stream"

const candidates = ["chromium", "chromium-browser", "google-chrome"]

/** The Chromium program on the PATH; undefined when there is none. */
export const chromiumPath: string | undefined = (() => {
  for (const name of candidates) {
    try {
      return execFileSync("which", [name], { encoding: "utf8" }).trim() || undefined
    } catch {
      continue
    }
  }
  return undefined
})()

export interface PageRequest {
  readonly url: string
  /** The HTTP status; undefined when the request failed without one. */
  readonly status: number | undefined
  /** Why it failed (a refused connection, a blocked request); undefined when it got an answer. */
  readonly failure: string | undefined
}

export interface LoadedPage {
  readonly requests: ReadonlyArray<PageRequest>
  /** The value of `expression`, evaluated in the page once it has settled. */
  readonly evaluated: unknown
  /** A PNG of the viewport, base64. */
  readonly screenshot: string
}

interface Message {
  readonly id?: number
  readonly method?: string
  readonly params?: Record<string, unknown>
  readonly result?: Record<string, unknown>
  readonly error?: { readonly message: string }
  readonly sessionId?: string
}

/**
 * Loads `url`, waits for the load event and `settleMs` more (the page's own scripts render after
 * it), then evaluates `expression` in the page; with `awaitPromise`, an expression that gives a
 * promise is waited for and its value returned.
 */
export const loadPage = async (
  url: string,
  options: {
    readonly expression: string
    readonly awaitPromise?: boolean
    readonly settleMs?: number
    readonly timeoutMs?: number
  }
): Promise<LoadedPage> => {
  if (chromiumPath === undefined) throw new Error("no Chromium on the PATH")
  const profile = await mkdtemp(join(tmpdir(), "filings-chromium-"))
  const browser: ChildProcess = spawn(chromiumPath, [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    `--user-data-dir=${profile}`,
    "--window-size=1280,900",
    "--remote-debugging-pipe",
    "about:blank"
  ], { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] })
  const toBrowser = browser.stdio[3] as Writable
  const fromBrowser = browser.stdio[4] as Readable

  let nextId = 1
  const pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (e: Error) => void }>()
  const requests = new Map<string, { url: string; status: number | undefined; failure: string | undefined }>()
  let loaded: () => void = () => {}
  const loadEvent = new Promise<void>((resolve) => (loaded = resolve))

  const onMessage = (message: Message) => {
    if (message.id !== undefined) {
      const waiting = pending.get(message.id)
      pending.delete(message.id)
      if (message.error !== undefined) waiting?.reject(new Error(message.error.message))
      else waiting?.resolve(message.result ?? {})
      return
    }
    const params = message.params ?? {}
    const requestId = String(params.requestId)
    switch (message.method) {
      case "Network.requestWillBeSent": {
        const request = params.request as { url: string }
        requests.set(requestId, { url: request.url, status: undefined, failure: undefined })
        break
      }
      case "Network.responseReceived": {
        const known = requests.get(requestId)
        if (known !== undefined) known.status = (params.response as { status: number }).status
        break
      }
      case "Network.loadingFailed": {
        const known = requests.get(requestId)
        if (known !== undefined) known.failure = String(params.errorText)
        break
      }
      case "Page.loadEventFired":
        loaded()
        break
    }
  }

  let buffered = ""
  fromBrowser.setEncoding("utf8")
  fromBrowser.on("data", (chunk: string) => {
    buffered += chunk
    let end = buffered.indexOf("\0")
    while (end >= 0) {
      onMessage(JSON.parse(buffered.slice(0, end)) as Message)
      buffered = buffered.slice(end + 1)
      end = buffered.indexOf("\0")
    }
  })

  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }) + "\0")
    })

  const timeout = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`the page did not load within ${options.timeoutMs ?? 60_000} ms`)),
      options.timeoutMs ?? 60_000
    ).unref()
  )
  try {
    return await Promise.race([
      timeout,
      (async () => {
        const { targetId } = await send("Target.createTarget", { url: "about:blank" })
        const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true })
        const session = String(sessionId)
        await send("Network.enable", {}, session)
        await send("Page.enable", {}, session)
        await send("Page.navigate", { url }, session)
        await loadEvent
        await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 3_000))
        const evaluation = await send(
          "Runtime.evaluate",
          { expression: options.expression, returnByValue: true, awaitPromise: options.awaitPromise ?? false },
          session
        )
        const { data } = await send("Page.captureScreenshot", { format: "png" }, session)
        return {
          requests: [...requests.values()],
          evaluated: (evaluation.result as { value?: unknown } | undefined)?.value,
          screenshot: String(data)
        }
      })()
    ])
  } finally {
    browser.kill("SIGKILL")
    await new Promise((resolve) => (browser.exitCode === null ? browser.once("exit", resolve) : resolve(undefined)))
    // Chromium's helper processes may still write to the profile for a moment after it is killed.
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  }
}
