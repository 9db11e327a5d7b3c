// The data every page embeds for its islands (`#__keyward-data`, written by templates/Html.tsx).
import type { ClientData } from '../../model/site-model.ts'

let data: ClientData | undefined

export const DATA_ELEMENT_ID = '__keyward-data'

/** The site configuration, asset addresses and the first page's model. */
export const clientData = (): ClientData => {
  data ??= JSON.parse(document.getElementById(DATA_ELEMENT_ID)?.textContent ?? 'null')
  if (!data) throw new Error(`#${DATA_ELEMENT_ID} is missing from the page`)
  return data
}
