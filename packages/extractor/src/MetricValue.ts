/**
 * The value of a metric the extractor finds in a filing, with its unit and period. The shape is
 * declared once, in `@filings/domain`'s `ExtractedValues` module, and used here as it is (as are
 * those of `Tables`, `Exhibits` and `Signatures`).
 *
 * @module
 */
import { ExtractedValues } from "@filings/domain"

/**
 * A reported value: the number as the company reported it (scale applied, sign applied), its unit,
 * the document's period, the date a balance is measured at, the change on a year earlier and where
 * it comes from. Encoded, its keys are the API's (`as_of`, `yoy_change`).
 */
export const MetricValue = ExtractedValues.MetricValue
export type MetricValue = ExtractedValues.MetricValue
