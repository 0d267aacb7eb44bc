/**
 * The summary benchmark's ROUGE scorer (`bench/quality/summaries/rouge.ts`) on vectors small enough to work
 * out by hand, each worked out in a comment, plus the two baselines and the ECTSum runner on a
 * two-call corpus written for the test.
 */
import { assert, describe, it } from "@effect/vitest"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { firstK, textRank, textRankScores } from "../bench/quality/summaries/baselines.js"
import { evaluate, formatMarkdown, type SummaryContext } from "../bench/quality/summaries/ectsum.js"
import { meanScores, type Score, score } from "../bench/quality/summaries/rouge.js"
import { rougeTokens } from "../bench/quality/summaries/tokens.js"

const assertScore = (actual: Score, expected: Score, what: string) => {
  assert.closeTo(actual.precision, expected.precision, 1e-12, `${what} precision`)
  assert.closeTo(actual.recall, expected.recall, 1e-12, `${what} recall`)
  assert.closeTo(actual.f1, expected.f1, 1e-12, `${what} F1`)
}

const zero: Score = { precision: 0, recall: 0, f1: 0 }
const perfect: Score = { precision: 1, recall: 1, f1: 1 }

describe("ROUGE tokens", () => {
  it("lowercases, splits on every character outside [a-z0-9] and stems words longer than three letters", () => {
    // "$1.10" loses "$" and splits at "."; "revenues" -> "revenue" (plural s) -> "revenu" (final e
    // after a stem of measure 2); "rose" keeps its e (the stem "ros" ends consonant-vowel-consonant).
    assert.deepStrictEqual(rougeTokens("Q1 EPS of $1.10; Revenues rose 12%."), [
      "q1",
      "eps",
      "of",
      "1",
      "10",
      "revenu",
      "rose",
      "12"
    ])
  })

  it("leaves tokens of three letters or fewer unstemmed, as rouge-score does", () => {
    // Porter alone would cut "was" to "wa"; "this" has four letters and loses its s.
    assert.deepStrictEqual(rougeTokens("Was this"), ["was", "thi"])
  })
})

describe("ROUGE score", () => {
  it("matches inflected forms through the stemmer", () => {
    // Both sides tokenize to [revenu, increas]: "increased" drops -ed, "increase" its final e. So
    // every unigram, the one bigram and the whole sequence match; unstemmed, nothing would.
    const scores = score("Revenues increased", "revenue increase")
    assertScore(scores.rouge1, perfect, "ROUGE-1")
    assertScore(scores.rouge2, perfect, "ROUGE-2")
    assertScore(scores.rougeL, perfect, "ROUGE-L")
    assertScore(scores.rougeLsum, perfect, "ROUGE-Lsum")
  })

  it("clips a repeated n-gram to the number of times the reference has it", () => {
    // Candidate unigrams {the: 4}, reference {the: 2, cat: 1}: overlap min(4, 2) = 2.
    // P = 2/4, R = 2/3, F1 = 2 * (1/2) * (2/3) / (1/2 + 2/3) = (2/3) / (7/6) = 4/7.
    // Bigrams: candidate (the the) x3, reference (the cat), (cat the): no overlap.
    // LCS of [the the the the] and [the cat the] is [the the]: 2, so ROUGE-L equals ROUGE-1 here.
    const scores = score("the the the the", "the cat the")
    assertScore(scores.rouge1, { precision: 1 / 2, recall: 2 / 3, f1: 4 / 7 }, "ROUGE-1")
    assertScore(scores.rouge2, zero, "ROUGE-2")
    assertScore(scores.rougeL, { precision: 1 / 2, recall: 2 / 3, f1: 4 / 7 }, "ROUGE-L")
  })

  it("counts bigrams", () => {
    // Unigrams: 6 each side, shared the x2, cat, on, mat = 5: P = R = F1 = 5/6.
    // Bigrams: 5 each side, shared (the cat), (on the), (the mat) = 3: P = R = F1 = 3/5.
    // LCS: the cat on the mat = 5 of 6.
    const scores = score("the cat sat on the mat", "the cat lay on the mat")
    assertScore(scores.rouge1, { precision: 5 / 6, recall: 5 / 6, f1: 5 / 6 }, "ROUGE-1")
    assertScore(scores.rouge2, { precision: 3 / 5, recall: 3 / 5, f1: 3 / 5 }, "ROUGE-2")
    assertScore(scores.rougeL, { precision: 5 / 6, recall: 5 / 6, f1: 5 / 6 }, "ROUGE-L")
  })

  it("takes ROUGE-L from the longest common subsequence, not the overlap", () => {
    // Candidate b a d c f, reference a b c d e f. All 5 candidate words occur in the reference:
    // ROUGE-1 P = 5/5, R = 5/6, F1 = 2 * (5/6) / (11/6) = 10/11. An LCS keeps only one of the
    // swapped pairs (b a) and (d c), plus f: length 3, e.g. "b c f".
    // ROUGE-L P = 3/5, R = 3/6, F1 = 2 * 0.6 * 0.5 / 1.1 = 6/11.
    const scores = score("b a d c f", "a b c d e f")
    assertScore(scores.rouge1, { precision: 1, recall: 5 / 6, f1: 10 / 11 }, "ROUGE-1")
    assertScore(scores.rougeL, { precision: 3 / 5, recall: 1 / 2, f1: 6 / 11 }, "ROUGE-L")
  })

  it("unites the LCS of every candidate line for each reference line in ROUGE-Lsum", () => {
    // Reference line w1 w2 w3 w4 w5; candidate lines w1 w2 w6 w7 w8 (LCS w1 w2) and w1 w3 w8 w9 w5
    // (LCS w1 w3 w5). Union: w1 w2 w3 w5 = 4 hits. R = 4/5, P = 4/10, F1 = 0.64 / 1.2 = 8/15.
    const scores = score("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", "w1 w2 w3 w4 w5")
    assertScore(scores.rougeLsum, { precision: 4 / 10, recall: 4 / 5, f1: 8 / 15 }, "ROUGE-Lsum")
  })

  it("lets ROUGE-Lsum match sentences in any order, unlike ROUGE-L", () => {
    // Whole texts: a b c d against c d a b, LCS 2 of 4: ROUGE-L = 1/2.
    // Per reference line: "a b" is the LCS with candidate line "a b", "c d" with "c d": 4 of 4 hits.
    const scores = score("c d\na b", "a b\nc d")
    assertScore(scores.rougeL, { precision: 1 / 2, recall: 1 / 2, f1: 1 / 2 }, "ROUGE-L")
    assertScore(scores.rougeLsum, perfect, "ROUGE-Lsum")
  })

  it("counts a ROUGE-Lsum hit only while both texts have an unused occurrence of the token", () => {
    // Each reference line "a" finds "a" in the candidate, but the candidate has one "a": 1 hit, not 2.
    // P = 1/1, R = 1/2, F1 = 2/3 (2 hits would give a precision of 2).
    const scores = score("a", "a\na")
    assertScore(scores.rougeLsum, { precision: 1, recall: 1 / 2, f1: 2 / 3 }, "ROUGE-Lsum")
  })

  it("picks the same LCS as rouge-score when there are several", () => {
    // Reference line a b a; candidate lines "a" and "a b". rouge-score reads an LCS back from the
    // end, so "a" matches the reference's last a (position 2) and "a b" positions 0 and 1: the
    // union covers all 3 positions, 3 hits of 3 tokens each side. Matching the first a instead
    // would leave a union of 2 and F1 = 2/3. ROUGE-L on the whole texts: LCS of a b a and a a b = 2.
    const scores = score("a\na b", "a b a")
    assertScore(scores.rougeLsum, perfect, "ROUGE-Lsum")
    assertScore(scores.rougeL, { precision: 2 / 3, recall: 2 / 3, f1: 2 / 3 }, "ROUGE-L")

    // Reference line a b; candidate lines "b a" and "a". Against "b a" both a and b are LCS of
    // length 1; reading back from (b, a), rouge-score steps along the reference (the candidate
    // step is taken only when strictly better) and settles on a. With "a" also matching a, the
    // union is {a}: 1 hit, P = 1/3, R = 1/2, F1 = (1/3) / (5/6) = 2/5. Settling on b would give 2 hits.
    const tied = score("b a\na", "a b")
    assertScore(tied.rougeLsum, { precision: 1 / 3, recall: 1 / 2, f1: 2 / 5 }, "ROUGE-Lsum on a tie")
  })

  it("scores an empty side 0, not NaN", () => {
    for (const [candidate, reference] of [["", "revenue rose"], ["— !", "revenue rose"], ["revenue rose", ""]]) {
      const scores = score(candidate!, reference!)
      for (const type of ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const) {
        assertScore(scores[type], zero, `${type} of ${JSON.stringify(candidate)} against ${JSON.stringify(reference)}`)
      }
    }
  })

  it("gives ROUGE-2 of one-word texts 0: neither side has a bigram", () => {
    const scores = score("revenue", "revenue")
    assertScore(scores.rouge1, perfect, "ROUGE-1")
    assertScore(scores.rouge2, zero, "ROUGE-2")
  })

  it("averages each precision, recall and F1 over documents", () => {
    // One perfect document and one with ROUGE-1 P = 1, R = 1/2, F1 = 2/3:
    // mean P = 1, mean R = 3/4, mean F1 = (1 + 2/3) / 2 = 5/6 (the F1 of the means would be 6/7).
    const mean = meanScores([score("a b", "a b"), score("a", "a b")])
    assertScore(mean.rouge1, { precision: 1, recall: 3 / 4, f1: 5 / 6 }, "mean ROUGE-1")
    assert.throws(() => meanScores([]), RangeError)
  })
})

describe("summary baselines", () => {
  const sentences = [
    "Revenue grew in Europe.",
    "The weather was mild.",
    "Revenue grew in Europe and Asia.",
    "Revenue grew in Asia.",
    "Dividends unchanged."
  ]

  it("first-k takes the first k sentences", () => {
    assert.deepStrictEqual(firstK(sentences, 2), sentences.slice(0, 2))
    assert.deepStrictEqual(firstK(sentences, 9), sentences)
    assert.deepStrictEqual(firstK(sentences, 0), [])
  })

  it("TextRank scores isolated sentences 1 - d and shares the rest within a connected group", () => {
    // Sentences 1 and 4 share no word with any other, so only the (1 - d) = 0.15 jump reaches them.
    // The three revenue sentences form a group whose scores sum to its size at the fixed point.
    const scores = textRankScores(sentences)
    assert.closeTo(scores[1]!, 0.15, 1e-9)
    assert.closeTo(scores[4]!, 0.15, 1e-9)
    assert.closeTo(scores[0]! + scores[2]! + scores[3]!, 3, 1e-5)
  })

  it("TextRank picks the most central sentences and returns them in document order", () => {
    // Tokens: [revenu grew in europ and asia] (6) shares 4 words with each 4-word revenue sentence:
    // weight 4 / (ln 6 + ln 4) = 1.26 twice; the two short ones share 3: 3 / (2 ln 4) = 1.08. The
    // long sentence ranks first; the short ones tie and the earlier (position 0) wins. By score the
    // order is 2, 0; the output keeps the document's order.
    assert.deepStrictEqual(textRank(sentences, 1), [sentences[2]])
    assert.deepStrictEqual(textRank(sentences, 2), [sentences[0], sentences[2]])
    assert.deepStrictEqual(textRank(sentences, 10), sentences)
    assert.deepStrictEqual(textRank([], 3), [])
  })
})

describe("the ECTSum runner", () => {
  it("scores every system on every call of a split and averages", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ectsum-"))
    try {
      await mkdir(join(dir, "ects"))
      await mkdir(join(dir, "gt_summaries"))
      // ACME's first sentence is its gold bullet (every score 1); BETA's shares no token with its
      // bullet ([thank for join] against [eps was 1 10]: every score 0). Means: 1/2.
      await writeFile(join(dir, "ects", "ACME_q1_2024.txt"), "Revenue rose 5%.\nWe thank everyone.\n")
      await writeFile(join(dir, "gt_summaries", "ACME_q1_2024.txt"), "Revenue rose 5%.\n")
      await writeFile(join(dir, "ects", "BETA_q2_2024.txt"), "Thanks for joining.\n\nEPS was $1.10.\n")
      await writeFile(join(dir, "gt_summaries", "BETA_q2_2024.txt"), "EPS was $1.10.\n")
      const tickers: Array<string> = []
      const firstSentence = {
        name: "first-1",
        summarize: (sentences: ReadonlyArray<string>, context: SummaryContext) => {
          tickers.push(context.ticker)
          return firstK(sentences, 1)
        }
      }

      const evaluation = await evaluate([firstSentence], { corpusDir: dir })
      if (evaluation._tag !== "Evaluated") return assert.fail(`skipped: ${JSON.stringify(evaluation)}`)
      assert.deepStrictEqual(tickers, ["ACME", "BETA"])
      assert.strictEqual(evaluation.corpus.documents, 2)
      assert.strictEqual(evaluation.corpus.transcriptSentences.mean, 2, "the blank line is not a sentence")
      const [result] = evaluation.systems
      assertScore(result!.rouge.rouge1, { precision: 1 / 2, recall: 1 / 2, f1: 1 / 2 }, "mean ROUGE-1")
      assertScore(result!.rouge.rouge2, { precision: 1 / 2, recall: 1 / 2, f1: 1 / 2 }, "mean ROUGE-2")
      assertScore(result!.rouge.rougeLsum, { precision: 1 / 2, recall: 1 / 2, f1: 1 / 2 }, "mean ROUGE-Lsum")
      // Three words out per call ("Revenue rose 5%." / "Thanks for joining."), three in each bullet.
      assert.strictEqual(result!.meanOutputWords, 3)
      assert.strictEqual(evaluation.corpus.goldWords.mean, 3)
      assert.include(
        formatMarkdown(evaluation),
        "| first-1 | 0.500 | 0.500 | 0.500 | 0.500 | 0.500 | 0.500 | 1.0 | 3.0 | 1.0 |"
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("skips with the reason when the split is absent", async () => {
    const evaluation = await evaluate([], { corpusDir: join(tmpdir(), "no-such-ectsum-split") })
    assert.strictEqual(evaluation._tag, "Skipped")
    assert.include(formatMarkdown(evaluation), "no ECTSum split at")
  })
})
