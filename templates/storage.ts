// localStorage that never throws: with storage disabled a choice lasts for the page only.
export const storage = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key)
    } catch {
      return null
    }
  },
  set(key: string, value: string): void {
    try {
      localStorage.setItem(key, value)
    } catch {}
  },
  remove(key: string): void {
    try {
      localStorage.removeItem(key)
    } catch {}
  },
}
