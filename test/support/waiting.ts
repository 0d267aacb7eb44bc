/**
 * Waiting in black-box tests: a pause, and polling until something holds, failing with what was
 * awaited (and, given a function, what the program said by then).
 */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls every 100 ms until `probe` gives a value; fails after `timeoutMs` saying what it waited for. */
export const eventually = async <A>(
  what: string | (() => string),
  probe: () => Promise<A | undefined>,
  timeoutMs = 30_000
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await probe()
    if (value !== undefined) return value
    await sleep(100)
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`)
}

/** Runs `check` until it passes (it throws while it does not), for up to `timeoutMs`; then throws its error. */
export const holdsSoon = async (check: () => void | Promise<void>, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() >= deadline) throw error
      await sleep(50)
    }
  }
}
