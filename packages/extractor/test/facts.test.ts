/**
 * `Facts.facts`: every fact a filing tags. On a small document of our own, what each field means;
 * on every inline XBRL filing of the corpus (skipped where it is absent), the numeric facts equal a
 * second reading written from the specification (`support/inlineXbrlBySpec.ts`), each once; on
 * Apple's 10-Q, they equal the XBRL instance the regulator made of the same filing.
 */
import { assert, describe, it } from "@effect/vitest"
import { Facts } from "@filings/extractor"
import { Parser, XbrlFacts } from "@filings/filings-parser"
import { Effect } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import {
  hiddenFactIds,
  readNumericFactsBySpec,
  readTextFactsBySpec,
  type SpecFact
} from "./support/inlineXbrlBySpec.js"

const utf8 = (text: string) => new TextEncoder().encode(text)

const inline = (body: string) =>
  `<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body>
<ix:header><ix:resources>
<xbrli:context id="fy"><xbrli:entity><xbrli:identifier>0000000001</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="end"><xbrli:entity><xbrli:identifier>0000000001</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:instant>2024-09-28</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="fy-services"><xbrli:entity><xbrli:identifier>0000000001</xbrli:identifier>
<xbrli:segment><xbrldi:explicitMember dimension="srt:ProductOrServiceAxis">us-gaap:ServiceMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="usdPerShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator>
<xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header>
${body}
</body></html>`

const sample = inline(`
<p>Net sales <ix:nonFraction id="f-1" name="us-gaap:Revenues" contextRef="fy" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal">391,035</ix:nonFraction></p>
<p>Again: <ix:nonFraction id="f-2" name="us-gaap:Revenues" contextRef="fy" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal">391,035</ix:nonFraction></p>
<p>Services <ix:nonFraction id="f-3" name="us-gaap:Revenues" contextRef="fy-services" unitRef="usd" decimals="-6" scale="6">96,169</ix:nonFraction></p>
<p>Other loss (<ix:nonFraction id="f-4" name="us-gaap:OtherNonoperatingIncomeExpense" contextRef="fy" unitRef="usd" decimals="-6" scale="6" sign="-">269</ix:nonFraction>)</p>
<p>EPS <ix:nonFraction id="f-5" name="us-gaap:EarningsPerShareDiluted" contextRef="fy" unitRef="usdPerShare" decimals="2">6.08</ix:nonFraction></p>
<p>Goodwill <ix:nonFraction id="f-6" name="us-gaap:Goodwill" contextRef="end" unitRef="usd" xsi:nil="true"></ix:nonFraction></p>
<p>Lost <ix:nonFraction id="f-7" name="us-gaap:Assets" contextRef="nowhere" unitRef="usd" decimals="-6">1</ix:nonFraction></p>
<ix:nonNumeric id="f-8" name="us-gaap:RevenueRecognitionPolicyTextBlock" contextRef="fy">${
  "We recognize revenue. ".repeat(60)
}</ix:nonNumeric>
`)

describe("Facts.facts", () => {
  it.effect("reads each fact's concept, value with scale and sign, unit, precision, period and dimensions", () =>
    Effect.gen(function*() {
      const { facts, warnings } = yield* Facts.facts({ bytes: utf8(sample) })
      const numbers = facts.filter((fact) => fact.unit !== null)
      assert.deepStrictEqual(numbers, [
        {
          concept: "us-gaap:Revenues",
          label: "Revenues",
          value: 391035000000,
          unit: "USD",
          decimals: -6,
          period: { start: "2023-10-01", end: "2024-09-28" },
          dimensions: {},
          elementId: "f-1"
        },
        {
          concept: "us-gaap:Revenues",
          label: "Revenues",
          value: 96169000000,
          unit: "USD",
          decimals: -6,
          period: { start: "2023-10-01", end: "2024-09-28" },
          dimensions: { "srt:ProductOrServiceAxis": "us-gaap:ServiceMember" },
          elementId: "f-3"
        },
        {
          concept: "us-gaap:OtherNonoperatingIncomeExpense",
          label: "Other nonoperating income expense",
          value: -269000000,
          unit: "USD",
          decimals: -6,
          period: { start: "2023-10-01", end: "2024-09-28" },
          dimensions: {},
          elementId: "f-4"
        },
        {
          concept: "us-gaap:EarningsPerShareDiluted",
          label: "Earnings per share diluted",
          value: 6.08,
          unit: "USD/shares",
          decimals: 2,
          period: { start: "2023-10-01", end: "2024-09-28" },
          dimensions: {},
          elementId: "f-5"
        },
        {
          concept: "us-gaap:Goodwill",
          label: "Goodwill",
          value: null,
          unit: "USD",
          decimals: null,
          period: { instant: "2024-09-28" },
          dimensions: {},
          elementId: "f-6"
        }
      ])
      assert.deepStrictEqual(warnings, ["facts of context nowhere: no such context with a period; skipped"])
    }))

  it.effect("serves a long text fact cut at a word, with the length of its whole text", () =>
    Effect.gen(function*() {
      const { facts } = yield* Facts.facts({ bytes: utf8(sample) })
      const policy = facts.find((fact) => fact.concept === "us-gaap:RevenueRecognitionPolicyTextBlock")
      const whole = "We recognize revenue. ".repeat(60).trim()
      assert.strictEqual(policy?.textLength, whole.length)
      assert.isTrue(typeof policy?.value === "string" && policy.value.endsWith("…"))
      const shown = String(policy?.value).slice(0, -1)
      assert.isAtMost(shown.length, Facts.maxTextLength)
      assert.isTrue(whole.startsWith(shown) && whole.charAt(shown.length) === " ", "cut where a word ends")
      assert.isNull(policy?.unit)
    }))

  it.effect("keeps two long texts of one concept and context apart though their first 1,000 characters agree", () =>
    Effect.gen(function*() {
      const opening = "We recognize revenue. ".repeat(60)
      const { facts } = yield* Facts.facts({
        bytes: utf8(inline(`
<ix:nonNumeric id="t-1" name="us-gaap:RevenueRecognitionPolicyTextBlock" contextRef="fy">${opening}When control passes.</ix:nonNumeric>
<ix:nonNumeric id="t-2" name="us-gaap:RevenueRecognitionPolicyTextBlock" contextRef="fy">${opening}When the goods ship.</ix:nonNumeric>
<ix:nonNumeric id="t-3" name="us-gaap:RevenueRecognitionPolicyTextBlock" contextRef="fy">${opening}When control passes.</ix:nonNumeric>`))
      })
      assert.deepStrictEqual(facts.map((fact) => fact.elementId), ["t-1", "t-2"])
      assert.strictEqual(facts[0]?.value, facts[1]?.value, "their shown values are the same")
    }))

  it.effect("labels facts from the submission's label linkbase: the company's terse label first", () =>
    Effect.gen(function*() {
      const labels =
        `<link:linkbase xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink">
<link:labelLink xlink:type="extended" xlink:role="http://www.xbrl.org/2003/role/link">
<link:loc xlink:type="locator" xlink:label="loc_rev" xlink:href="https://xbrl.fasb.org/us-gaap/2024/elts/us-gaap-2024.xsd#us-gaap_Revenues"/>
<link:label xlink:type="resource" xlink:label="lab_rev" xlink:role="http://www.xbrl.org/2003/role/label" xml:lang="en-US">Revenues</link:label>
<link:label xlink:type="resource" xlink:label="lab_rev" xlink:role="http://www.xbrl.org/2003/role/terseLabel" xml:lang="en-US">Net sales</link:label>
<link:labelArc xlink:type="arc" xlink:arcrole="http://www.xbrl.org/2003/arcrole/concept-label" xlink:from="loc_rev" xlink:to="lab_rev"/>
</link:labelLink></link:linkbase>`
      const submission = [
        "<SEC-DOCUMENT>0000000001-24-000001.txt : 20241101",
        "<SEC-HEADER>0000000001-24-000001.hdr.sgml : 20241101",
        "ACCESSION NUMBER:\t\t0000000001-24-000001",
        "CONFORMED SUBMISSION TYPE:\t10-K",
        "</SEC-HEADER>",
        "<DOCUMENT>\n<TYPE>10-K\n<SEQUENCE>1\n<FILENAME>anvl-20240928.htm\n<TEXT>",
        sample,
        "</TEXT>\n</DOCUMENT>",
        "<DOCUMENT>\n<TYPE>EX-101.LAB\n<SEQUENCE>2\n<FILENAME>anvl-20240928_lab.xml\n<TEXT>\n<XBRL>",
        labels,
        "</XBRL>\n</TEXT>\n</DOCUMENT>",
        "</SEC-DOCUMENT>"
      ].join("\n")
      const { facts } = yield* Facts.facts({ bytes: utf8(submission) })
      assert.deepStrictEqual(
        [...new Set(facts.map((fact) => `${fact.concept}: ${fact.label}`))].slice(0, 2),
        ["us-gaap:Revenues: Net sales", "us-gaap:OtherNonoperatingIncomeExpense: Other nonoperating income expense"]
      )
    }))

  it.effect("locates each fact in the parsed document: its section, chunk, block and table cell", () =>
    Effect.gen(function*() {
      const html = inline(`
<h2>Item 8. Financial Statements</h2>
<p>Net sales were <ix:nonFraction id="f-1" name="us-gaap:Revenues" contextRef="fy" unitRef="usd" decimals="-6" scale="6">391,035</ix:nonFraction> million.</p>
<table>
<tr><td></td><td>2024</td></tr>
<tr><td>Net sales</td><td><ix:nonFraction id="f-2" name="us-gaap:Revenues" contextRef="fy-services" unitRef="usd" decimals="-6" scale="6">96,169</ix:nonFraction></td></tr>
<tr><td>Diluted EPS</td><td><ix:nonFraction id="f-3" name="us-gaap:EarningsPerShareDiluted" contextRef="fy" unitRef="usdPerShare" decimals="2">6.08</ix:nonFraction></td></tr>
</table>`)
      const bytes = utf8(html)
      const parsed = yield* Parser.parse({ bytes, form: "10-K" })
      const { facts } = yield* Facts.facts({ bytes, parsed })
      const locations = Object.fromEntries(facts.map((fact) => [fact.elementId, fact.location]))
      const table = parsed.blocks.findIndex((block) => block.kind === "table")
      const paragraph = parsed.blocks.findIndex((block) =>
        block.kind === "paragraph" && block.text.startsWith("Net sales")
      )
      assert.deepStrictEqual(locations["f-1"], {
        section: parsed.sections.find((section) => section.blockRange.start <= paragraph)?.title ?? null,
        chunkId: parsed.chunks.find((chunk) =>
          chunk.blockRange.start <= paragraph && paragraph < chunk.blockRange.end
        )!.id,
        block: paragraph
      })
      assert.deepStrictEqual(locations["f-2"]?.cell, { row: 1, column: 1 })
      assert.deepStrictEqual(locations["f-3"]?.cell, { row: 2, column: 1 })
      assert.strictEqual(locations["f-3"]?.block, table)
      const cell = locations["f-3"]!.cell!
      const block = parsed.blocks[table]
      assert.strictEqual(block?.kind === "table" ? block.rows[cell.row]?.[cell.column] : undefined, "6.08")
    }))

  it.effect("says a filing without XBRL has no facts", () =>
    Effect.gen(function*() {
      const { facts, warnings } = yield* Facts.facts({ bytes: utf8("<html><body><p>No tags here.</p></body></html>") })
      assert.deepStrictEqual(facts, [])
      assert.deepStrictEqual(warnings, ["the filing has no XBRL: no facts"])
    }))
})

/** Where a fact stands: its concept, period and dimensions, in one string. */
const placeOf = (fact: Pick<SpecFact, "concept" | "period" | "dimensions">) =>
  JSON.stringify([fact.concept, fact.period, Object.entries(fact.dimensions).sort()])

/**
 * Whether a served text is the expected one, whitespace aside (markup between words may or may not
 * stand for a space): the same, or, cut with `…`, its beginning.
 */
const sameText = (served: string, expected: string) => {
  const squeeze = (text: string) => text.replace(/\s+/g, "")
  return served.endsWith("…")
    ? squeeze(expected).startsWith(squeeze(served.slice(0, -1)))
    : squeeze(served) === squeeze(expected)
}

/**
 * Whether a table cell shows a tagged number: one of its figures times a power of ten (the tag's
 * scale: millions, thousands, percent) is the value, or the value is zero and the cell a dash, a
 * word or empty.
 */
const cellStates = (cell: string, value: number | null): boolean => {
  if (value === null) return true
  const figures = (cell.match(/\d[\d,]*(?:\.\d+)?|\.\d+/g) ?? []).map((figure) => Number(figure.replace(/,/g, "")))
  // A zero is shown as a dash, as "no" or "none", or left empty.
  if (value === 0) return figures.length === 0 || figures.includes(0) || /—|–|\bno(?:ne)?\b/i.test(cell)
  return figures.some((figure) =>
    figure !== 0 &&
    [-2, 0, 3, 6, 9].some((power) => Math.abs(figure * 10 ** power - Math.abs(value)) <= Math.abs(value) * 1e-9)
  )
}

/** A numeric fact as compared: what the specification defines it by, in one string. */
const keyOf = (fact: Pick<SpecFact, "concept" | "value" | "unit" | "period" | "dimensions">) =>
  JSON.stringify([fact.concept, fact.value, fact.unit, fact.period, Object.entries(fact.dimensions).sort()])

const inlineFilings = corpusMissing ?
  [] :
  ["10-K", "10-Q", "8-K", "DEF14A"].flatMap((folder) =>
    readdirSync(new URL(`${folder}/`, corpusUrl))
      .filter((name) => name.endsWith(".htm"))
      .map((name) => `${folder}/${name}`)
      .filter((path) => /<ix:header\b/i.test(readFileSync(new URL(path, corpusUrl), "utf8")))
  )

describe.skipIf(corpusMissing)("Facts.facts on the corpus", () => {
  it.effect.each(inlineFilings)(
    "%s: every numeric fact once, as the specification reads it",
    (path) =>
      Effect.gen(function*() {
        const html = readFileSync(new URL(path, corpusUrl), "utf8")
        const bySpec = readNumericFactsBySpec(html)
        assert.deepStrictEqual([...bySpec.unknownFormats], [], "formats the second reading does not know")
        const expected = new Set(bySpec.facts.map(keyOf))
        const { facts } = yield* Facts.facts({ bytes: utf8(html) })
        const read = facts.filter((fact) => fact.unit !== null).map((fact) =>
          keyOf({ ...fact, value: fact.value as number | null, unit: fact.unit! })
        )
        assert.strictEqual(new Set(read).size, read.length, "a fact is read twice")
        assert.deepStrictEqual(read.filter((key) => !expected.has(key)), [], "facts the specification does not give")
        const found = new Set(read)
        assert.deepStrictEqual([...expected].filter((key) => !found.has(key)), [], "facts left out")
        // A periodic report or a proxy tags numbers (IBM's and Wells Fargo's 10-Ks few: their statements are
        // in an exhibit); a current report's cover tags text alone.
        if (!path.startsWith("8-K/")) assert.isAbove(expected.size, 10)
      })
  )

  it.effect.each(inlineFilings.filter((path) => !path.startsWith("8-K/")))(
    "%s: nearly every tagged number is located, and a number in a table cell is the cell's",
    (path) =>
      Effect.gen(function*() {
        const bytes = new Uint8Array(readFileSync(new URL(path, corpusUrl)))
        const parsed = yield* Parser.parse({ bytes, fileName: path })
        const { facts } = yield* Facts.facts({ bytes, parsed })
        // A fact in the hidden header is tagged but not shown: no block holds it.
        const hidden = hiddenFactIds(new TextDecoder().decode(bytes))
        const tagged = facts.filter((fact) =>
          fact.unit !== null && fact.elementId !== undefined && !hidden.has(fact.elementId)
        )
        const located = tagged.filter((fact) => fact.location !== undefined)
        assert.isAtLeast(located.length, tagged.length * 0.98, `${located.length} of ${tagged.length} located`)
        const disagreeing = located.filter((fact) => {
          const { block, cell } = fact.location!
          const table = parsed.blocks[block]
          if (cell === undefined || table?.kind !== "table") return false
          return !cellStates(table.rows[cell.row]?.[cell.column] ?? "", fact.value as number | null)
        })
        assert.deepStrictEqual(disagreeing.map((fact) => `${fact.concept} ${String(fact.value)}`).slice(0, 5), [])
      })
  )

  it.effect.each(inlineFilings)(
    "%s: every text fact without a transformation, as the specification reads it",
    (path) =>
      Effect.gen(function*() {
        const html = readFileSync(new URL(path, corpusUrl), "utf8")
        const { facts } = yield* Facts.facts({ bytes: utf8(html) })
        const byKey = new Map<string, Array<string>>()
        for (const fact of facts) {
          if (fact.unit !== null) continue
          const key = placeOf(fact)
          byKey.set(key, [...(byKey.get(key) ?? []), String(fact.value)])
        }
        const missing = readTextFactsBySpec(html).filter((expected) =>
          !(byKey.get(placeOf(expected)) ?? []).some((value) => sameText(value, expected.text))
        )
        assert.deepStrictEqual(missing.map((fact) => `${fact.concept}: ${fact.text.slice(0, 60)}`), [])
      })
  )

  it.effect.each([
    ["10-Q/aapl-10q-2023-07-01.htm", "xbrl/aapl-10q-2023-07-01-instance.xml"],
    ["10-Q/aapl-10q-2025-03-29.htm", "xbrl/aapl-10q-2025-03-29-instance.xml"]
  ])(
    "%s: the text facts equal the regulator's instance, transformations applied",
    ([htmlPath, instancePath]) =>
      Effect.gen(function*() {
        const { facts, warnings } = yield* Facts.facts({
          bytes: new Uint8Array(readFileSync(new URL(htmlPath!, corpusUrl)))
        })
        const instance = XbrlFacts.readFacts(readFileSync(new URL(instancePath!, corpusUrl), "utf8"), "instance")
        const expected = new Map<string, string>()
        for (const fact of instance.textFacts) {
          const context = instance.contexts.get(fact.contextRef)!
          const period = context.instant === undefined
            ? { start: context.startDate!, end: context.endDate! }
            : { instant: context.instant }
          const dimensions = Object.fromEntries(context.dimensions.map((pair) => pair.split("=") as [string, string]))
          // A text block's instance value is its markup, escaped: its text is what is compared.
          expected.set(placeOf({ concept: fact.concept, period, dimensions }), fact.text.replace(/<[^>]*>/g, " "))
        }
        const text = facts.filter((fact) => fact.unit === null)
        assert.strictEqual(text.length, expected.size)
        for (const fact of text) {
          const value = expected.get(placeOf(fact))
          assert.isTrue(
            value !== undefined && sameText(String(fact.value), value),
            `${fact.concept}: ${String(fact.value).slice(0, 80)}`
          )
        }
        assert.deepStrictEqual(warnings, [])
      })
  )

  it.effect("Apple's 10-Q: the numeric facts equal the XBRL instance the regulator made of it", () =>
    Effect.gen(function*() {
      const html = readFileSync(new URL("10-Q/aapl-10q-2023-07-01.htm", corpusUrl))
      const instance = readFileSync(new URL("xbrl/aapl-10q-2023-07-01-instance.xml", corpusUrl), "utf8")
      const { facts } = yield* Facts.facts({ bytes: new Uint8Array(html) })
      const fromInstance = Facts.factsOf(XbrlFacts.readFacts(instance, "instance")).facts
      const numeric = (list: ReadonlyArray<Facts.Fact>) =>
        new Set(
          list.filter((fact) => fact.unit !== null).map((fact) =>
            keyOf({ ...fact, value: fact.value as number | null, unit: fact.unit! })
          )
        )
      assert.deepStrictEqual(numeric(facts), numeric(fromInstance))
      assert.strictEqual(numeric(facts).size, 666)
    }))
})
