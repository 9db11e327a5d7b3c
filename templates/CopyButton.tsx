// The copy button of a code block (an island): copies the block's code (without the lines a diff
// removes) and says so for 2 s.
import { useEffect, useRef, useState } from 'react'

export function CopyButton() {
  const [label, setLabel] = useState('Copy')
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (label === 'Copy') return
    const timer = setTimeout(() => setLabel('Copy'), 2000)
    return () => clearTimeout(timer)
  }, [label])
  const copy = async () => {
    const code = button.current?.closest('.code-block')?.querySelector('code')
    try {
      const lines = [...(code?.querySelectorAll('.line') ?? [])]
      const text = lines.length
        ? lines
            .filter((line) => !line.classList.contains('line--removed'))
            .map((line) => line.textContent)
            .join('\n')
        : (code?.textContent ?? '')
      await navigator.clipboard.writeText(text)
      setLabel('Copied')
    } catch {
      setLabel('Copy failed')
    }
  }
  return (
    <button
      ref={button}
      type="button"
      className="copy-button"
      aria-label="Copy code to clipboard"
      title="Copy"
      onClick={() => void copy()}
    >
      {label}
    </button>
  )
}
