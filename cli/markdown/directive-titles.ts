// Rewrites Docusaurus-style container titles (`:::tip My title`) to directive labels
// (`:::tip[My title]`) before parsing; fenced code is left alone. Keeps line numbers.

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/
const TITLED_CONTAINER = /^(\s*:{3,}[A-Za-z][\w-]*)[ \t]+([^[{\s].*?)\s*$/

export const normalizeDirectiveTitles = (markdown: string): string => {
  const lines = markdown.split('\n')
  let fence: string | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const open = FENCE_OPEN.exec(line)
    if (fence) {
      if (
        open &&
        open[1][0] === fence[0] &&
        open[1].length >= fence.length &&
        line.trim() === open[1]
      )
        fence = undefined
      continue
    }
    if (open) {
      fence = open[1]
      continue
    }
    const titled = TITLED_CONTAINER.exec(line)
    if (titled) lines[i] = `${titled[1]}[${titled[2].replaceAll(/[[\]]/g, '\\$&')}]`
  }
  return lines.join('\n')
}
