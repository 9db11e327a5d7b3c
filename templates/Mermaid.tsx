// A mermaid diagram (an island): the server renders its source; in the browser mermaid (loaded
// on first use, its own chunks) draws it as SVG, and draws it again when the colour mode changes.
import { useEffect, useId, useState } from 'react'

export interface MermaidProps {
  code: string
}

const themeOf = () => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'default')

export function Mermaid({ code }: MermaidProps) {
  const [svg, setSvg] = useState<string>()
  const [failed, setFailed] = useState(false)
  const id = `mermaid-${useId().replace(/[^\w-]/g, '')}`
  useEffect(() => {
    let live = true
    let drawn = 0
    const draw = async () => {
      const ticket = ++drawn
      try {
        const { default: mermaid } = await import('mermaid')
        // strict: the diagram's labels are text, never HTML or scripts.
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: themeOf() })
        const result = await mermaid.render(`${id}-${ticket}`, code)
        if (live && ticket === drawn) setSvg(result.svg)
      } catch (error) {
        console.error('The mermaid diagram could not be drawn; its source is shown.', error)
        if (live) setFailed(true)
      }
    }
    void draw()
    const observer = new MutationObserver(() => void draw())
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme'],
    })
    return () => {
      live = false
      observer.disconnect()
    }
  }, [code, id])
  if (svg && !failed)
    return <div className="mermaid mermaid--drawn" dangerouslySetInnerHTML={{ __html: svg }} />
  return (
    <div className="mermaid">
      <pre className="mermaid__source">{code}</pre>
    </div>
  )
}
