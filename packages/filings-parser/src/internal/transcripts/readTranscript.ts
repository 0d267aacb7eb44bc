/**
 * Reads an earnings call transcript, plain text or JSON with speaker turns, into blocks: a heading
 * per speaker turn (`Tim Cook — Chief Executive Officer`), paragraphs for what was said, and the
 * call's sections (`Prepared Remarks`, `Questions and Answers`, `Participants`) as block ranges.
 * Speaker detection is by line shape (`Name -- Title`, `Name:`, `Operator`, ALL CAPS names), never
 * by known names; a text without speaker turns still gives paragraphs, with a warning.
 */
import { Effect, Schema } from "effect"
import { fromFields, type StatedPeriod } from "../../FiscalPeriod.js"
import { type Block, plainStyle } from "../blocks.js"
import { text as inlineText } from "../inline.js"
import { joinLines } from "../pdf/layout.js"

export class TranscriptUnusable extends Schema.TaggedError<TranscriptUnusable>()("TranscriptUnusable", {
  reason: Schema.Literal("empty", "binary", "invalid-json", "no-text"),
  detail: Schema.String
}) {
  override get message(): string {
    return `Transcript unusable (${this.reason}): ${this.detail}`
  }
}

export interface TranscriptSpeaker {
  readonly name: string
  readonly role?: string | undefined
}

/** A labeled range of blocks: `blocks.slice(startBlock, endBlock)` (end exclusive). */
export interface TranscriptSection {
  readonly title: string
  readonly startBlock: number
  readonly endBlock: number
}

export interface TranscriptContent {
  readonly blocks: Array<Block>
  readonly sections: Array<TranscriptSection>
  readonly speakers: Array<TranscriptSpeaker>
  readonly title?: string | undefined
  /** The quarter and fiscal year the transcript's own fields file it under (JSON `event.quarter`, `year`). */
  readonly period?: StatedPeriod | undefined
  readonly warnings: Array<string>
}

export interface ReadTranscriptOptions {
  /** How the input is encoded; by default JSON when it starts with `{` (or `[` and ends with `]`). */
  readonly format?: "text" | "json" | undefined
}

export const sectionNames = {
  prepared: "Prepared Remarks",
  qa: "Questions and Answers",
  participants: "Participants"
} as const

type Part = "prepared" | "qa"

/** One speaker turn; `speaker` undefined for text whose speakers are unknown. */
interface Turn {
  readonly speaker?: string | undefined
  readonly role?: string | undefined
  readonly text: string
  readonly part?: Part | undefined
}

interface Transcript {
  readonly turns: Array<Turn>
  readonly participants: Array<TranscriptSpeaker>
  readonly title?: string | undefined
  readonly period?: StatedPeriod | undefined
  readonly warnings: Array<string>
  /** The source says where Q&A starts (a JSON split, a `Questions and Answers` line). */
  readonly explicitParts: boolean
}

// --- Q&A opening ----------------------------------------------------------------------------

/** The operator (or host) takes the first question: Q&A starts with this sentence. */
const qaStarts = [
  /\b(?:first|initial) question\s+(?:(?:today|this (?:morning|afternoon|evening))\s+)?(?:comes|is coming|is|will come|will be)\s+from\b/i,
  /\b(?:take|have) (?:our|the|your) first question\b/i,
  /\bfirst question,? (?:please|from)\b/i,
  /\b(?:we will|we'll|let's|let us) (?:now )?(?:begin|start|open|move to) (?:the |our )?(?:question-and-answer|question and answer|q&a)\b/i
]
/** The host hands over to questions: Q&A starts after this sentence. */
const qaHandovers = [
  /\b(?:open|turn) (?:the call|it|the line|the floor|things)?\s*(?:up |over |back )?(?:to|for) (?:your |the |some )?questions\b/i,
  /\b(?:ready|happy) (?:for|to take) (?:the |your |our )?(?:first )?questions?\b/i
]
/** Announcing the Q&A for later (`After that, we'll open the call to questions`) does not open it. */
const isFutureMention = /\bwill (?:follow|conclude|be (?:a|an))\b|\blater\b|\bat the end\b|\b(?:after|following)\b/i

const opensQa = (sentence: string): "here" | "after" | undefined => {
  if (isFutureMention.test(sentence)) return undefined
  if (qaStarts.some((pattern) => pattern.test(sentence))) return "here"
  if (qaHandovers.some((pattern) => pattern.test(sentence))) return "after"
  return undefined
}

export const splitSentences = (text: string): Array<string> =>
  text.split(/(?<=[.?!]["”’)]?)\s+(?=["“(]?[A-Z0-9])/).map((sentence) => sentence.trim()).filter((s) => s !== "")

// --- plain text ------------------------------------------------------------------------------

const namePart = String.raw`[A-Z][\p{L}.'’-]*(?:\s+(?:[A-Z][\p{L}.'’-]*|de|da|van|von|der|del|la|le|di|bin))*`
/** `Tim Cook -- Chief Executive Officer`, `Jane Doe — Analyst — Big Bank`. */
const dashedSpeaker = new RegExp(String.raw`^(${namePart})\s+(?:--|—|–|-)\s+(\S.*)$`, "u")
/** `Tim Cook:` / `Tim Cook (CEO): text`. */
const colonSpeaker = new RegExp(String.raw`^(${namePart})(?:\s*[(,]\s*([^):]{2,80})\)?)?\s*:\s*(.*)$`, "u")
/** `TIM COOK` / `TIM COOK, CHIEF EXECUTIVE OFFICER` alone on its line. */
const capsSpeaker = /^([A-Z][A-Z.'’-]+(?:\s+[A-Z][A-Z.'’-]+){1,4})(?:\s*[,(–—-]+\s*([^)]+?)\)?)?\s*:?$/
const operatorLine = /^(?:the\s+)?operator\s*:?\s*(.*)$/i

const preparedMarker = /^(?:prepared remarks|presentation|management discussion section|opening remarks)\s*:?$/i
const qaMarker = /^(?:questions?\s*(?:and|&)\s*answers?|q\s*&\s*a|q&a session|question-and-answer session)\s*:?$/i
const participantsMarker =
  /^(?:call participants|participants|conference call participants|corporate participants|company participants|other participants|analysts?|executives)\s*:?$/i

/** Words that make a `Word:` line a label (`Note:`, `Revenue:`), not a speaker. */
const notAName = /^(?:note|notes|revenue|source|date|time|duration|re|subject|total|q[1-4]|fy|question|answer|a|q)$/i

const wordCount = (text: string) => text.split(/\s+/).filter((word) => word !== "").length

interface SpeakerLine {
  readonly name: string
  readonly role?: string | undefined
  /** Speech on the same line (`Name: text`). */
  readonly rest: string
}

const titleCase = (name: string) =>
  name.toLowerCase().replace(/(^|[\s'’-])(\p{L})/gu, (_, before, letter) => before + letter.toUpperCase())

const cleanRole = (role: string | undefined): string | undefined => {
  const cleaned = role?.replace(/\s*(?:--|—|–)\s*/g, ", ").replace(/\s+/g, " ").trim()
  return cleaned === undefined || cleaned === "" ? undefined : cleaned
}

/** The speaker a line introduces, when it is shaped like a speaker line. */
export const speakerLine = (line: string): SpeakerLine | undefined => {
  const trimmed = line.trim()
  if (trimmed.length === 0 || trimmed.length > 120) return undefined
  const operator = operatorLine.exec(trimmed)
  if (operator !== null && (operator[1] === "" || /^operator\s*:/i.test(trimmed))) {
    return { name: "Operator", rest: operator[1] ?? "" }
  }
  const dashed = dashedSpeaker.exec(trimmed)
  if (dashed !== null && wordCount(dashed[1]!) <= 5 && wordCount(dashed[2]!) <= 14 && !/[.?!]$/.test(trimmed)) {
    return { name: dashed[1]!, role: cleanRole(dashed[2]), rest: "" }
  }
  const caps = capsSpeaker.exec(trimmed)
  if (caps !== null && !preparedMarker.test(trimmed) && !qaMarker.test(trimmed) && !participantsMarker.test(trimmed)) {
    return {
      name: titleCase(caps[1]!),
      role: cleanRole(caps[2] === undefined ? undefined : titleCase(caps[2])),
      rest: ""
    }
  }
  const colon = colonSpeaker.exec(trimmed)
  if (colon !== null && wordCount(colon[1]!) <= 4 && !notAName.test(colon[1]!)) {
    const rest = colon[3] ?? ""
    // `Name:` alone, or followed by speech; a one-word label before a short phrase is not a speaker.
    if (rest === "" || wordCount(colon[1]!) >= 2 || wordCount(rest) >= 4) {
      return { name: colon[1]!, role: cleanRole(colon[2]), rest }
    }
  }
  return undefined
}

const looksLikeTitle = (line: string) =>
  line.length <= 160 && /\b(?:earnings|conference|call|transcript|results)\b/i.test(line) && !/[.?!]$/.test(line)

const parseText = (text: string): Transcript => {
  const lines = text.replace(/\r\n?/g, "\n").split("\n").map((line) => line.trim())
  const warnings: Array<string> = []
  // Speaker candidates: single-word `Name:` labels must recur to count (a real speaker speaks twice).
  const candidates = lines.map((line, index) => {
    const speaker = speakerLine(line)
    // A speaker line alone must be followed by text, not be the last line.
    if (
      speaker !== undefined && speaker.rest === "" && (lines[index + 1] ?? "") === "" && (lines[index + 2] ?? "") === ""
    ) {
      return undefined
    }
    return speaker
  })
  const counts = new Map<string, number>()
  for (const candidate of candidates) {
    if (candidate !== undefined) counts.set(candidate.name, (counts.get(candidate.name) ?? 0) + 1)
  }
  const accepted = (candidate: SpeakerLine | undefined): candidate is SpeakerLine =>
    candidate !== undefined &&
    (candidate.name === "Operator" || wordCount(candidate.name) >= 2 || (counts.get(candidate.name) ?? 0) >= 2)
  const speakerTurns = candidates.filter(accepted).length
  const turns: Array<Turn> = []
  const participants: Array<TranscriptSpeaker> = []
  let title: string | undefined
  let part: Part | undefined
  let explicitParts = false
  let inParticipants = false
  let current: {
    speaker?: string | undefined
    role?: string | undefined
    lines: Array<string>
    part?: Part | undefined
  } | undefined
  const flush = () => {
    if (current !== undefined && (current.lines.length > 0 || current.speaker !== undefined)) {
      turns.push({ speaker: current.speaker, role: current.role, text: current.lines.join("\n"), part: current.part })
    }
    current = undefined
  }
  lines.forEach((line, index) => {
    if (preparedMarker.test(line) || qaMarker.test(line)) {
      flush()
      inParticipants = false
      part = qaMarker.test(line) ? "qa" : "prepared"
      explicitParts = true
      return
    }
    if (participantsMarker.test(line)) {
      flush()
      inParticipants = true
      return
    }
    const candidate = candidates[index]
    if (inParticipants) {
      if (line === "") return
      const listed = speakerLine(line)
      if (listed !== undefined && listed.rest === "") {
        participants.push({ name: listed.name, role: listed.role })
        return
      }
      inParticipants = false
    }
    if (speakerTurns > 0 && accepted(candidate)) {
      flush()
      current = {
        speaker: candidate.name,
        role: candidate.role,
        lines: candidate.rest === "" ? [] : [candidate.rest],
        part
      }
      return
    }
    if (title === undefined && turns.length === 0 && current === undefined && line !== "" && looksLikeTitle(line)) {
      title = line
      return
    }
    current ??= { lines: [], part }
    current.lines.push(line)
  })
  flush()
  if (speakerTurns === 0) warnings.push("transcript: no speaker turns found; the text is kept as paragraphs")
  return { turns, participants, title, warnings, explicitParts }
}

// --- JSON -------------------------------------------------------------------------------------

type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

const isRecord = (value: Json | undefined): value is { readonly [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const textKeys = ["text", "content", "transcript", "speech", "body", "paragraph", "words", "utterance"]
const speakerKeys = ["speaker", "speaker_name", "speakerName", "name", "participant", "speaker_id", "speakerId"]
const roleKeys = ["title", "role", "position", "speaker_title", "speakerTitle", "affiliation", "company"]

const stringField = (record: { readonly [key: string]: Json }, keys: ReadonlyArray<string>): string | undefined => {
  for (const key of keys) {
    const value = record[key]
    if (typeof value === "string" && value.trim() !== "") return value.trim()
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join("\n")
  }
  return undefined
}

const isPreparedKey = (key: string) => /prepared|presentation|remarks|management/i.test(key)
const isQaKey = (key: string) => /(?:^|_|\b)(?:q_?(?:and|&)_?a|qa|questions?)/i.test(key) && !/prepared/i.test(key)

/** A map from speaker ids to `{ name, title }` (earningscall.biz's `speaker_name_map_v2` and the like). */
const speakerMap = (root: { readonly [key: string]: Json }): Map<string, TranscriptSpeaker> => {
  const map = new Map<string, TranscriptSpeaker>()
  for (const [key, value] of Object.entries(root)) {
    if (!/speaker|participant/i.test(key)) continue
    if (isRecord(value)) {
      for (const [id, entry] of Object.entries(value)) {
        if (isRecord(entry)) {
          const name = stringField(entry, ["name", "speaker", "full_name", "fullName"])
          if (name !== undefined) map.set(id, { name, role: stringField(entry, roleKeys) })
        } else if (typeof entry === "string" && entry.trim() !== "") {
          map.set(id, { name: entry.trim() })
        }
      }
    } else if (Array.isArray(value)) {
      // A participants list: objects with an id and a name, and no speech.
      for (const entry of value) {
        if (!isRecord(entry) || stringField(entry, ["text", "content", "speech"]) !== undefined) continue
        const id = stringField(entry, ["id", "speaker_id", "speakerId", "speaker"])
        const name = stringField(entry, ["name", "full_name", "fullName"])
        if (id !== undefined && name !== undefined) map.set(id, { name, role: stringField(entry, roleKeys) })
      }
    }
  }
  return map
}

/** Speaker turns from a JSON value: an array of turns, a text, or an object holding them. */
const jsonTurns = (value: Json | undefined, part: Part | undefined, depth: number): Array<Turn> | undefined => {
  if (value === undefined || value === null || depth > 4) return undefined
  if (typeof value === "string") return value.trim() === "" ? undefined : textTurns(value, part)
  if (Array.isArray(value)) {
    const turns: Array<Turn> = []
    for (const item of value) {
      if (typeof item === "string") {
        if (item.trim() !== "") turns.push({ text: item.trim(), part })
      } else if (isRecord(item)) {
        const text = stringField(item, textKeys)
        if (text === undefined) continue
        const speakerValue = speakerKeys.map((key) => item[key]).find((field) => field !== undefined && field !== null)
        const speaker = typeof speakerValue === "string"
          ? speakerValue
          : typeof speakerValue === "number"
          ? String(speakerValue)
          : isRecord(speakerValue)
          ? stringField(speakerValue, ["name", "id"])
          : undefined
        const role = stringField(item, roleKeys) ??
          (isRecord(speakerValue) ? stringField(speakerValue, roleKeys) : undefined)
        turns.push({ speaker, role, text, part })
      }
    }
    return turns.length > 0 ? turns : undefined
  }
  if (isRecord(value)) {
    for (
      const key of [
        "speakers",
        "turns",
        "segments",
        "utterances",
        "transcript",
        "paragraphs",
        "dialogue",
        "text",
        "content"
      ]
    ) {
      const found = jsonTurns(value[key], part, depth + 1)
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** A text inside JSON: its own speaker lines when it has them, one speakerless turn otherwise. */
const textTurns = (text: string, part: Part | undefined): Array<Turn> => {
  const parsed = parseText(text)
  const hasSpeakers = parsed.warnings.length === 0
  return hasSpeakers ? parsed.turns.map((turn) => ({ ...turn, part: turn.part ?? part })) : [{ text, part }]
}

const jsonTitle = (root: { readonly [key: string]: Json }): string | undefined => {
  const direct = stringField(root, ["title", "name", "headline", "event_title", "eventTitle"])
  if (direct !== undefined && direct.length <= 200) return direct
  const event = isRecord(root["event"]) ? root["event"] : root
  const year = event["year"] ?? event["fiscal_year"]
  const quarter = event["quarter"] ?? event["fiscal_quarter"]
  const company = stringField(root, ["company", "company_name", "symbol", "ticker"]) ??
    stringField(event, ["symbol", "company"])
  if (typeof year !== "number" && typeof year !== "string") return undefined
  const when = quarter === undefined || quarter === null ? `${year}` : `Q${quarter} ${year}`
  return `${company === undefined ? "" : `${company} `}${when} Earnings Call`
}

/** The quarter and year of the call's own fields, at the top or under `event`. */
const jsonPeriod = (root: { readonly [key: string]: Json }): StatedPeriod | undefined => {
  const event = isRecord(root["event"]) ? root["event"] : root
  return fromFields({
    year: event["fiscal_year"] ?? event["fiscalYear"] ?? event["year"],
    quarter: event["fiscal_quarter"] ?? event["fiscalQuarter"] ?? event["quarter"]
  })
}

const parseJson = (root: Json): Transcript | undefined => {
  const warnings: Array<string> = []
  if (!isRecord(root)) {
    const turns = jsonTurns(root, undefined, 0)
    return turns === undefined ? undefined : { turns, participants: [], warnings, explicitParts: false }
  }
  const entries = Object.entries(root)
  const preparedEntry = entries.find(([key, value]) =>
    isPreparedKey(key) && (typeof value === "string" || Array.isArray(value))
  )
  const qaEntry = entries.find(([key, value]) =>
    isQaKey(key) && (typeof value === "string" || Array.isArray(value) || value === null)
  )
  let turns: Array<Turn> | undefined
  let explicitParts = false
  if (preparedEntry !== undefined) {
    const prepared = jsonTurns(preparedEntry[1], "prepared", 0) ?? []
    const qa = qaEntry === undefined ? undefined : jsonTurns(qaEntry[1], "qa", 0)
    if (qaEntry !== undefined && qa === undefined) warnings.push(`transcript: the Q&A part (${qaEntry[0]}) is empty`)
    turns = [...prepared, ...(qa ?? [])]
    explicitParts = true
  } else {
    turns = jsonTurns(root, undefined, 0)
  }
  if (turns === undefined || turns.length === 0) return undefined
  const map = speakerMap(root)
  const named = turns.map((turn) => {
    const known = turn.speaker === undefined ? undefined : map.get(turn.speaker)
    return known === undefined ? turn : { ...turn, speaker: known.name, role: turn.role ?? known.role }
  })
  return {
    turns: named,
    participants: [...map.values()],
    title: jsonTitle(root),
    period: jsonPeriod(root),
    warnings,
    explicitParts
  }
}

// --- blocks -----------------------------------------------------------------------------------

const heading = (text: string, depth: 1 | 2 | 3): Block => ({
  kind: "heading",
  page: 1,
  depth,
  text,
  inlines: [inlineText(text)],
  style: plainStyle
})

const paragraph = (text: string): Block => ({
  kind: "paragraph",
  page: 1,
  text,
  inlines: [inlineText(text)],
  style: plainStyle
})

/** Paragraphs of a turn: its blank-line paragraphs; one-sentence lines and long runs grouped by size. */
const paragraphsOf = (text: string): Array<string> => {
  const paragraphs: Array<string> = []
  for (const chunk of text.split(/\n\s*\n/)) {
    // Lines are kept as units (one-sentence-per-line transcripts have no full stops), except a
    // line that ends in a word broken by a hyphen.
    const lines: Array<string> = []
    for (const line of chunk.split("\n").map((text) => text.replace(/\s+/g, " ").trim())) {
      if (line === "") continue
      const last = lines[lines.length - 1]
      if (last !== undefined && /[a-z]{2}-$/.test(last) && /^[a-z]/.test(line)) {
        lines[lines.length - 1] = joinLines(last, line)
      } else lines.push(line)
    }
    const sentences = lines.flatMap(splitSentences)
    let current = ""
    for (const sentence of sentences) {
      if (current !== "" && current.length + sentence.length > 700) {
        paragraphs.push(current)
        current = ""
      }
      current = current === "" ? sentence : `${current} ${sentence}`
    }
    if (current !== "") paragraphs.push(current)
  }
  return paragraphs
}

/** Ids such as `spk03`: the speaker is known only by a number. */
const isSpeakerId = (name: string) => /^(?:spk|speaker|spkr|s)[\s_-]?\d+$/i.test(name)

/** Enough Q&A to be one: a question and an answer (two turns after the opening), or 100 words of text. */
const hasQuestions = (qa: ReadonlyArray<Turn>): boolean =>
  qa.some((turn) => turn.speaker !== undefined)
    ? qa.length >= 3
    : qa.reduce((words, turn) => words + wordCount(turn.text), 0) >= 100

/** Split turns at the Q&A opening, when the source did not say where it is. */
const splitAtQa = (turns: ReadonlyArray<Turn>): Array<Turn> => {
  for (let index = 0; index < turns.length; index++) {
    const turn = turns[index]!
    const sentences = splitSentences(turn.text.replace(/\s+/g, " "))
    for (let position = 0; position < sentences.length; position++) {
      const opening = opensQa(sentences[position]!)
      // A handover ends its speaker's turn; one in the middle of a turn is an announcement.
      if (opening === undefined || (opening === "after" && position < sentences.length - 2)) continue
      const cut = opening === "here" ? position : position + 1
      const before: Array<Turn> = turns.slice(0, index).map((t) => ({ ...t, part: "prepared" as const }))
      const after: Array<Turn> = turns.slice(index + 1).map((t) => ({ ...t, part: "qa" as const }))
      const head = sentences.slice(0, cut).join(" ")
      const tail = sentences.slice(cut).join(" ")
      const middle: Array<Turn> = []
      if (head !== "") middle.push({ ...turn, text: head, part: "prepared" })
      // The rest of a speaker's turn goes on in Q&A under the same speaker.
      if (tail !== "") middle.push({ ...turn, text: tail, part: "qa" })
      const split = [...before, ...middle, ...after]
      // A handover at the very end (the Q&A itself is not in the text) opens nothing.
      return hasQuestions(split.filter((t) => t.part === "qa")) ? split : [...turns]
    }
  }
  return [...turns]
}

/** The operator calls the questions, by name: `We'll take our next question from ...`. */
const callsQuestion =
  /\b(?:first|next|last|final) question (?:today )?from\b|\b(?:first|next|last|final) question (?:comes|is coming|is|will come) from\b/i

/**
 * A speaker known only by id (`spk03`) who calls the questions in two turns or more, and never
 * speaks at length, is the operator: named so, as a transcript with names would.
 */
const nameOperator = (turns: ReadonlyArray<Turn>): Array<Turn> => {
  const calls = new Map<string, number>()
  const longest = new Map<string, number>()
  for (const turn of turns) {
    if (turn.speaker === undefined || !isSpeakerId(turn.speaker)) continue
    if (callsQuestion.test(turn.text)) calls.set(turn.speaker, (calls.get(turn.speaker) ?? 0) + 1)
    longest.set(turn.speaker, Math.max(longest.get(turn.speaker) ?? 0, wordCount(turn.text)))
  }
  const candidates = [...calls].filter(([id, count]) => count >= 2 && (longest.get(id) ?? 0) <= 150)
  if (candidates.length !== 1 || turns.some((turn) => turn.speaker === "Operator")) return [...turns]
  const operator = candidates[0]![0]
  return turns.map((turn) => turn.speaker === operator ? { ...turn, speaker: "Operator" } : turn)
}

const toContent = (transcript: Transcript): TranscriptContent => {
  const warnings = [...transcript.warnings]
  const hasParts = transcript.turns.some((turn) => turn.part !== undefined)
  const named = nameOperator(transcript.turns)
  const turns = hasParts && transcript.explicitParts ? named : splitAtQa(named)
  const withSpeakers = turns.some((turn) => turn.speaker !== undefined)
  const speakers: Array<TranscriptSpeaker> = []
  const known = new Map<string, TranscriptSpeaker>()
  const addSpeaker = (name: string, role: string | undefined) => {
    const existing = known.get(name)
    if (existing === undefined) {
      const speaker = role === undefined ? { name } : { name, role }
      known.set(name, speaker)
      speakers.push(speaker)
    } else if (existing.role === undefined && role !== undefined) {
      const index = speakers.indexOf(existing)
      const speaker = { name, role }
      known.set(name, speaker)
      speakers[index] = speaker
    }
  }
  for (const participant of transcript.participants) addSpeaker(participant.name, participant.role)
  const roles = new Map(transcript.participants.map((participant) => [participant.name, participant.role]))
  for (const turn of turns) {
    if (turn.speaker !== undefined) addSpeaker(turn.speaker, turn.role ?? roles.get(turn.speaker))
  }
  const ids = speakers.filter((speaker) => isSpeakerId(speaker.name))
  if (ids.length > 0) warnings.push(`transcript: ${ids.length} speakers are known by id only (${ids[0]!.name}, ...)`)

  const blocks: Array<Block> = []
  const sections: Array<TranscriptSection> = []
  if (transcript.title !== undefined) blocks.push(heading(transcript.title, 1))
  const open = (title: string) => {
    const last = sections[sections.length - 1]
    if (last !== undefined) sections[sections.length - 1] = { ...last, endBlock: blocks.length }
    sections.push({ title, startBlock: blocks.length, endBlock: blocks.length })
    blocks.push(heading(title, 2))
  }
  if (transcript.participants.length > 0) {
    open(sectionNames.participants)
    blocks.push({
      kind: "list",
      page: 1,
      ordered: false,
      items: transcript.participants.map((p) => {
        const item = p.role === undefined ? p.name : `${p.name} — ${p.role}`
        return { text: item, inlines: [inlineText(item)] }
      })
    })
  }
  const anyQa = turns.some((turn) => turn.part === "qa")
  let part: Part | undefined
  for (const turn of turns) {
    const turnPart = turn.part ?? (anyQa ? "prepared" : undefined)
    if (turnPart !== undefined && turnPart !== part) {
      open(turnPart === "qa" ? sectionNames.qa : sectionNames.prepared)
      part = turnPart
    } else if (turnPart === undefined && part === undefined && sections.length > 0 && withSpeakers) {
      open(sectionNames.prepared)
      part = "prepared"
    }
    if (turn.speaker !== undefined) {
      const role = known.get(turn.speaker)?.role
      blocks.push(heading(role === undefined ? turn.speaker : `${turn.speaker} — ${role}`, 3))
    }
    for (const text of paragraphsOf(turn.text)) blocks.push(paragraph(text))
  }
  const last = sections[sections.length - 1]
  if (last !== undefined) sections[sections.length - 1] = { ...last, endBlock: blocks.length }
  if (withSpeakers && !anyQa) warnings.push("transcript: no question-and-answer part found")
  return {
    blocks,
    sections,
    speakers,
    warnings,
    ...(transcript.title === undefined ? {} : { title: transcript.title }),
    ...(transcript.period === undefined ? {} : { period: transcript.period })
  }
}

// --- entry point ------------------------------------------------------------------------------

const decode = (input: string | Uint8Array): Effect.Effect<string, TranscriptUnusable> =>
  Effect.suspend(() => {
    if (typeof input === "string") return Effect.succeed(input)
    if (input.includes(0)) {
      return Effect.fail(new TranscriptUnusable({ reason: "binary", detail: "the input contains NUL bytes" }))
    }
    return Effect.try({
      try: () => new TextDecoder("utf-8", { fatal: true }).decode(input),
      catch: () => new TranscriptUnusable({ reason: "binary", detail: "the input is not UTF-8 text" })
    })
  })

/** Mostly control characters: not text. */
const looksBinary = (text: string): boolean => {
  const sample = text.slice(0, 4096)

  const control = sample.match(/[\u0000-\u0008\u000e-\u001f\ufffd]/g)?.length ?? 0
  return control > Math.max(8, sample.length * 0.05)
}

/**
 * Read a transcript from text or JSON (string or UTF-8 bytes). Fails with `TranscriptUnusable`
 * for empty or binary input, JSON that does not parse, and JSON without any transcript text.
 */
export const readTranscript = Effect.fn("readTranscript")(function*(
  input: string | Uint8Array,
  options?: ReadTranscriptOptions
) {
  const raw = yield* decode(input)
  const text = raw.replace(/^\ufeff/, "")
  if (text.trim() === "") return yield* new TranscriptUnusable({ reason: "empty", detail: "the input has no text" })
  if (looksBinary(text)) return yield* new TranscriptUnusable({ reason: "binary", detail: "the input is not text" })
  const trimmed = text.trim()
  const claimsJson = options?.format === "json" ||
    (options?.format !== "text" && (trimmed.startsWith("{") || (trimmed.startsWith("[") && trimmed.endsWith("]"))))
  if (!claimsJson) return toContent(parseText(text))
  const json = yield* Effect.try({
    try: (): Json => JSON.parse(trimmed),
    catch: (error) =>
      new TranscriptUnusable({
        reason: "invalid-json",
        detail: error instanceof Error ? error.message : "the JSON does not parse"
      })
  })
  const transcript = parseJson(json)
  if (transcript === undefined) {
    return yield* new TranscriptUnusable({
      reason: "no-text",
      detail: "the JSON holds no transcript text or speaker turns"
    })
  }
  return toContent(transcript)
})
