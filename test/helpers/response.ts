// Reads an HTTP response the way the API tests look at it: the body as text, and as JSON when
// it parses (an error page or an empty body leaves `json` undefined).
export const readResponse = async (response: Response) => {
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, json, text }
}
