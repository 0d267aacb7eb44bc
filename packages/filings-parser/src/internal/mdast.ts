/**
 * Small mdast helpers shared by the remark plugins and the plain-text converter.
 */
import type { Nodes, Parents, RootContent } from "mdast"

export const isParent = (node: Nodes): node is Parents => "children" in node

/**
 * Rebuilds the children of every parent, depth first: `replace` returns the nodes that take a
 * child's place (an empty array removes it), or `undefined` to keep it and descend into it.
 * Replacement nodes are not visited again.
 */
export const replaceChildren = (
  tree: Parents,
  replace: (child: RootContent, parent: Parents) => ReadonlyArray<RootContent> | undefined
): void => {
  const stack: Array<Parents> = [tree]
  for (let parent = stack.pop(); parent !== undefined; parent = stack.pop()) {
    const next: Array<RootContent> = []
    let changed = false
    for (const child of parent.children) {
      const replacement = replace(child, parent)
      if (replacement === undefined) {
        next.push(child)
        if (isParent(child)) stack.push(child)
      } else {
        changed = true
        for (const node of replacement) next.push(node)
      }
    }
    // Each plugin only substitutes content of the kind the parent holds (phrasing for phrasing,
    // flow for flow), which the mdast types cannot express for a generic walk.
    if (changed) (parent as { children: Array<RootContent> }).children = next
  }
}

/** Whether a subtree shows anything: non-blank text, an image, a table or a break-free block. */
export const isBlank = (node: Nodes): boolean => {
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "code":
      return node.value.trim() === ""
    case "break":
    case "html":
      return true
    case "image":
    case "imageReference":
    case "thematicBreak":
    case "table":
      return false
    default:
      return isParent(node) ? node.children.every(isBlank) : false
  }
}
