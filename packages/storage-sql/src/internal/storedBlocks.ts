/**
 * A chunk's blocks as its `blocks` column keeps them. Most blocks of a filing are plain paragraphs:
 * their inline nodes are one run of their own text and their style says nothing, and written out
 * in full they make the JSON over twice the size of the chunk's Markdown. Those two fields are left
 * out when they say nothing and put back on reading, which gives every block back as it was saved
 * (about 1.4 times the Markdown instead of 2.3, before PostgreSQL compresses the column).
 */
import { Blocks } from "@filings/domain"
import { DocumentStore } from "@filings/storage"
import { Schema } from "effect"

type Block = Blocks.Block
type Inline = Blocks.Inline

const isPlainStyle = (style: Blocks.TextStyle): boolean =>
  !style.bold && !style.italic && !style.underline && !style.centered && style.fontSizePt === undefined

/** The inline nodes are the text as one run, so the text alone says them. */
const isOneRun = (inlines: ReadonlyArray<Inline>, text: string): boolean =>
  inlines.length === 1 && inlines[0]?.kind === "text" && inlines[0].text === text

type Stored = Record<string, unknown>

const compact = (block: Block): unknown => {
  switch (block.kind) {
    case "heading":
    case "paragraph": {
      const { inlines, style, ...rest } = block
      return {
        ...rest,
        ...(isOneRun(inlines, block.text) ? {} : { inlines }),
        ...(isPlainStyle(style) ? {} : { style })
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
      return { ...block, inlines: block.inlines ?? oneRun(block.text), style: block.style ?? Blocks.plainStyle }
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
