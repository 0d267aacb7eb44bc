import { describe, expect, it } from "@effect/vitest"
import { SearchText } from "@filings/storage"
import { Either } from "effect"

const terms = (text: string) => SearchText.tokens(text).map((token) => token.term)
const parsed = (query: string) => Either.getOrThrow(SearchText.parseQuery(query))
const problem = (query: string) => Either.flip(SearchText.parseQuery(query)).pipe(Either.getOrThrow).message

describe("SearchText.tokens", () => {
  it("reads figures without grouping commas, currency signs or parentheses, and keeps decimals", () => {
    expect(terms("$(1,577) and 1,373.50, 3.5% in 2018.")).toEqual(["1577", "1373.5", "3.5", "2018"])
  })

  it("stems words, leaves common words out but counts them, and keeps codes as they are", () => {
    const found = SearchText.tokens("The cost of sales rose in Item 1A")
    expect(found.map((token) => [token.term, token.position])).toEqual([
      ["cost", 1],
      ["sale", 3],
      ["rose", 4],
      ["item", 6],
      ["1a", 7]
    ])
  })

  it("reads a hyphenated word as its parts and as the parts joined, at the same place", () => {
    expect(terms("Form 10-K and non-GAAP")).toEqual(["form", "10k", "10", "k", "nongaap", "non", "gaap"])
    const [joined, first, second] = SearchText.tokens("10-K")
    expect([joined?.position, first?.position, second?.position]).toEqual([0, 0, 1])
  })

  it("keeps each term's positions within the index's limits", () => {
    const many = SearchText.termPositions(SearchText.tokens("anvil ".repeat(300)))
    expect(many.get("anvil")).toHaveLength(SearchText.maxPositionsPerTerm)
    const far = SearchText.termPositions([{ term: "late", position: 20_000, start: 0, end: 4 }])
    expect(far.get("late")).toEqual([SearchText.maxPosition])
  })
})

describe("SearchText.relatedStems", () => {
  it("reaches derived forms Porter's stems keep apart, and nothing for short stems or figures", () => {
    expect(SearchText.relatedStems("acquir")).toEqual(["acquisit"])
    expect(SearchText.relatedStems("acquisit")).toEqual(["acquir"])
    expect(SearchText.relatedStems("reduc")).toEqual(["reduct"])
    expect(SearchText.relatedStems("expand")).toEqual(["expans"])
    expect(SearchText.relatedStems("bid")).toEqual([])
    expect(SearchText.relatedStems("2018")).toEqual([])
  })
})

describe("SearchText.parseQuery", () => {
  it("reads words, quoted phrases, exclusions and OR", () => {
    const query = parsed("acquired \"cost of sales\" -tariffs anvils OR hammers")
    expect(query.concepts.map((concept) => [concept.required, concept.alternatives.map((a) => a.terms)])).toEqual([
      [false, [[{ term: "acquir", offset: 0 }], [{ term: "acquisit", offset: 0 }]]],
      [true, [[{ term: "cost", offset: 0 }, { term: "sale", offset: 2 }]]],
      [false, [[{ term: "anvil", offset: 0 }], [{ term: "hammer", offset: 0 }]]]
    ])
    expect(query.excluded).toEqual([{ terms: [{ term: "tariff", offset: 0 }] }])
  })

  it("a word that is several terms is its joined term: 10-K, U.S.", () => {
    expect(parsed("10-K").concepts[0]?.alternatives[0]?.terms).toEqual([{ term: "10k", offset: 0 }])
    expect(parsed("U.S.").concepts[0]?.alternatives[0]?.terms).toEqual([
      { term: "u", offset: 0 },
      { term: "s", offset: 1 }
    ])
  })

  it("leaves out the words of how a question is asked, unless the query has nothing else", () => {
    const searched = (query: string) => parsed(query).concepts.map((c) => c.alternatives[0]?.terms.map((t) => t.term))
    expect(searched("How much cash did Apple report for the fiscal quarter ended June 2023, in USD millions?"))
      .toEqual([["cash"], ["appl"], ["june"], ["2023"]])
    expect(searched("quarter")).toEqual([["quarter"]])
    expect(searched("\"fiscal quarter\"")).toEqual([["fiscal", "quarter"]])
  })

  it("refuses a query with nothing to find, or longer than it reads", () => {
    expect(problem("")).toMatch(/no word/)
    expect(problem("the what of")).toMatch(/no word/)
    expect(problem("OR - \"\"")).toMatch(/no word/)
    expect(problem("-revenue")).toMatch(/only excludes/)
    expect(problem("a".repeat(SearchText.maxQueryLength + 1))).toMatch(/at most 2000/)
  })

  it("takes any text without failing: unbalanced quotes, tsquery and SQL syntax are words", () => {
    expect(parsed("\"supply chain").concepts[0]?.alternatives[0]?.terms.map((t) => t.term)).toEqual(["suppli", "chain"])
    expect(parsed("a & b | !c <-> d:*").concepts.map((c) => c.alternatives[0]?.terms[0]?.term)).toEqual(["b", "c", "d"])
    expect(parsed("'; DROP TABLE documents; --").concepts.map((c) => c.alternatives[0]?.terms[0]?.term)).toEqual([
      "drop",
      "tabl",
      "document"
    ])
  })

  it("pairs the concepts written side by side, common words counted in their distance", () => {
    expect(SearchText.adjacentPairs(parsed("price of steel rose"))).toEqual([
      { first: "price", second: "steel", distance: 2 },
      { first: "steel", second: "rose", distance: 1 }
    ])
  })
})

describe("SearchText.parseQuery with the financial vocabulary", () => {
  const alternativesOf = (query: string) =>
    parsed(query).concepts.map((concept) =>
      concept.alternatives.map((phrase) => [phrase.terms.map(({ term }) => term).join(" "), phrase.weight ?? 1])
    )

  it("a word or run of words of a synonym group also finds the group's other phrases, weighed as the words written", () => {
    const [capex, year] = alternativesOf("capex 2018")
    expect(capex?.[0]).toEqual(["capex", 1])
    expect(capex).toContainEqual(["capit expenditur", 0.5])
    expect(capex).toContainEqual(["purchas properti plant equip", 0.25])
    expect(year).toEqual([["2018", 1]])
    const [written] = alternativesOf("Capital expenditures")
    expect(written?.[0]).toEqual(["capit expenditur", 1])
    expect(written).toContainEqual(["capex", 2])
  })

  it("reads R&D and PP&E as words, in passages and queries alike", () => {
    expect(terms("R&D and PP&E rose")).toEqual(["r&d", "pp&e", "rose"])
    expect(alternativesOf("R&D")[0]).toContainEqual(["research develop", 0.5])
  })

  it("leaves quoted phrases as written", () => {
    expect(alternativesOf("\"cost of sales\"")).toEqual([[["cost sale", 1]]])
  })
})

describe("SearchText.snippet", () => {
  it("gives the best sentences of a passage with the matched words marked, tables as rows", () => {
    const text =
      "# Results\n\nSales were flat. Capital expenditures rose to $1,577 million in 2018. Nothing else.\n\n" +
      "| Item | 2018 |\n| - | - |\n| Capital expenditures | (1,577) |\n"
    expect(SearchText.snippet(text, parsed("capital expenditure 1577 rose"))).toBe(
      "**Capital** **expenditures** **rose** to $**1,577** million in 2018."
    )
    expect(SearchText.snippet(text, parsed("capital expenditure 1577"))).toBe(
      "**Capital** **expenditures** | (**1,577**)"
    )
  })

  it("starts a long sentence near its first match", () => {
    const long = `${"word ".repeat(100)}revenue grew ${"more ".repeat(20)}.`
    const found = SearchText.snippet(long, parsed("revenue"))
    expect(found.startsWith("… ")).toBe(true)
    expect(found).toContain("**revenue** grew")
  })
})
