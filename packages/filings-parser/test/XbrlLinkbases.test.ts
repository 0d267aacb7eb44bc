/**
 * `XbrlLinkbases`: the labels of a label linkbase joined to their concepts through locators and
 * arcs, the label shown for a concept, and a readable name where the filing gives none.
 */
import { assert, describe, it } from "@effect/vitest"
import { XbrlLinkbases } from "@filings/filings-parser"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"

const linkbase = `<?xml version="1.0" encoding="UTF-8"?>
<link:linkbase xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink">
<link:labelLink xlink:type="extended" xlink:role="http://www.xbrl.org/2003/role/link">
<link:loc xlink:type="locator" xlink:label="loc_assets" xlink:href="https://xbrl.fasb.org/us-gaap/2024/elts/us-gaap-2024.xsd#us-gaap_Assets"/>
<link:label xlink:type="resource" xlink:label="lab_assets" xlink:role="http://www.xbrl.org/2003/role/label" xml:lang="en-US">Assets</link:label>
<link:label xlink:type="resource" xlink:label="lab_assets" xlink:role="http://www.xbrl.org/2003/role/totalLabel" xml:lang="en-US">Total   assets</link:label>
<link:label xlink:type="resource" xlink:label="lab_assets" xlink:role="http://www.xbrl.org/2003/role/label" xml:lang="fr">Actifs</link:label>
<link:labelArc xlink:type="arc" xlink:from="loc_assets" xlink:to="lab_assets"/>
<link:loc xlink:type="locator" xlink:label="loc_own" xlink:href="anvl-20240928.xsd#anvl_AnvilsShipped"/>
<link:label xlink:type="resource" xlink:label="lab_own" xlink:role="http://www.xbrl.org/2003/role/terseLabel" xml:lang="en-US">Anvils &amp; hammers shipped</link:label>
<link:label xlink:type="resource" xlink:label="lab_own" xlink:role="http://www.xbrl.org/2003/role/documentation" xml:lang="en-US">How many left the works.</link:label>
<link:labelArc xlink:type="arc" xlink:from="loc_own" xlink:to="lab_own"/>
<link:loc xlink:type="locator" xlink:label="loc_orphan" xlink:href="anvl-20240928.xsd#anvl_Orphan"/>
</link:labelLink></link:linkbase>`

describe("XbrlLinkbases.readLabels", () => {
  it("joins each concept to its labels by role, English first, whitespace collapsed", () => {
    const labels = XbrlLinkbases.readLabels(linkbase)
    assert.deepStrictEqual(Object.fromEntries(labels.get("us-gaap:Assets") ?? []), {
      [XbrlLinkbases.labelRoles.label]: "Assets",
      [XbrlLinkbases.labelRoles.totalLabel]: "Total assets"
    })
    assert.strictEqual(
      labels.get("anvl:AnvilsShipped")?.get(XbrlLinkbases.labelRoles.terseLabel),
      "Anvils & hammers shipped"
    )
    assert.isFalse(labels.has("anvl:Orphan"), "a locator no arc leaves has no labels")
  })

  it("shows a concept's terse label, else its standard one, a role asked for first, else a readable name", () => {
    const labels = XbrlLinkbases.readLabels(linkbase)
    assert.strictEqual(XbrlLinkbases.labelOf(labels, "us-gaap:Assets"), "Assets")
    assert.strictEqual(
      XbrlLinkbases.labelOf(labels, "us-gaap:Assets", XbrlLinkbases.labelRoles.totalLabel),
      "Total assets"
    )
    assert.strictEqual(XbrlLinkbases.labelOf(labels, "anvl:AnvilsShipped"), "Anvils & hammers shipped")
    assert.strictEqual(XbrlLinkbases.labelOf(labels, "us-gaap:AccountsPayableCurrent"), "Accounts payable current")
  })

  it("names a concept readably: words of its name, a run of capitals kept whole", () => {
    assert.strictEqual(XbrlLinkbases.readableName("us-gaap:EarningsPerShareBasic"), "Earnings per share basic")
    assert.strictEqual(
      XbrlLinkbases.readableName("us-gaap:ProceedsFromIssuanceInitialPublicOffering"),
      "Proceeds from issuance initial public offering"
    )
    assert.strictEqual(
      XbrlLinkbases.readableName("us-gaap:StockAppreciationRightsSARSMember"),
      "Stock appreciation rights SARS member"
    )
    assert.strictEqual(XbrlLinkbases.readableName("dei:EntityCentralIndexKey"), "Entity central index key")
  })

  it("reads a locator's concept from its href fragment", () => {
    assert.strictEqual(
      XbrlLinkbases.conceptOfHref("aapl-20230930.xsd#aapl_NonTradeReceivableMember"),
      "aapl:NonTradeReceivableMember"
    )
    assert.isUndefined(XbrlLinkbases.conceptOfHref("aapl-20230930.xsd"))
    assert.isUndefined(XbrlLinkbases.conceptOfHref("aapl-20230930.xsd#NoPrefix"))
  })

  it.skipIf(corpusMissing)("on Apple's FY2023 label linkbase: the lines' own wording", () => {
    const labels = XbrlLinkbases.readLabels(
      readFileSync(new URL("xbrl/aapl-10k-fy2023/aapl-20230930_lab.xml", corpusUrl), "utf8")
    )
    assert.isAbove(labels.size, 600)
    assert.strictEqual(
      XbrlLinkbases.labelOf(labels, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"),
      "Net sales"
    )
    assert.strictEqual(XbrlLinkbases.labelOf(labels, "us-gaap:NetIncomeLoss"), "Net income")
    assert.strictEqual(
      XbrlLinkbases.labelOf(labels, "us-gaap:Assets", XbrlLinkbases.labelRoles.totalLabel),
      "Total assets"
    )
  })
})
