/**
 * The inherited formatting of an element while reading HTML: what the `style` attribute and the
 * formatting tags (`<b>`, `<i>`, `<u>`, `<center>`, `<a>`) say about its text. Only the CSS that
 * matters for EDGAR filings is read: `display:none`, font weight, style and size, underline,
 * centring and page breaks.
 */

/** An external link the text is part of; identity tells two neighbouring links apart. */
export interface Link {
  readonly href: string
}

export interface Formatting {
  /** The element is not shown (`display:none`, `hidden`, `<head>`, `<script>`, `<ix:header>` ...). */
  readonly hidden: boolean
  /** Bold by tag or CSS: a typographic hint for headings. */
  readonly bold: boolean
  readonly italic: boolean
  readonly underline: boolean
  readonly centered: boolean
  readonly fontSizePt: number | undefined
  /** Inside `<b>`/`<strong>`: written as `**strong**` in Markdown. */
  readonly strongMark: boolean
  /** Inside `<i>`/`<em>`: written as `_emphasis_` in Markdown. */
  readonly emphasisMark: boolean
  readonly link: Link | undefined
  /** Inside a link to a place in the same page (`href="#..."`), which Markdown cannot keep. */
  readonly fragmentLink: boolean
}

export const rootFormatting: Formatting = {
  hidden: false,
  bold: false,
  italic: false,
  underline: false,
  centered: false,
  fontSizePt: undefined,
  strongMark: false,
  emphasisMark: false,
  link: undefined,
  fragmentLink: false
}

/**
 * What a `style` attribute declares; `undefined` leaves the inherited value alone. The reader
 * caches one per distinct `style` string, so treat it as read-only once read.
 */
export class DeclaredStyle {
  hidden = false
  bold: boolean | undefined = undefined
  italic: boolean | undefined = undefined
  underline: boolean | undefined = undefined
  centered: boolean | undefined = undefined
  fontSizePt: number | undefined = undefined
  breakBefore = false
  breakAfter = false
  /** Left padding or margin: an inline element set apart from the text before it ("ITEM 1.|BUSINESS"). */
  spaceBefore = false

  reset(): void {
    this.hidden = false
    this.bold = undefined
    this.italic = undefined
    this.underline = undefined
    this.centered = undefined
    this.fontSizePt = undefined
    this.breakBefore = false
    this.breakAfter = false
    this.spaceBefore = false
  }
}

const boldValue = /^(?:bold|bolder|[6-9]00)$/
const normalWeight = /^(?:normal|lighter|[1-5]00)$/
const fontSize = /^(\d+(?:\.\d+)?)\s*(pt|px)$/

/** Whether a `page-break-*` value (CSS 2: `always`) or a `break-*` value (CSS 3: `page`) starts a new page. */
const forcesPageBreak = (property: string, value: string): boolean =>
  value === (property.startsWith("page-") ? "always" : "page")

const declarationValue = (style: string, from: number, to: number): string => style.slice(from, to).trim().toLowerCase()

/**
 * Reads the declarations that matter from a `style` attribute into `declared` (reset first); the
 * last declaration wins, as in CSS. Values are only looked at for the properties read.
 */
export const readStyle = (style: string, declared: DeclaredStyle): DeclaredStyle => {
  declared.reset()
  let start = 0
  while (start < style.length) {
    let end = style.indexOf(";", start)
    if (end === -1) end = style.length
    const colon = style.indexOf(":", start)
    if (colon !== -1 && colon < end) {
      const property = style.slice(start, colon).trim().toLowerCase()
      switch (property) {
        case "display":
          if (declarationValue(style, colon + 1, end).startsWith("none")) declared.hidden = true
          break
        case "font-weight": {
          const weight = declarationValue(style, colon + 1, end)
          if (boldValue.test(weight)) declared.bold = true
          else if (normalWeight.test(weight)) declared.bold = false
          break
        }
        case "font": {
          const font = declarationValue(style, colon + 1, end)
          declared.bold = /\bbold(?:er)?\b|\b[6-9]00\b/.test(font)
          if (/\b(?:italic|oblique)\b/.test(font)) declared.italic = true
          break
        }
        case "font-style": {
          const fontStyle = declarationValue(style, colon + 1, end)
          declared.italic = fontStyle === "italic" || fontStyle === "oblique"
          break
        }
        case "text-decoration":
        case "text-decoration-line":
          declared.underline = declarationValue(style, colon + 1, end).includes("underline")
          break
        case "text-align":
          declared.centered = declarationValue(style, colon + 1, end) === "center"
          break
        case "font-size": {
          const size = fontSize.exec(declarationValue(style, colon + 1, end))
          if (size !== null) declared.fontSizePt = Number(size[1]) * (size[2] === "px" ? 0.75 : 1)
          break
        }
        case "padding-left":
        case "margin-left":
          declared.spaceBefore = Number.parseFloat(declarationValue(style, colon + 1, end)) > 0
          break
        case "page-break-before":
        case "break-before":
          if (forcesPageBreak(property, declarationValue(style, colon + 1, end))) declared.breakBefore = true
          break
        case "page-break-after":
        case "break-after":
          if (forcesPageBreak(property, declarationValue(style, colon + 1, end))) declared.breakAfter = true
          break
      }
    }
    start = end + 1
  }
  return declared
}
