/**
 * The earnings call a press release announces, in UTC: the day (a date, a month and day, today,
 * tomorrow, a weekday), the clock time and the US time zone named, daylight saving included.
 */
import { assert, describe, it } from "@effect/vitest"
import { Blocks, Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { findCallAnnouncement } from "../src/CallAnnouncements.js"
import { heading, paragraph } from "./support/blocks.js"

const at = (text: string, publishedOn: string) => findCallAnnouncement([paragraph(text)], publishedOn)?.scheduledAt

describe("call announcements", () => {
  it("reads today, a full date, a month and day, and a weekday", () => {
    assert.strictEqual(
      at("Adobe will webcast its earnings conference call today at 2:00 p.m. Pacific Time.", "2023-03-15"),
      "2023-03-15T21:00:00.000Z"
    )
    assert.strictEqual(
      at("The company will host a conference call at 5:00 p.m. ET on Thursday, November 7, 2024.", "2024-11-05"),
      "2024-11-07T22:00:00.000Z"
    )
    // Summer time in New York: 4:30 p.m. EDT is 20:30 UTC.
    assert.strictEqual(
      at("A conference call to discuss the results is scheduled for July 24 at 4:30 pm Eastern Time.", "2024-07-10"),
      "2024-07-24T20:30:00.000Z"
    )
    assert.strictEqual(
      at("Management will hold an earnings call on Thursday at 8 a.m. CT. Details follow.", "2024-11-05"),
      "2024-11-07T14:00:00.000Z"
    )
  })

  it("finds the announcing sentence among others", () => {
    const release: Array<Blocks.Block> = [
      heading(1, "Acme Reports Results"),
      paragraph("Revenue grew 12% at 9:00 a.m. on the trading floor."),
      paragraph("Acme will host a webcast tomorrow at 10:30 a.m. ET. Slides are online.")
    ]
    const announcement = findCallAnnouncement(release, "2024-02-28")
    assert.strictEqual(announcement?.scheduledAt, "2024-02-29T15:30:00.000Z")
    assert.strictEqual(announcement?.sentence, "Acme will host a webcast tomorrow at 10:30 a.m. ET.")
  })

  it("reads each block's plain text: Markdown marks dropped, a list item alone, no sentence across blocks", () => {
    const inlines: Array<Blocks.Inline> = [
      { kind: "text", text: "Acme will host a " },
      { kind: "strong", children: [{ kind: "text", text: "conference call" }] },
      { kind: "text", text: " at " },
      { kind: "link", url: "https://example.com/call", children: [{ kind: "text", text: "5:00 p.m. ET" }] },
      { kind: "text", text: " on November 7, 2024." }
    ]
    const announcement = findCallAnnouncement(
      [{ kind: "paragraph", page: 1, text: "", inlines, style: Blocks.plainStyle }],
      "2024-11-05"
    )
    assert.strictEqual(announcement?.scheduledAt, "2024-11-07T22:00:00.000Z")
    assert.strictEqual(announcement?.sentence, "Acme will host a conference call at 5:00 p.m. ET on November 7, 2024.")
    const listed = findCallAnnouncement(
      [{
        kind: "list",
        page: 1,
        ordered: false,
        items: [{
          text: "Earnings call: today at 4:30 p.m. ET",
          inlines: [
            { kind: "text", text: "Earnings call: " },
            { kind: "emphasis", children: [{ kind: "text", text: "today" }] },
            { kind: "text", text: " at 4:30 p.m. ET" }
          ]
        }]
      }],
      "2024-11-05"
    )
    assert.strictEqual(listed?.scheduledAt, "2024-11-05T21:30:00.000Z")
    assert.strictEqual(listed?.sentence, "Earnings call: today at 4:30 p.m. ET")
    assert.isUndefined(
      findCallAnnouncement(
        [paragraph("Acme will host a conference call"), paragraph("at 5:00 p.m. ET today.")],
        "2024-11-05"
      )
    )
  })

  it("gives nothing without a time, a zone or a day", () => {
    assert.isUndefined(at("A conference call will be held at a later date.", "2024-01-01"))
    assert.isUndefined(at("The conference call starts at 5:00 p.m. on November 7, 2024.", "2024-11-05"))
    assert.isUndefined(at("The conference call starts at 5:00 p.m. ET.", "2024-11-05"))
    assert.isUndefined(at("Revenue was $5 million at 5:00 p.m. ET on November 7, 2024.", "2024-11-05"))
  })
})

const corpus = corpusUrl

describe.skipIf(corpusMissing)("a real press release in ../shared/corpus", () => {
  it.effect("Adobe's EX-99.1 of March 15, 2023 announces its call for 2 p.m. Pacific that day", () =>
    Effect.gen(function*() {
      const path = "press-releases/adbe-8k-2023-03-15-ex99-1.htm"
      const parsed = yield* Parser.parse({ bytes: readFileSync(new URL(path, corpus)), fileName: path })
      assert.strictEqual(findCallAnnouncement(parsed.blocks, "2023-03-15")?.scheduledAt, "2023-03-15T21:00:00.000Z")
    }))
})
