/**
 * The part of turndown-plugin-gfm 1.0's API the parser benchmark uses; the package ships no types.
 */
declare module "turndown-plugin-gfm" {
  import type TurndownService from "turndown"

  /** Tables, strikethrough, task lists and highlighted code blocks. */
  export const gfm: TurndownService.Plugin
}
