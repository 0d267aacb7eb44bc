/**
 * Rate limits count per wall-clock minute. A test that needs a whole window waits for a fresh one
 * when the current minute is nearly over, so a window change mid-test cannot reset its count.
 */
export const awaitFreshRateWindow = async (neededSeconds = 20): Promise<void> => {
  const intoMinute = Date.now() % 60_000
  if (60_000 - intoMinute < neededSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100))
  }
}
