/**
 * The sentences of a document's chunks, as a reader sees them: the prose of the chunk's paragraph
 * and list blocks (headings, tables and preformatted text are known by their kind and left out),
 * Markdown markup removed, each sentence remembering the chunk it came from so a highlight built
 * from it can cite that chunk.
 */
import {
  type Block,
  fromMarkdown,
  type Inline,
  inlineText,
  plainText as blocksPlainText
} from "@filings/filings-parser/Blocks"

/**
 * A chunk as the sentence splitter reads it: its id (what a sentence cites), its Markdown, its
 * section, and its blocks when the caller has them.
 */
export interface ChunkText {
  /** The chunk's id, which every sentence taken from it remembers. */
  readonly id: string
  /** The chunk's Markdown. */
  readonly text: string
  /**
   * The chunk's blocks (the parsed document's), read instead of its Markdown when given; without
   * them the Markdown is read into blocks by the parser (`Blocks.fromMarkdown`).
   */
  readonly blocks?: ReadonlyArray<Block> | undefined
  /** The section the chunk belongs to, when it has one. */
  readonly section?: string | undefined
}

/** A sentence of a document as a reader sees it, with the chunk it came from, for citing. */
export interface Sentence {
  /** The sentence's plain text, without Markdown markup. */
  readonly text: string
  /** The chunk it came from: what a highlight built from it cites. */
  readonly chunkId: string
  /** The section of that chunk, when it has one. */
  readonly section?: string | undefined
  /** Position in the document, from 0. */
  readonly index: number
}

// Intl.Segmenter knows sentence ends after decimals ("$1.5 billion"), quotes and most abbreviations;
// it ships with Node's ICU, so no dictionary is bundled.
const segmenter = new Intl.Segmenter("en", { granularity: "sentence" })

// Abbreviations after which ICU would end a sentence although the sentence goes on.
// A single capital letter is a middle initial ("Gary S. Shedlin").
const continuesAfter =
  /(?:\b(?:Inc|Corp|Co|Ltd|No|Nos|Mr|Mrs|Ms|Dr|St|U\.S|U\.K|vs|approx|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)|(?<![\p{L}.])\p{Lu})\.\s*$/u

/** Markdown to the plain text of its prose: images (logos, charts) are no words of it. */
export const plainText = (markdown: string): string => blocksPlainText(markdown, { images: "omit" })

/** Inline nodes to the plain text of their prose: images (logos, charts) are no words of it. */
const prose = (inlines: ReadonlyArray<Inline>): string => inlineText(inlines, { images: "omit" })

/** The prose paragraphs of a chunk's blocks: each paragraph, and each list item on its own. */
const paragraphsOf = (blocks: ReadonlyArray<Block>): ReadonlyArray<string> =>
  blocks.flatMap((block) =>
    block.kind === "paragraph"
      ? [prose(block.inlines)]
      : block.kind === "list"
      ? block.items.map((item) => prose(item.inlines))
      : []
  ).filter((paragraph) => paragraph !== "")

/** Splits one paragraph into sentences, joining pieces ICU cut after an abbreviation. */
export const splitSentences = (paragraph: string): ReadonlyArray<string> => {
  const sentences: Array<string> = []
  let pending = ""
  for (const { segment } of segmenter.segment(paragraph)) {
    pending += segment
    if (continuesAfter.test(pending)) continue
    const sentence = pending.trim()
    if (sentence !== "") sentences.push(sentence)
    pending = ""
  }
  if (pending.trim() !== "") sentences.push(pending.trim())
  return sentences
}

/** Sentences longer than this are offered as their clauses too: a highlight should be short. */
const longSentenceWords = 30

// Where a long sentence can be cut into statements that stand alone.
const clauseBreak = /;\s+|,\s+(?=(?:while|whereas|and (?:we|our|the company|it)|which (?:was|were) (?:up|down))\b)/i

/**
 * A long sentence's clauses, each long enough to stand alone; the sentence itself when it is short
 * or does not break well.
 */
export const clausesOf = (sentence: string): ReadonlyArray<string> => {
  if (wordsOf(sentence).length <= longSentenceWords) return [sentence]
  const clauses = sentence.split(clauseBreak).map((clause) => clause.trim())
  if (clauses.length < 2 || clauses.some((clause) => wordsOf(clause).length < 6)) return [sentence]
  return clauses.map((clause) => /[.!?]$/.test(clause) ? clause : `${clause}.`)
}

/** Every sentence of the chunks, in document order. */
export const sentencesOf = (chunks: ReadonlyArray<ChunkText>): ReadonlyArray<Sentence> => {
  const sentences: Array<Sentence> = []
  for (const chunk of chunks) {
    for (const paragraph of paragraphsOf(chunk.blocks ?? fromMarkdown(chunk.text))) {
      for (const text of splitSentences(paragraph).flatMap(clausesOf)) {
        sentences.push({
          text,
          chunkId: chunk.id,
          ...(chunk.section === undefined ? {} : { section: chunk.section }),
          index: sentences.length
        })
      }
    }
  }
  return sentences
}

/** Lower-case words (letters, digits, inner apostrophes and hyphens). */
export const wordsOf = (text: string): ReadonlyArray<string> =>
  text.toLowerCase().match(/[a-z0-9]+(?:['’-][a-z0-9]+)*/g) ?? []
