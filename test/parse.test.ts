/**
 * `filings parse`: the parser on its own, through the real command.
 */
import { assert, describe, it } from "@effect/vitest"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { cli, exampleEightK, withTemporaryDataDir } from "./support/filings.js"

interface ParseOutput {
  readonly doc_type: string
  readonly word_count: number
  readonly sections: ReadonlyArray<{
    name: string
    content: string
    word_count: number
    page_start: number
    page_end: number
  }>
  readonly exhibits: ReadonlyArray<{ exhibit_number: string; title: string; content: string }>
  readonly warnings: ReadonlyArray<string>
}

describe("filings parse", () => {
  it("--json prints the form, the sections with words and pages, the exhibits and the warnings", () =>
    withTemporaryDataDir(async (storage) => {
      const result = await cli(storage, ["parse", exampleEightK, "--json"])
      assert.strictEqual(result.exitCode, 0, result.stderr)
      const parsed = JSON.parse(result.stdout) as ParseOutput
      assert.strictEqual(parsed.doc_type, "8-K")
      assert.deepStrictEqual(parsed.sections.map((section) => section.name), [
        "Item 2.02. Results of Operations and Financial Condition",
        "Item 9.01. Financial Statements and Exhibits",
        "Signatures"
      ])
      assert.include(parsed.sections[0]?.content, "issued a press release announcing its results")
      assert.deepStrictEqual(parsed.sections.map((section) => [section.page_start, section.page_end]), [
        [1, 1],
        [1, 1],
        [
          1,
          1
        ]
      ])
      // The cover page (before Item 2.02) belongs to no section; everything else is in one.
      const inSections = parsed.sections.reduce((sum, section) => sum + section.word_count, 0)
      assert.deepStrictEqual([parsed.word_count, inSections], [123, 102])
      assert.deepStrictEqual(parsed.exhibits.map((exhibit) => [exhibit.exhibit_number, exhibit.title]), [[
        "99.1",
        "PRESS RELEASE"
      ]])
      assert.match(parsed.exhibits[0]?.content ?? "", /\| Revenue \| \$48,210 \| \$43,050 \|/)
      assert.isArray(parsed.warnings)
    }))

  it("--format sections lists the sections; --format markdown prints the body", () =>
    withTemporaryDataDir(async (storage) => {
      const sections = await cli(storage, ["parse", exampleEightK, "--format", "sections"])
      assert.match(sections.stdout, /^SECTION\s+WORDS\s+PAGES$/m)
      assert.match(sections.stdout, /^Item 9\.01\. Financial Statements and Exhibits\s+20\s+1$/m)
      const markdown = await cli(storage, ["parse", exampleEightK])
      assert.match(markdown.stdout, /^### Item 2\.02 Results of Operations and Financial Condition\.$/m)
    }))

  it("a file that is not a filing fails with one line and status 1", () =>
    withTemporaryDataDir(async (storage) => {
      const file = join(storage.dataDir, "garbage.pdf")
      await writeFile(file, Buffer.from([0x00, 0x01, 0xff, 0x00, 0x7f, 0x00]))
      const result = await cli(storage, ["parse", file])
      assert.strictEqual(result.exitCode, 1)
      assert.match(result.stderr, /^error: .*garbage\.pdf: /m)
      assert.strictEqual(result.stdout, "")
    }))
})

describe("filings extract", () => {
  it("prints the metrics, exhibits and signatures of a filing as JSON, the fields asked for only", () =>
    withTemporaryDataDir(async (storage) => {
      const result = await cli(storage, ["extract", exampleEightK, "--fields", "metrics,exhibits,signatures"])
      assert.strictEqual(result.exitCode, 0, result.stderr)
      const extraction = JSON.parse(result.stdout) as Record<string, unknown>
      assert.deepStrictEqual(Object.keys(extraction), ["doc_type", "metrics", "exhibits", "signatures", "warnings"])
      // No XBRL: the metrics are the press release's income statement, its quarter labelled from the
      // fiscal year end in the header, compared with the same quarter a year earlier.
      const metrics = extraction.metrics as Record<string, Record<string, unknown>>
      assert.deepStrictEqual(Object.keys(metrics), [
        "revenue",
        "net_income",
        "gross_profit",
        "operating_income",
        "eps_basic",
        "eps_diluted"
      ])
      assert.deepStrictEqual(metrics.revenue, {
        value: 48_210_000,
        unit: "USD",
        period: "Q3 2024",
        yoy_change: (48_210 - 43_050) / 43_050,
        source: "table:t002:Revenue"
      })
      assert.strictEqual(metrics.eps_diluted?.value, 0.25)
      assert.strictEqual(metrics.eps_diluted?.period, "Q3 2024")
      assert.deepStrictEqual(extraction.warnings, [])
      assert.deepStrictEqual(extraction.exhibits, [{
        number: "99.1",
        description: "Press release of Acme Anvil Corp dated November 5, 2024",
        url: "/v1/documents/0000999001-24-000017?exhibit=99.1"
      }])
      assert.deepStrictEqual(extraction.signatures, {
        signed_date: "2024-11-05",
        signers: [{ name: "Wile E. Coyote", title: "Chief Financial Officer" }]
      })
    }))

  it("rejects an unknown field with one line and status 1", () =>
    withTemporaryDataDir(async (storage) => {
      const result = await cli(storage, ["extract", exampleEightK, "--fields", "metrics,colours"])
      assert.strictEqual(result.exitCode, 1)
      assert.match(result.stderr, /^error: --fields takes metrics, tables, exhibits, signatures or all; not colours$/m)
    }))
})

describe("filings facts", () => {
  const report = `<html><body><ix:header><ix:resources>
<xbrli:context id="fy"><xbrli:entity><xbrli:identifier>0000999001</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="fy-anvils"><xbrli:entity><xbrli:identifier>0000999001</xbrli:identifier>
<xbrli:segment><xbrldi:explicitMember dimension="srt:ProductOrServiceAxis">acme:AnvilsMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header>
<p>Acme's net sales were $<ix:nonFraction id="f-1" name="us-gaap:Revenues" contextRef="fy" unitRef="usd" decimals="-6" scale="6">48.2</ix:nonFraction> million,
of which anvils $<ix:nonFraction id="f-2" name="us-gaap:Revenues" contextRef="fy-anvils" unitRef="usd" decimals="-6" scale="6">31.0</ix:nonFraction> million;
the fiscal year ended <ix:nonNumeric id="f-3" name="dei:DocumentPeriodEndDate" contextRef="fy" format="ixt:date-monthname-day-year-en">September 28, 2024</ix:nonNumeric>.</p>
</body></html>`

  it("--json prints every fact with its label, value, unit, period, dimensions and place; filters by concept and totals", () =>
    withTemporaryDataDir(async (storage) => {
      const file = join(storage.dataDir, "acme-20240928.htm")
      await writeFile(file, report)
      const result = await cli(storage, ["facts", file, "--json"])
      assert.strictEqual(result.exitCode, 0, result.stderr)
      const { facts, warnings } = JSON.parse(result.stdout) as {
        facts: ReadonlyArray<Record<string, unknown>>
        warnings: ReadonlyArray<string>
      }
      assert.deepStrictEqual(warnings, [])
      assert.deepStrictEqual(facts[0], {
        concept: "us-gaap:Revenues",
        label: "Revenues",
        value: 48_200_000,
        unit: "USD",
        decimals: -6,
        period: { start: "2023-10-01", end: "2024-09-28" },
        dimensions: {},
        element_id: "f-1",
        location: { section: null, chunk_id: "c0001", block: 0 }
      })
      assert.deepStrictEqual(facts[1]?.dimensions, { "srt:ProductOrServiceAxis": "acme:AnvilsMember" })
      assert.deepStrictEqual(facts.map((fact) => [fact.concept, fact.value]), [
        ["us-gaap:Revenues", 48_200_000],
        ["us-gaap:Revenues", 31_000_000],
        ["dei:DocumentPeriodEndDate", "2024-09-28"]
      ])
      const totals = await cli(storage, [
        "facts",
        file,
        "--concept",
        "us-gaap:Revenues",
        "--dimensions",
        "none",
        "--json"
      ])
      assert.deepStrictEqual(
        (JSON.parse(totals.stdout) as { facts: ReadonlyArray<{ value: number }> }).facts.map((fact) => fact.value),
        [48_200_000]
      )
      const text = await cli(storage, ["facts", file, "--concept", "us-gaap:Revenues"])
      assert.deepStrictEqual(text.stdout.trim().split("\n"), [
        "us-gaap:Revenues  2023-10-01 to 2024-09-28  48200000 USD",
        "us-gaap:Revenues  2023-10-01 to 2024-09-28  [srt:ProductOrServiceAxis=acme:AnvilsMember]  31000000 USD"
      ])
    }))

  it("rejects a --dimensions other than none with one line and status 1", () =>
    withTemporaryDataDir(async (storage) => {
      const result = await cli(storage, ["facts", exampleEightK, "--dimensions", "some"])
      assert.strictEqual(result.exitCode, 1)
      assert.match(result.stderr, /^error: --dimensions takes none; not some$/m)
    }))
})
