/**
 * Earnings call transcripts -> blocks and sections: synthetic transcripts for each speaker-line
 * shape, JSON shape and failure, then every transcript of the shared corpus, read in place.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { type Block, blockText } from "../src/internal/blocks.js"
import { renderMarkdown } from "../src/internal/markdown/render.js"
import { readTranscript, type TranscriptContent } from "../src/internal/transcripts/readTranscript.js"

const headings = (blocks: ReadonlyArray<Block>, depth: number) =>
  blocks.flatMap((block) => block.kind === "heading" && block.depth === depth ? [block.text] : [])
const sectionNames = (content: TranscriptContent) => content.sections.map((section) => section.title)
/** The blocks of the named section. */
const sectionBlocks = (content: TranscriptContent, name: string): Array<Block> => {
  const section = content.sections.find((candidate) => candidate.title === name)
  return section === undefined ? [] : content.blocks.slice(section.startBlock, section.endBlock)
}
const sectionText = (content: TranscriptContent, name: string) => sectionBlocks(content, name).map(blockText).join("\n")
const words = (text: string) => text.split(/\s+/).filter((word) => word !== "").length

const motleyFool = `Acme Corp (ACME) Q2 2024 Earnings Call Transcript

Prepared Remarks:

Operator

Good day, and welcome to the Acme second quarter call. All lines are in listen-only mode.

Jane Smith -- Vice President, Investor Relations

Thank you. With me today is our CEO, John Roe.
Please note our safe harbor statement.

John Roe -- Chief Executive Officer

Revenue grew 12% to $1.2 billion. Margins ex-
panded nicely across our segments.

Questions & Answers:

Operator

Our first question comes from Ann Lee with Big Bank.

Ann Lee -- Big Bank -- Analyst

How durable is the growth?

John Roe -- Chief Executive Officer

Very durable. Thank you.

Call participants:

Jane Smith -- Vice President, Investor Relations

John Roe -- Chief Executive Officer

Ann Lee -- Big Bank -- Analyst
`

describe("readTranscript: text", () => {
  it.effect("Motley Fool style: `Name -- Title` lines, section lines, participants", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(motleyFool)
      assert.strictEqual(content.title, "Acme Corp (ACME) Q2 2024 Earnings Call Transcript")
      assert.deepStrictEqual(content.warnings, [])
      assert.deepStrictEqual(sectionNames(content), ["Participants", "Prepared Remarks", "Questions and Answers"])
      assert.deepStrictEqual(content.speakers, [
        { name: "Jane Smith", role: "Vice President, Investor Relations" },
        { name: "John Roe", role: "Chief Executive Officer" },
        { name: "Ann Lee", role: "Big Bank, Analyst" },
        { name: "Operator" }
      ])
      assert.deepStrictEqual(headings(sectionBlocks(content, "Prepared Remarks"), 3), [
        "Operator",
        "Jane Smith — Vice President, Investor Relations",
        "John Roe — Chief Executive Officer"
      ])
      assert.deepStrictEqual(headings(sectionBlocks(content, "Questions and Answers"), 3), [
        "Operator",
        "Ann Lee — Big Bank, Analyst",
        "John Roe — Chief Executive Officer"
      ])
      // Lines of one turn are one paragraph; a word broken at the line end is mended.
      assert.include(
        sectionText(content, "Prepared Remarks"),
        "Revenue grew 12% to $1.2 billion. Margins expanded nicely across our segments."
      )
      assert.include(
        sectionText(content, "Prepared Remarks"),
        "Thank you. With me today is our CEO, John Roe. Please note"
      )
      assert.notInclude(sectionText(content, "Questions and Answers"), "Ann Lee -- Big Bank")
      // Sections cover the blocks after the title, in order, without gaps.
      assert.deepStrictEqual(content.sections.map((section) => [section.startBlock, section.endBlock]), [[1, 3], [
        3,
        10
      ], [10, 17]])
      assert.strictEqual(content.blocks.length, 17)
    }))

  it.effect("`Name:` lines with speech on the same line; Q&A from the operator's first question", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript([
        "Operator: Good morning and welcome to the Widget Inc. results call.",
        "Mary Major: Thanks. Sales rose 8% this quarter. With that, let me open the call to questions.",
        "Operator: Thank you. Our first question comes from Sam Keen with Big Bank.",
        "Sam Keen: What drove the increase in sales?",
        "Mary Major: Mostly pricing. Volumes were flat."
      ].join("\n"))
      assert.deepStrictEqual(content.speakers, [{ name: "Operator" }, { name: "Mary Major" }, { name: "Sam Keen" }])
      assert.deepStrictEqual(sectionNames(content), ["Prepared Remarks", "Questions and Answers"])
      assert.include(sectionText(content, "Prepared Remarks"), "let me open the call to questions.")
      assert.match(
        sectionText(content, "Questions and Answers"),
        /^Questions and Answers\nOperator\nThank you\. Our first question/
      )
      assert.include(sectionText(content, "Questions and Answers"), "Mostly pricing. Volumes were flat.")
      assert.deepStrictEqual(content.warnings, [])
    }))

  it.effect("ALL CAPS speaker lines; the operator opens Q&A mid-text", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(`OPERATOR
Welcome to the call. A question-and-answer session will follow the presentation.

JANE DOE, CHIEF FINANCIAL OFFICER
Cash flow was strong. We raised guidance for the full year.

OPERATOR
We will now begin the question-and-answer session. The first question is from Raj Patel.

RAJ PATEL, BIG BANK
Can you talk about margins?

JANE DOE, CHIEF FINANCIAL OFFICER
Margins expanded by 40 basis points.
`)
      assert.deepStrictEqual(content.speakers, [
        { name: "Operator" },
        { name: "Jane Doe", role: "Chief Financial Officer" },
        { name: "Raj Patel", role: "Big Bank" }
      ])
      // The announcement in the welcome (`will follow`) does not open the Q&A; the operator's second turn does.
      assert.deepStrictEqual(headings(sectionBlocks(content, "Prepared Remarks"), 3), [
        "Operator",
        "Jane Doe — Chief Financial Officer"
      ])
      assert.deepStrictEqual(headings(sectionBlocks(content, "Questions and Answers"), 3), [
        "Operator",
        "Raj Patel — Big Bank",
        "Jane Doe — Chief Financial Officer"
      ])
    }))

  it.effect("a text without speaker turns gives paragraphs and a warning", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(
        "Highlights: strong demand in every region.\nRevenue was up 5%.\n\nWe expect growth to continue next year."
      )
      assert.deepStrictEqual(content.speakers, [])
      assert.deepStrictEqual(content.sections, [])
      assert.deepStrictEqual(content.warnings, ["transcript: no speaker turns found; the text is kept as paragraphs"])
      assert.deepStrictEqual(content.blocks.map((block) => [block.kind, blockText(block)]), [
        ["paragraph", "Highlights: strong demand in every region. Revenue was up 5%."],
        ["paragraph", "We expect growth to continue next year."]
      ])
    }))

  it.effect("Markdown syntax in speech is escaped", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript("Jane Doe: Margins were *up* 3% [guidance] #1")
      const paragraph = content.blocks.find((block) => block.kind === "paragraph")
      assert.strictEqual(
        paragraph === undefined ? "" : renderMarkdown([paragraph]),
        "Margins were \\*up\\* 3% \\[guidance\\] #1\n"
      )
    }))
})

describe("readTranscript: JSON", () => {
  it.effect("an array of { speaker, text } turns", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(JSON.stringify([
        { speaker: "Operator", text: "Welcome. Our first question comes from Lee Wong with Alpha Capital." },
        { speaker: "Lee Wong", text: "How is demand?" },
        { speaker: "Ann Chu", title: "CEO", text: "Demand is strong." }
      ]))
      assert.deepStrictEqual(content.speakers, [{ name: "Operator" }, { name: "Lee Wong" }, {
        name: "Ann Chu",
        role: "CEO"
      }])
      assert.deepStrictEqual(sectionNames(content), ["Prepared Remarks", "Questions and Answers"])
      assert.deepStrictEqual(headings(sectionBlocks(content, "Questions and Answers"), 3), [
        "Operator",
        "Lee Wong",
        "Ann Chu — CEO"
      ])
      assert.include(sectionText(content, "Prepared Remarks"), "Welcome.")
    }))

  it.effect("prepared remarks and Q&A arrays, speakers as objects, a speaker map", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(JSON.stringify({
        title: "Widget Q3 2024 Earnings Call",
        speaker_map: {
          s1: { name: "Ann Chu", title: "Chief Executive Officer" },
          s2: { name: "Bo Li", title: "Analyst" }
        },
        prepared_remarks: [{ speaker: "s1", text: "We had a record quarter." }],
        questions_and_answers: [
          { speaker: { name: "Bo Li" }, content: "What about margins?" },
          { speaker: "s1", text: "Margins rose." }
        ]
      }))
      assert.strictEqual(content.title, "Widget Q3 2024 Earnings Call")
      assert.deepStrictEqual(sectionNames(content), ["Participants", "Prepared Remarks", "Questions and Answers"])
      assert.deepStrictEqual(content.speakers, [
        { name: "Ann Chu", role: "Chief Executive Officer" },
        { name: "Bo Li", role: "Analyst" }
      ])
      assert.deepStrictEqual(headings(sectionBlocks(content, "Questions and Answers"), 3), [
        "Bo Li — Analyst",
        "Ann Chu — Chief Executive Officer"
      ])
    }))

  it.effect("a speaker known by id who calls the questions is the operator", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(JSON.stringify({
        speakers: [
          { speaker: "spk1", text: "Welcome to the call. I will now turn it over to our CEO." },
          { speaker: "spk2", text: "Thanks. We grew 10%. With that, let's open the call to questions." },
          { speaker: "spk1", text: "Our first question comes from Ann Lee with Big Bank." },
          { speaker: "spk3", text: "How is demand?" },
          { speaker: "spk2", text: "Strong." },
          { speaker: "spk1", text: "Our next question comes from Bo Li with Alpha Capital." },
          { speaker: "spk4", text: "And pricing?" },
          { speaker: "spk2", text: "Stable." }
        ]
      }))
      assert.deepStrictEqual(content.speakers.map((speaker) => speaker.name), ["Operator", "spk2", "spk3", "spk4"])
      assert.deepStrictEqual(headings(sectionBlocks(content, "Questions and Answers"), 3).slice(0, 2), [
        "Operator",
        "spk3"
      ])
    }))

  it.effect("a single text field with speaker lines inside", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(
        JSON.stringify({ transcript: "Jane Doe: Hello there, everyone.\nJohn Roe: Thanks, Jane." })
      )
      assert.deepStrictEqual(content.speakers, [{ name: "Jane Doe" }, { name: "John Roe" }])
    }))

  it.effect("unusable input is a typed failure", () =>
    Effect.gen(function*() {
      const empty = yield* Effect.flip(readTranscript("  \n\t "))
      assert.strictEqual(empty.reason, "empty")
      assert.strictEqual(empty.message, "Transcript unusable (empty): the input has no text")
      const binary = yield* Effect.flip(readTranscript(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02])))
      assert.strictEqual(binary.reason, "binary")
      const latin1 = yield* Effect.flip(readTranscript(new Uint8Array([0x4a, 0x6f, 0xe9, 0x20, 0xff, 0xfe])))
      assert.strictEqual(latin1.reason, "binary")
      const broken = yield* Effect.flip(readTranscript("{\"speakers\": [{\"speaker\": \"A\", "))
      assert.strictEqual(broken.reason, "invalid-json")
      const declared = yield* Effect.flip(readTranscript("Jane Doe: hello", { format: "json" }))
      assert.strictEqual(declared.reason, "invalid-json")
      const textless = yield* Effect.flip(readTranscript("{\"year\": 2024, \"quarter\": 1}"))
      assert.strictEqual(textless.reason, "no-text")
      assert.strictEqual(textless._tag, "TranscriptUnusable")
    }))
})

const corpus = corpusUrl
const transcripts = new URL("transcripts/", corpus)
const readCorpus = (name: string) => new Uint8Array(readFileSync(new URL(name, transcripts)))
const paragraphs = (blocks: ReadonlyArray<Block>) =>
  blocks.flatMap((block) => block.kind === "paragraph" ? [block.text] : [])

describe.skipIf(corpusMissing)(`readTranscript: corpus transcripts in ../shared/corpus`, () => {
  it.effect("AAPL Q1 FY2022, prepared remarks and Q&A as two texts", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(readCorpus("aapl-q1-fy2022-earnings-call-prepared-and-qa.json"))
      assert.strictEqual(content.title, "Q1 2022 Earnings Call")
      assert.deepStrictEqual(sectionNames(content), ["Prepared Remarks", "Questions and Answers"])
      assert.deepStrictEqual(content.speakers, [])
      const prepared = paragraphs(sectionBlocks(content, "Prepared Remarks"))
      const qa = paragraphs(sectionBlocks(content, "Questions and Answers"))
      assert.match(prepared[0] ?? "", /^Good day and welcome to the Apple Q1 FY 2022 earnings conference call\./)
      assert.match(qa[0] ?? "", /^We'll take our first question from Katie Huberty with Morgan Stanley\./)
      assert.match(qa.at(-1) ?? "", /This concludes today's conference\. We do appreciate your participation\.$/)
    }))

  it.effect("AAPL Q1 FY2022, speaker turns by id: Q&A after the CFO hands over", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(readCorpus("aapl-q1-fy2022-earnings-call-speakers.json"))
      assert.strictEqual(content.speakers.length, 15)
      // spk03 calls every question (`We'll take our next question from ...`): the operator.
      assert.deepStrictEqual(content.speakers.slice(0, 4).map((speaker) => speaker.name), [
        "Operator",
        "spk15",
        "spk07",
        "spk01"
      ])
      assert.deepStrictEqual(content.warnings, ["transcript: 14 speakers are known by id only (spk15, ...)"])
      assert.deepStrictEqual(sectionNames(content), ["Prepared Remarks", "Questions and Answers"])
      const prepared = paragraphs(sectionBlocks(content, "Prepared Remarks"))
      assert.match(prepared.at(-1) ?? "", /And with that, let's open the call to questions\.$/)
      const qa = sectionBlocks(content, "Questions and Answers")
      assert.deepStrictEqual(qa.slice(1, 3).map(blockText), [
        "spk02",
        "Thank you, Luca. We ask that you limit yourself to two questions. Operator, may we have the first question, please?"
      ])
      assert.match(paragraphs(qa).at(-1) ?? "", /We do appreciate your participation\.$/)
    }))

  it.effect("AAPL Q1 FY2023, speaker turns with the speaker name map", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(readCorpus("aapl-q1-fy2023-earnings-call-speakers-named.json"))
      assert.strictEqual(content.title, "Q1 2023 Earnings Call")
      assert.deepStrictEqual(content.warnings, [])
      assert.deepStrictEqual(sectionNames(content), ["Participants", "Prepared Remarks", "Questions and Answers"])
      assert.strictEqual(content.speakers.length, 13)
      assert.deepStrictEqual(content.speakers.slice(0, 3), [
        { name: "Tim Cook", role: "CEO" },
        { name: "Luca Maestri", role: "CFO" },
        { name: "Operator" }
      ])
      assert.deepInclude(content.speakers, { name: "Shannon Cross", role: "Credit Suisse Analyst" })
      const prepared = sectionBlocks(content, "Prepared Remarks")
      assert.include(headings(prepared, 3), "Tim Cook — CEO")
      assert.include(headings(prepared, 3), "Luca Maestri — CFO")
      assert.match(paragraphs(prepared).at(-1) ?? "", /With that, let's open the call to questions\.$/)
      const qa = sectionBlocks(content, "Questions and Answers")
      assert.match(paragraphs(qa)[0] ?? "", /^Thank you, Luca\. We ask that you limit yourself to two questions\./)
      assert.include(headings(qa, 3), "Shannon Cross — Credit Suisse Analyst")
      assert.match(paragraphs(qa).at(-1) ?? "", /Thank you again for joining us\.$/)
    }))

  it.effect("MSFT Q1 FY2023, one undivided text: Q&A from the first question", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(readCorpus("msft-q1-fy2023-earnings-call.json"))
      assert.deepStrictEqual(sectionNames(content), ["Prepared Remarks", "Questions and Answers"])
      assert.deepStrictEqual(content.speakers, [])
      const prepared = paragraphs(sectionBlocks(content, "Prepared Remarks"))
      const qa = paragraphs(sectionBlocks(content, "Questions and Answers"))
      assert.match(
        prepared[0] ?? "",
        /^Greetings, and welcome to the Microsoft Fiscal Year 2023 First Quarter Earnings Conference Call\./
      )
      assert.match(qa[0] ?? "", /^Our first question is coming from the line of Keith Weiss with Morgan Stanley\./)
      assert.match(qa.at(-1) ?? "", /we disconnect your lines at this time\.$/)
    }))

  it.effect("NVDA Q2 FY2025, prepared remarks with an empty Q&A", () =>
    Effect.gen(function*() {
      const content = yield* readTranscript(readCorpus("nvda-q2-fy2025-earnings-call-prepared-and-qa.json"))
      assert.strictEqual(content.title, "Q2 2025 Earnings Call")
      assert.deepStrictEqual(sectionNames(content), ["Prepared Remarks"])
      assert.deepStrictEqual(content.warnings, ["transcript: the Q&A part (questions_and_answers) is empty"])
      const prepared = paragraphs(sectionBlocks(content, "Prepared Remarks"))
      assert.match(prepared[0] ?? "", /^Good afternoon, everyone, and welcome to NVIDIA's conference call/)
      assert.match(prepared.at(-1) ?? "", /You may now disconnect\.$/)
    }))

  // ECTSum and ACL-19 texts: one sentence per line, speaker names removed, prepared remarks only.
  const sentencePerLine: ReadonlyArray<readonly [string, string, RegExp]> = [
    [
      "hd-q3-2021-earnings-call-ectsum.txt",
      "Joining us on our call today are Craig Menear",
      /exceptional value to our shareholders\.$/
    ],
    [
      "ko-q1-2021-earnings-call-ectsum.txt",
      "I'm here with James Quincey",
      /With that, operator, we are ready to take questions\.$/
    ],
    [
      "mmm-q3-2021-earnings-call-ectsum.txt",
      "During today's conference call",
      /navigate the uncertainty in the short run\.$/
    ],
    [
      "nke-q4-2021-earnings-call-ectsum.txt",
      "We would like to allow as many of you",
      /focused on what it will take to get there\.$/
    ],
    [
      "mmm-q1-2017-earnings-call-acl19.txt",
      "Thanks, Inge, and good morning, everyone",
      /from the level that we're projecting now for 2017\.$/
    ]
  ]
  for (const [file, first, last] of sentencePerLine) {
    it.effect(`${file}: paragraphs, no invented speakers, every word kept`, () =>
      Effect.gen(function*() {
        const bytes = readCorpus(file)
        const content = yield* readTranscript(bytes)
        assert.deepStrictEqual(content.speakers, [])
        assert.deepStrictEqual(content.sections, [])
        assert.deepStrictEqual(content.warnings, ["transcript: no speaker turns found; the text is kept as paragraphs"])
        const texts = paragraphs(content.blocks)
        assert.isTrue(texts[0]?.startsWith(first), texts[0])
        assert.match(texts.at(-1) ?? "", last)
        assert.strictEqual(words(texts.join(" ")), words(new TextDecoder().decode(bytes)))
      }))
  }
})

const validation = new URL("ectsum-val/ects/", corpus)

describe.skipIf(corpusMissing)(
  "readTranscript: the ECTSum validation split of ../shared/corpus",
  () => {
    it.effect("every transcript reads, no speakers are invented from prose, no word is lost", () =>
      Effect.gen(function*() {
        const files = readdirSync(validation).filter((file) => file.endsWith(".txt"))
        assert.strictEqual(files.length, 249)
        for (const file of files) {
          const text = readFileSync(new URL(file, validation), "utf8")
          const content = yield* readTranscript(text)
          assert.deepStrictEqual(content.speakers, [], file)
          // These texts stop at the hand-over to Q&A: no Q&A section is made from the hand-over alone.
          assert.deepStrictEqual(content.sections, [], file)
          assert.strictEqual(words(content.blocks.map(blockText).join(" ")), words(text), file)
        }
      }))
  }
)
