// remark plugin: `::video{src=… title=…}` embeds a YouTube or Vimeo player or an mp4 file,
// loaded lazily.
import type { ElementContent } from 'hast'
import type { Root, RootContent } from 'mdast'
import type { LeafDirective } from 'mdast-util-directive'
import type { VFile } from 'vfile'
import { reportError } from './messages.ts'
import { walk } from './walk.ts'

type Embed = { kind: 'iframe'; src: string } | { kind: 'video'; src: string }

export const videoEmbed = (src: string): Embed | undefined => {
  let url: URL
  try {
    url = new URL(src, 'https://invalid.local')
  } catch {
    return undefined
  }
  const host = url.hostname.replace(/^www\.|^m\./, '')
  const youtubeId =
    host === 'youtu.be'
      ? url.pathname.slice(1)
      : host === 'youtube.com' || host === 'youtube-nocookie.com'
        ? url.pathname === '/watch'
          ? url.searchParams.get('v')
          : url.pathname.match(/^\/(?:embed|shorts|live)\/([^/]+)/)?.[1]
        : undefined
  if (youtubeId && /^[\w-]{6,20}$/.test(youtubeId))
    return { kind: 'iframe', src: `https://www.youtube-nocookie.com/embed/${youtubeId}` }
  const vimeoId =
    host === 'vimeo.com' || host === 'player.vimeo.com'
      ? url.pathname.match(/(\d+)\/?$/)?.[1]
      : undefined
  if (vimeoId) return { kind: 'iframe', src: `https://player.vimeo.com/video/${vimeoId}` }
  if (/\.mp4$/i.test(url.pathname) && (url.protocol === 'https:' || src.startsWith('/')))
    return { kind: 'video', src }
  return undefined
}

const video = (node: LeafDirective, file: VFile): void => {
  const src = node.attributes?.src ?? ''
  const title = node.attributes?.title || 'Video'
  const embed = videoEmbed(src)
  if (!embed) {
    reportError(file, node, `video: "${src}" is not a YouTube, Vimeo or https .mp4 address`)
    return
  }
  const player: ElementContent =
    embed.kind === 'iframe'
      ? {
          type: 'element',
          tagName: 'iframe',
          properties: {
            src: embed.src,
            title,
            loading: 'lazy',
            allow:
              'accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen',
            referrerPolicy: 'strict-origin-when-cross-origin',
          },
          children: [],
        }
      : {
          type: 'element',
          tagName: 'video',
          properties: { src: embed.src, controls: true, preload: 'none', title },
          children: [],
        }
  node.children = []
  node.data = { hName: 'div', hProperties: { className: ['video'] }, hChildren: [player] }
}

export default function remarkVideo() {
  return (tree: Root, file: VFile) => {
    walk<RootContent>(tree, (node) => {
      if (node.type === 'leafDirective' && node.name === 'video') video(node, file)
    })
  }
}
