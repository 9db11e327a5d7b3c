// Reports problems from transformers as vfile messages; `fatal` ones fail the build.
import type { Node } from 'unist'
import type { VFile } from 'vfile'

export const reportError = (file: VFile, node: Node | undefined, reason: string): void => {
  const message = file.message(reason, { place: node?.position, ruleId: 'error', source: 'docs' })
  message.fatal = true
}

export const reportWarning = (file: VFile, node: Node | undefined, reason: string): void => {
  file.message(reason, { place: node?.position, ruleId: 'warning', source: 'docs' })
}
