/**
 * Reads a news feed, RSS 2.0, RSS 1.0 (RDF) or Atom, into its entries: title, link, the text (the
 * fullest the entry gives: `content:encoded` or Atom `content` before the description or summary),
 * the time it was published and the entry's own id. An entry without a title and text, or without
 * an id and a link to know it by, is no news item; it is counted in the warnings rather than
 * dropped unseen.
 */
import { Data, Either } from "effect"
import { DomUtils, ElementType, parseDocument } from "htmlparser2"

type Node = ReturnType<typeof parseDocument>["children"][number]
type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number]

export interface NewsEntry {
  /** The entry's id as the feed gives it (`guid`, Atom `id`), else its link. */
  readonly key: string
  readonly title: string
  /** The article's address, when the entry has one. */
  readonly link?: string | undefined
  /** The entry's text, HTML or plain text as the feed carries it. */
  readonly text: string
  /** When it was published, in milliseconds since the epoch, when the entry says it. */
  readonly publishedAtMillis?: number | undefined
}

export interface NewsFeed {
  readonly title?: string | undefined
  readonly entries: ReadonlyArray<NewsEntry>
  readonly warnings: ReadonlyArray<string>
}

/** A document that is no feed at all (an HTML error page, say), with what it is instead. */
export class NotAFeed extends Data.TaggedError("NotAFeed")<{ readonly reason: string }> {}

const isElement = (node: Node): node is Element => ElementType.isTag(node)

/** The direct children of `parent` named `name` (namespace prefix included, case ignored). */
const childrenNamed = (parent: Element, name: string): ReadonlyArray<Element> =>
  parent.children.filter((child): child is Element => isElement(child) && child.name.toLowerCase() === name)

const textOf = (element: Element | undefined): string =>
  element === undefined ? "" : DomUtils.textContent(element).trim()

/** The text of the first child named one of `names`, in that order of preference, that has some. */
const firstText = (parent: Element, ...names: ReadonlyArray<string>): string => {
  for (const name of names) {
    for (const child of childrenNamed(parent, name)) {
      const text = textOf(child)
      if (text !== "") return text
    }
  }
  return ""
}

/** Atom `content type="xhtml"` holds markup as elements, not as escaped text: keep it as HTML. */
const atomTextOf = (element: Element): string =>
  element.attribs.type === "xhtml" ? DomUtils.getInnerHTML(element, { xmlMode: true }).trim() : textOf(element)

const parseTime = (text: string): number | undefined => {
  if (text === "") return undefined
  const millis = Date.parse(text)
  return Number.isNaN(millis) ? undefined : millis
}

/** The longer of two texts: a feed's full content when it has it, else its summary. */
const fuller = (first: string, second: string): string => (second.length > first.length ? second : first)

const rssEntry = (item: Element): Omit<NewsEntry, "key"> & { readonly id: string } => {
  const link = firstText(item, "link")
  const published = firstText(item, "pubdate", "dc:date")
  return {
    id: firstText(item, "guid"),
    title: firstText(item, "title"),
    ...(link === "" ? {} : { link }),
    text: fuller(firstText(item, "content:encoded"), firstText(item, "description")),
    publishedAtMillis: parseTime(published)
  }
}

/** An Atom entry's link to the article: `rel="alternate"` (the default relation) before any other. */
const atomLink = (entry: Element): string | undefined => {
  const links = childrenNamed(entry, "link")
  const alternate = links.find((link) => (link.attribs.rel ?? "alternate") === "alternate") ?? links[0]
  const href = alternate?.attribs.href?.trim()
  return href === undefined || href === "" ? undefined : href
}

const atomEntry = (entry: Element): Omit<NewsEntry, "key"> & { readonly id: string } => {
  const content = childrenNamed(entry, "content")[0]
  const summary = childrenNamed(entry, "summary")[0]
  const link = atomLink(entry)
  return {
    id: firstText(entry, "id"),
    title: firstText(entry, "title"),
    ...(link === undefined ? {} : { link }),
    text: fuller(content === undefined ? "" : atomTextOf(content), summary === undefined ? "" : atomTextOf(summary)),
    publishedAtMillis: parseTime(firstText(entry, "published", "updated", "dc:date"))
  }
}

/** Reads `xml` as a feed, or says why it is none. */
export const readNewsFeed = (xml: string): Either.Either<NewsFeed, NotAFeed> => {
  const document = parseDocument(xml, { xmlMode: true, decodeEntities: true })
  const root = document.children.find(isElement)
  const rootName = root?.name.toLowerCase()
  if (root === undefined || (rootName !== "rss" && rootName !== "feed" && rootName !== "rdf:rdf")) {
    const found = root === undefined ? "it has no root element" : `its root is <${root.name}>`
    return Either.left(new NotAFeed({ reason: `the answer is not an RSS or Atom feed: ${found}` }))
  }
  const isAtom = rootName === "feed"
  const channel = isAtom ? root : childrenNamed(root, "channel")[0]
  const items = isAtom
    ? childrenNamed(root, "entry")
    : [...childrenNamed(root, "item"), ...(channel === undefined ? [] : childrenNamed(channel, "item"))]
  const warnings: Array<string> = []
  const entries: Array<NewsEntry> = []
  items.forEach((item, index) => {
    const { id, ...entry } = isAtom ? atomEntry(item) : rssEntry(item)
    const key = id !== "" ? id : entry.link ?? ""
    if (key === "") {
      warnings.push(`entry ${index + 1} skipped: it has neither an id nor a link`)
    } else if (entry.title === "" && entry.text === "") {
      warnings.push(`entry ${index + 1} (${key}) skipped: it has neither a title nor a text`)
    } else {
      entries.push({ key, ...entry })
    }
  })
  const title = channel === undefined ? "" : firstText(channel, "title")
  return Either.right({ ...(title === "" ? {} : { title }), entries, warnings })
}
