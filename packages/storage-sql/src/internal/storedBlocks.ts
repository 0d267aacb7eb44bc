/**
 * A chunk's blocks as its `blocks` column keeps them. Most blocks of a filing are plain paragraphs:
 * their inline nodes are one run of their own text and their style says little (a font size), and
 * written out in full they make the JSON over twice the size of the chunk's Markdown. Inline nodes
 * that are one run are left out, and a style keeps only what differs from the plain one; both are
 * put back on reading, which gives every block back as it was saved.
 */
import { Blocks } from "@filings/domain"
import { DocumentStore } from "@filings/storage"
import { Schema } from "effect"

type Block = Blocks.Block
type Inline = Blocks.Inline

/** A style with only what differs from the plain one: a font size and the marks that are set. */
const styleChanges = (style: Blocks.TextStyle): Partial<Blocks.TextStyle> => {
  const changes: { -readonly [K in keyof Blocks.TextStyle]?: Blocks.TextStyle[K] } = {}
  if (style.bold) changes.bold = true
  if (style.italic) changes.italic = true
  if (style.underline) changes.underline = true
  if (style.centered) changes.centered = true
  if (style.fontSizePt !== undefined) changes.fontSizePt = style.fontSizePt
  return changes
}

/** The inline nodes are the text as one run, so the text alone says them. */
const isOneRun = (inlines: ReadonlyArray<Inline>, text: string): boolean =>
  inlines.length === 1 && inlines[0]?.kind === "text" && inlines[0].text === text

type Stored = Record<string, unknown>

const compact = (block: Block): unknown => {
  switch (block.kind) {
    case "heading":
    case "paragraph": {
      const { inlines, style, ...rest } = block
      const changes = styleChanges(style)
      return {
        ...rest,
        ...(isOneRun(inlines, block.text) ? {} : { inlines }),
        ...(Object.keys(changes).length === 0 ? {} : { style: changes })
      }
    }
    case "list":
      // An item that is one run of its text is kept as that text.
      return { ...block, items: block.items.map((item) => isOneRun(item.inlines, item.text) ? item.text : item) }
    default:
      return block
  }
}

const oneRun = (text: unknown): Array<Inline> => [{ kind: "text", text: String(text) }]

const expand = (stored: unknown): unknown => {
  if (typeof stored !== "object" || stored === null) return stored
  const block = stored as Stored
  switch (block.kind) {
    case "heading":
    case "paragraph":
      // A style written whole (as rows saved before styles were kept as their changes) reads the same.
      return {
        ...block,
        inlines: block.inlines ?? oneRun(block.text),
        style: { ...Blocks.plainStyle, ...(block.style as object | undefined) }
      }
    case "list":
      return {
        ...block,
        items: Array.isArray(block.items)
          ? block.items.map((item: unknown) => typeof item === "string" ? { text: item, inlines: oneRun(item) } : item)
          : block.items
      }
    default:
      return block
  }
}

/**
 * The `blocks` column: the compact JSON on the encoded side, the blocks (checked against their
 * schema) on the type side.
 */
export const BlocksColumn: Schema.Schema<ReadonlyArray<Block>, ReadonlyArray<unknown>> = Schema.transform(
  Schema.Array(Schema.Unknown),
  Schema.Array(Blocks.Block),
  { strict: false, decode: (stored) => stored.map(expand), encode: (blocks) => blocks.map(compact) }
)

/** The JSON a chunk's `blocks` column is written with. */
export const storedBlocks = (blocks: ReadonlyArray<Block>): ReadonlyArray<unknown> => blocks.map(compact)

/** A chunk as its row reads: `StoredChunk`, its blocks read from the compact column. */
export const ChunkRow = Schema.Struct({
  ...DocumentStore.StoredChunk.fields,
  blocks: Schema.optional(BlocksColumn)
})
