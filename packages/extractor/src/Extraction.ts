/**
 * The shape of what the extractor finds in a filing: metrics with their units and periods,
 * classified tables, exhibit references and signatures, and the warnings met on the way. Each
 * shape is declared once, in `@filings/domain`'s `Extracted` module, and used here as it is.
 *
 * @module
 */
import { Extracted } from "@filings/domain"

/**
 * A reported value: the number as the company reported it (scale applied, sign applied), its unit,
 * the document's period, the date a balance is measured at, the change on a year earlier and where
 * it comes from. Encoded, its keys are the API's (`as_of`, `yoy_change`).
 */
export const MetricValue = Extracted.MetricValue
export type MetricValue = Extracted.MetricValue
