/**
 * The check every list and search makes of its `start_date` and `end_date`: a range that ends before
 * it starts is refused as an invalid request that names both dates.
 */
import { ApiError } from "@filings/domain"
import { Effect } from "effect"

/** The refusal of a range whose `start_date` is after its `end_date`. */
export const reversedRange = (startDate: string | undefined, endDate: string | undefined): ApiError.InvalidRequest =>
  new ApiError.InvalidRequest({ message: `start_date ${startDate} is after end_date ${endDate}` })

/** Fails with {@link reversedRange} when both dates are given and the start is the later (`YYYY-MM-DD` dates). */
export const checkDateRange = (
  startDate: string | undefined,
  endDate: string | undefined
): Effect.Effect<void, ApiError.InvalidRequest> =>
  startDate !== undefined && endDate !== undefined && startDate > endDate
    ? Effect.fail(reversedRange(startDate, endDate))
    : Effect.void
