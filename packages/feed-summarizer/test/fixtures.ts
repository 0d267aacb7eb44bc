/** A small synthetic results release, as the parser's chunks, for the summarizer's tests. */
import type { SummaryInput } from "@filings/feed-summarizer"

export const resultsRelease: SummaryInput = {
  source: "0000999001-26-000042-ex99.1",
  docType: "PRESS_RELEASE",
  title: "Acme Widgets Reports Record Third Quarter Results and Raises Full-Year Outlook",
  companyName: "Acme Widgets Inc.",
  items: ["2.02", "9.01"],
  chunks: [
    {
      id: "c0001",
      section: "Exhibit 99.1",
      text: [
        "# Acme Widgets Reports Record Third Quarter Results",
        "",
        "SPRINGFIELD, Ill., Oct. 28, 2026 -- Acme Widgets Inc. (NYSE: ACME) today announced results for its third quarter ended September 30, 2026.",
        "",
        "- Revenue of **$412.5 million**, up 18% compared with $349.6 million in the prior-year quarter.",
        "- Diluted earnings per share of $1.42, compared with $0.97 a year ago.",
        "",
        "\"We delivered another quarter of strong growth,\" said Jane Roe, Chief Executive Officer."
      ].join("\n")
    },
    {
      id: "c0002",
      section: "Exhibit 99.1",
      text: [
        "## Outlook",
        "",
        "The company raises its full-year 2026 guidance and now expects revenue of $1.60 billion to $1.62 billion and diluted earnings per share of $5.10 to $5.20.",
        "",
        "| | Q3 2026 | Q3 2025 |",
        "|---|---|---|",
        "| Revenue | 412.5 | 349.6 |"
      ].join("\n")
    },
    {
      id: "c0003",
      section: "Exhibit 99.1",
      text: [
        "## Conference Call",
        "",
        "The company will host a conference call and webcast at 5:00 p.m. Eastern Time on October 28, 2026.",
        "",
        "## Forward-Looking Statements",
        "",
        "This press release contains forward-looking statements, including guidance for 2026 revenue growth of 15%, that involve risks and uncertainties."
      ].join("\n")
    }
  ]
}
