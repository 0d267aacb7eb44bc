/**
 * `XbrlFacts`, the one reader of XBRL facts: a whole inline document or instance with `readFacts`,
 * and one inline fact where it stands with `factAt`, which the parser's cover facts use.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser, XbrlFacts } from "@filings/filings-parser"
import { Effect } from "effect"

const inline = `<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body>
<ix:header><ix:resources>
<xbrli:context id="c-1"><xbrli:entity><xbrli:identifier>0000000001</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header>
<p>For the year ended <ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="c-1"><span>September 28</span><span>, 2024</span></ix:nonNumeric></p>
<p><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c-1">Anvils &amp; Co. <ix:nonNumeric name="dei:EntityShellCompany" contextRef="c-1">false</ix:nonNumeric></ix:nonNumeric></p>
<p>Revenue <ix:nonFraction name="us-gaap:Revenues" contextRef="c-1" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal">1,234.5</ix:nonFraction></p>
</body></html>`

const startOf = (name: string) => inline.search(new RegExp(`<ix:non\\w+ name="${name}"`))

describe("XbrlFacts.readFacts", () => {
  it("reads the contexts, units and facts of an inline document", () => {
    const facts = XbrlFacts.readFacts(inline, "inline")
    assert.deepStrictEqual(facts.contexts.get("c-1"), {
      id: "c-1",
      entity: "0000000001",
      startDate: "2023-10-01",
      endDate: "2024-09-28",
      dimensions: []
    })
    assert.deepStrictEqual(facts.units.get("usd"), { id: "usd", measure: "USD" })
    assert.deepStrictEqual(facts.numericFacts, [
      { concept: "us-gaap:Revenues", contextRef: "c-1", unitRef: "usd", value: 1_234_500_000, decimals: -6 }
    ])
    assert.deepStrictEqual(facts.textFacts.map((fact) => [fact.concept, fact.text]), [
      ["dei:DocumentPeriodEndDate", "September 28, 2024"],
      ["dei:EntityShellCompany", "false"],
      ["dei:EntityRegistrantName", "Anvils & Co. false"]
    ])
  })
})

describe("XbrlFacts.factAt", () => {
  it("reads the fact that opens where it is asked, its text as readFacts reads it", () => {
    assert.deepStrictEqual(XbrlFacts.factAt(inline, startOf("dei:DocumentPeriodEndDate")), {
      concept: "dei:DocumentPeriodEndDate",
      contextRef: "c-1",
      text: "September 28, 2024"
    })
  })

  it("gives the outer fact, with a nested one's text inside it and not as a fact of its own", () => {
    assert.deepStrictEqual(XbrlFacts.factAt(inline, startOf("dei:EntityRegistrantName")), {
      concept: "dei:EntityRegistrantName",
      contextRef: "c-1",
      text: "Anvils & Co. false"
    })
  })

  it("reads a numeric fact with its scale", () => {
    const fact = XbrlFacts.factAt(inline, startOf("us-gaap:Revenues"))
    assert.deepStrictEqual(fact, {
      concept: "us-gaap:Revenues",
      contextRef: "c-1",
      unitRef: "usd",
      value: 1_234_500_000,
      decimals: -6
    })
  })

  it("is undefined where no fact opens, and for a fact that never ends", () => {
    assert.isUndefined(XbrlFacts.factAt(inline, inline.indexOf("<p>")))
    assert.isUndefined(XbrlFacts.factAt(`<ix:nonNumeric name="dei:DocumentType" contextRef="c">10-K`, 0))
  })
})

describe("XbrlFacts.readFacts: text facts", () => {
  const document = `<html><body>
<ix:header><ix:resources>
<xbrli:context id="c-1"><xbrli:entity><xbrli:identifier>0000000001</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
</ix:resources></ix:header>
<ix:nonNumeric id="f-1" name="us-gaap:RevenueRecognitionPolicyTextBlock" contextRef="c-1" continuedAt="k-1"><div>Revenue</div><div>is recognized<ix:exclude> (page 12)</ix:exclude> when</div></ix:nonNumeric>
<p>Unrelated text between.</p>
<ix:continuation id="k-1" continuedAt="k-2"><p>control passes</p></ix:continuation>
<ix:continuation id="k-2"><p>to the customer.</p></ix:continuation>
<ix:nonNumeric id="f-2" name="dei:DocumentPeriodEndDate" contextRef="c-1" format="ixt:date-monthname-day-year-en">September 28, 2024</ix:nonNumeric>
</body></html>`

  it("keeps block elements' words apart, leaves ix:exclude out and appends the continuations in order", () => {
    const [policy, periodEnd] = XbrlFacts.readFacts(document, "inline").textFacts
    assert.deepStrictEqual(policy, {
      concept: "us-gaap:RevenueRecognitionPolicyTextBlock",
      contextRef: "c-1",
      text: "Revenue is recognized when control passes to the customer.",
      id: "f-1"
    })
    assert.deepStrictEqual(periodEnd, {
      concept: "dei:DocumentPeriodEndDate",
      contextRef: "c-1",
      text: "September 28, 2024",
      id: "f-2",
      format: "ixt:date-monthname-day-year-en"
    })
  })

  it("warns of a continuation that is not there, keeping the text before it", () => {
    const broken = document.replace(`<ix:continuation id="k-2">`, `<ix:continuation id="k-9">`)
    const facts = XbrlFacts.readFacts(broken, "inline")
    assert.strictEqual(facts.textFacts[0]?.text, "Revenue is recognized when control passes")
    assert.deepStrictEqual(facts.warnings, [
      "fact us-gaap:RevenueRecognitionPolicyTextBlock (context c-1): no continuation k-2; its text ends before it"
    ])
  })
})

describe("XbrlFacts.applyTextFormat", () => {
  it("reads the transformations SEC filings use", () => {
    const cases: ReadonlyArray<readonly [string, string, string | undefined]> = [
      ["ixt:date-monthname-day-year-en", "July 1, 2023", "2023-07-01"],
      ["ixt:date-monthname-day-year-en", "Sept. 28, 2024", "2024-09-28"],
      ["ixt:date-monthname-day-en", "September 28", "--09-28"],
      ["ixt:date-month-day", "09/28", "--09-28"],
      ["ixt:date-monthname-day-year-en", "Smarch 40, 2024", undefined],
      ["ixt:fixed-true", "anything", "true"],
      ["ixt:fixed-false", "", "false"],
      ["ixt-sec:boolballotbox", "\u2612", "true"],
      ["ixt-sec:boolballotbox", "\u2610", "false"],
      ["ixt-sec:duryear", "three", "P3Y"],
      ["ixt-sec:duryear", "2.5", "P2Y6M"],
      ["ixt-sec:durmonth", "18", "P18M"],
      ["ixt-sec:durwordsen", "two years and six months", "P2Y6M"],
      ["ixt-sec:durwordsen", "thirty days", "P30D"],
      ["ixt-sec:numwordsen", "no", "0"],
      ["ixt-sec:numwordsen", "twenty-one", "21"],
      ["ixt-sec:entityfilercategoryen", "Large accelerated filer", "Large Accelerated Filer"],
      ["ixt-sec:entityfilercategoryen", "Non-accelerated filer", "Non-accelerated Filer"],
      ["ixt-sec:exchnameen", "The Nasdaq Stock Market LLC", "NASDAQ"],
      ["ixt-sec:exchnameen", "New York Stock Exchange", "NYSE"],
      ["ixt-sec:exchnameen", "NYSE American LLC", "NYSEAMER"],
      ["ixt-sec:stateprovnameen", "California", "CA"],
      ["ixt-sec:stateprovnameen", "the District of Columbia", "DC"],
      ["ixt:some-unknown-format", "text", undefined]
    ]
    for (const [format, text, expected] of cases) {
      assert.strictEqual(XbrlFacts.applyTextFormat(format, text), expected, `${format} ${text}`)
    }
  })
})

describe("ParsedDocument.inlineXbrl", () => {
  it.effect("holds the facts readFacts reads, from the parse's own pass over the document", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: new TextEncoder().encode(inline) })
      assert.deepStrictEqual(parsed.inlineXbrl, XbrlFacts.readFacts(inline, "inline"))
      assert.strictEqual(parsed.inlineXbrl?.numericFacts[0]?.value, 1_234_500_000)
    }))

  it.effect("is absent from a document without inline XBRL", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({
        bytes: new TextEncoder().encode("<html><body><p>Revenue 5</p></body></html>")
      })
      assert.strictEqual(parsed.inlineXbrl, undefined)
    }))
})
