// Access to markdown-it's own rule functions, for plugins that wrap one of them.
import type { StateBlock, StateInline } from 'markdown-it'

export type BlockRule = (
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
) => boolean
export type InlineRule = (state: StateInline, silent: boolean) => boolean

/** markdown-it exports no rule functions; its ruler keeps them under this private name. */
export const ruleFn = <T>(ruler: unknown, name: string): T => {
  const rules = (ruler as { __rules__: { name: string; fn: T }[] }).__rules__
  const rule = rules.find((r) => r.name === name)
  if (!rule) throw new Error(`markdown-it has no "${name}" rule`)
  return rule.fn
}
