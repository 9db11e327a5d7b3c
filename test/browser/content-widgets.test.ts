// Widgets inside Markdown content: tab sets (switching, keyboard, groups kept in step and
// remembered across pages) and copy buttons; without scripts every tab panel shows.
import test from 'ava'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'
import { type ServedSite, serveSitesForFile } from '../helpers/docs-site.ts'

const sites = serveSitesForFile(test, closeBrowser)
const site: ServedSite = {
  url: (path) => sites()[0].url(path),
  get out() {
    return sites()[0].out
  },
}

test('tabs switch by click and keyboard, keep their group in step, and remember the choice', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/tabs/'))
  await hydrated(page)
  const visible = (text: string) => page.getByText(text).isVisible()
  t.true(await visible('Debian service file.'))
  t.false(await visible('Red Hat service file.'))
  await page.getByRole('tab', { name: 'Red Hat' }).first().click()
  t.true(await visible('Run dnf install keyward.'))
  t.true(await visible('Red Hat service file.'), 'the other set of the group follows')
  t.false(await visible('Debian service file.'))
  t.is(await page.evaluate(() => localStorage.getItem('docs-tabs-os')), 'rhel')
  await page.getByRole('tab', { name: 'Red Hat' }).first().focus()
  await page.keyboard.press('ArrowRight')
  t.is(await page.evaluate(() => document.activeElement?.textContent), 'Debian')
  t.true(await visible('Debian service file.'))
  await page.keyboard.press('End')
  t.true(await visible('Red Hat service file.'))
  // The remembered choice applies on pages reached by client navigation too.
  await page.getByRole('link', { name: 'the second page' }).click()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Second page')
  await page.goBack()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Tabs page')
  // The page's islands mount after its content shows (their code loads on demand): the tab
  // list applies the remembered choice once mounted.
  await page.getByRole('tab', { name: 'Red Hat', selected: true }).first().waitFor()
  t.true(await visible('Red Hat service file.'))
  t.false(await visible('Debian service file.'))
})

test('the copy button copies the code block', async (t) => {
  const { page, context } = await newPage(t)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(site.url('/docs/guide/tabs/'))
  await hydrated(page)
  const button = page.getByRole('button', { name: 'Copy code to clipboard' })
  await button.click()
  t.is(await button.textContent(), 'Copied')
  t.is(
    (await page.evaluate(() => navigator.clipboard.readText())).trim(),
    'keyward start --port 8080',
  )
})

test('without JavaScript every tab panel shows under its label, and no dead controls show', async (t) => {
  const { page } = await newPage(t, { javaScriptEnabled: false })
  await page.goto(site.url('/docs/guide/tabs/'))
  t.true(await page.getByText('Run apt install keyward.').isVisible())
  t.true(await page.getByText('Run dnf install keyward.').isVisible())
  t.true(await page.getByText('Red Hat service file.').isVisible())
  t.false(await page.locator('.tabs__list').first().isVisible())
  t.false(await page.getByRole('button', { name: 'Copy code to clipboard' }).isVisible())
  const label = await page
    .locator('.tabs__panel')
    .nth(1)
    .evaluate((panel) => getComputedStyle(panel, '::before').content)
  t.is(label, '"Red Hat"')
})
