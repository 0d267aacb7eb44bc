/**
 * When a failed delivery is attempted again, per the specification: attempt 1 at once, then 1
 * minute, 5 minutes, 30 minutes, 2 hours and 8 hours after the attempt before. After the 6th
 * failed attempt the delivery has failed, and its subscription with it.
 */
import { Duration, Option } from "effect"

export const MaxAttempts = 6

const delays: ReadonlyArray<Duration.Duration> = [
  Duration.minutes(1),
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(2),
  Duration.hours(8)
]

/** The wait before the next attempt, after `failedAttempts` have failed; none after the 6th. */
export const delayAfter = (failedAttempts: number): Option.Option<Duration.Duration> =>
  failedAttempts >= 1 && failedAttempts < MaxAttempts ? Option.some(delays[failedAttempts - 1]!) : Option.none()
