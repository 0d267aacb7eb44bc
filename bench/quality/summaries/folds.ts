/**
 * The pieces of a k-fold cross-validation of the extractive model's settings, kept free of I/O so
 * that they can be read (and checked) on their own: which fold a call belongs to, and a coordinate
 * search that picks settings on the training calls only.
 */

/** FNV-1a over the UTF-16 code units: a fixed, well-spread hash, so a call keeps its fold for good. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/**
 * The fold of a call, from its file name alone: adding or removing a call never moves another one,
 * and every run (and every reader who repeats it) gets the same folds.
 */
export const foldOf = (name: string, folds: number): number => fnv1a(name) % folds

/** Every value worth trying for each setting; the first value need not be the default. */
export type SearchSpace<S> = { readonly [K in keyof S]?: ReadonlyArray<S[K]> }

export interface SearchStep<S> {
  readonly setting: keyof S
  readonly value: S[keyof S]
  readonly objective: number
}

export interface SearchResult<S> {
  readonly settings: S
  readonly objective: number
  /** Each change the search kept, in order, with the objective it reached. */
  readonly steps: ReadonlyArray<SearchStep<S>>
}

/**
 * Coordinate ascent: from `start`, try every value of one setting with the others held, take the
 * best of them if it beats the current objective by more than `minGain`, and go on to the next
 * setting; stop after a round with no change or after `rounds` rounds. The gain threshold keeps the
 * search from chasing the noise of a few calls. Deterministic: settings are visited in the space's
 * order, and among equal candidates the first listed wins.
 */
export const coordinateSearch = async <S extends object>(
  start: S,
  space: SearchSpace<S>,
  objective: (settings: S) => Promise<number> | number,
  options: { readonly rounds?: number; readonly minGain?: number } = {}
): Promise<SearchResult<S>> => {
  const rounds = options.rounds ?? 3
  const minGain = options.minGain ?? 0.0005
  let settings = start
  let best = await objective(settings)
  const steps: Array<SearchStep<S>> = []
  for (let round = 0; round < rounds; round++) {
    let changed = false
    for (const setting of Object.keys(space) as Array<keyof S>) {
      let bestValue = settings[setting]
      let bestObjective = -Infinity
      for (const value of space[setting] ?? []) {
        if (value === settings[setting]) continue
        const candidate = await objective({ ...settings, [setting]: value })
        if (candidate > bestObjective) {
          bestObjective = candidate
          bestValue = value
        }
      }
      if (bestValue !== settings[setting] && bestObjective > best + minGain) {
        settings = { ...settings, [setting]: bestValue }
        best = bestObjective
        steps.push({ setting, value: bestValue, objective: bestObjective })
        changed = true
      }
    }
    if (!changed) break
  }
  return { settings, objective: best, steps }
}
