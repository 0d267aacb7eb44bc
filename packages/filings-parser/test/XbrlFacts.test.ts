/**
 * `XbrlFacts`, the one reader of XBRL facts: a whole inline document or instance with `readFacts`,
 * and one inline fact where it stands with `factAt`, which the parser's cover facts use.
 */
import { assert, describe, it } from "@effect/vitest"
import { XbrlFacts } from "@filings/filings-parser"

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
