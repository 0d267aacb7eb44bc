/**
 * The tokenizer of Google's `rouge-score` (the reference ROUGE implementation for Python) with its
 * stemmer option on, which is how summarization papers usually report ROUGE:
 *
 * 1. lowercase the text;
 * 2. turn every run of characters outside `[a-z0-9]` into one space (so "$1.10" gives "1" and "10",
 *    "year-over-year" gives three tokens, and an accented letter splits its word);
 * 3. split on the spaces;
 * 4. Porter-stem the tokens longer than three characters, leave the others as they are.
 *
 * One known difference: rouge-score stems with NLTK's `PorterStemmer` in its default
 * `NLTK_EXTENSIONS` mode, and this module with the `stemmer` package, which follows Porter's
 * published algorithm (with his later `bli` and `logi` rules). The two disagree on a few word
 * shapes; see `bench/quality/summaries/README.md` for the list and its measured effect on the scores.
 */
import { stemmer } from "stemmer"

const outsideTokenAlphabet = /[^a-z0-9]+/g

/**
 * rouge-score leaves tokens of up to three characters alone: plain Porter would cut "was" to "wa"
 * and "has" to "ha", and then match them with unrelated words.
 */
const longestUnstemmedToken = 3

/** Stems repeat a lot across a corpus and stemming is the costly step, so each word is stemmed once. */
const stems = new Map<string, string>()

const stem = (token: string): string => {
  let stemmed = stems.get(token)
  if (stemmed === undefined) {
    stemmed = stemmer(token)
    stems.set(token, stemmed)
  }
  return stemmed
}

/** The tokens ROUGE compares, in text order. */
export const rougeTokens = (text: string): Array<string> =>
  text
    .toLowerCase()
    .replace(outsideTokenAlphabet, " ")
    .split(" ")
    .filter((token) => token.length > 0)
    .map((token) => (token.length > longestUnstemmedToken ? stem(token) : token))
