// Keyward documentation site configuration; validated by cli/site-config.ts.
import { defineConfig } from 'keyward/docs'

const repository = 'https://code.keyward.example/keyward/keyward'

export default defineConfig({
  title: 'Keyward Docs',
  tagline: 'Run your own team password manager server for the passbolt clients.',
  url: 'https://keyward.example',
  baseUrl: '/docs/',
  favicon: '/docs/img/favicon.svg',
  repositoryUrl: repository,
  editPath: 'edit/main/content/docs/{path}',
  image: '/docs/img/social-card.png',
  logo: { src: '/docs/img/logo.svg', alt: 'Keyward logo' },
  navbar: {
    items: [
      { label: 'User guide', to: '/docs/user/' },
      { label: 'Admin guide', to: '/docs/admin/' },
      { label: 'Hosting guide', to: '/docs/hosting/' },
      { label: 'API guide', to: '/docs/api/' },
      { label: 'Contribute guide', to: '/docs/contribute/' },
      { label: 'Keyward', href: 'https://keyward.example/', position: 'right' },
      { label: 'Repository', href: repository, position: 'right' },
    ],
  },
  footer: {
    slogan: 'The open source team password manager server you host yourself.',
    columns: [
      {
        title: 'Legal',
        items: [
          { label: 'Licence (AGPL-3.0-or-later)', href: `${repository}/blob/main/LICENSE` },
          { label: 'Security policy', to: '/docs/contribute/security/' },
        ],
      },
      {
        title: 'Product',
        items: [
          { label: 'Install', to: '/docs/hosting/install/' },
          { label: 'API reference', to: '/docs/api/' },
        ],
      },
      {
        title: 'Company',
        items: [
          { label: 'Website', href: 'https://keyward.example/' },
          { label: 'Contribute', to: '/docs/contribute/' },
        ],
      },
      {
        title: 'Resources',
        items: [
          { label: 'User guide', to: '/docs/user/' },
          { label: 'Development guide', to: '/docs/development/' },
          { label: 'Source code', href: repository },
        ],
      },
    ],
    social: [
      { label: 'Keyward source code', href: repository, icon: '/docs/img/social/github.svg' },
    ],
    copyright: 'Copyright © 2025 Keyward contributors.',
  },
  colorMode: { defaultMode: 'dark', disableSwitch: false, respectPrefersColorScheme: false },
  scripts: [],
  versions: [{ name: 'current', label: 'Next', path: '' }],
  locales: {
    default: 'en',
    items: [
      { code: 'en', label: 'English' },
      {
        // Translated pages live in content/i18n/fr/docs/; the others are shown in English.
        code: 'fr',
        label: 'Français',
        title: 'Documentation Keyward',
        tagline:
          "Hébergez votre propre serveur de gestionnaire de mots de passe d'équipe pour les clients passbolt.",
        guides: {
          user: {
            label: "Guide de l'utilisateur",
            description: 'Utilisez Keyward au quotidien avec les clients officiels.',
          },
          admin: {
            label: "Guide de l'administrateur",
            description: 'Gérez les utilisateurs, les groupes, les règles et les e-mails.',
          },
          hosting: {
            label: "Guide d'hébergement",
            description: 'Installez, configurez, sauvegardez et mettez à jour un serveur.',
          },
          api: {
            label: "Guide de l'API",
            description: "L'API REST compatible avec passbolt, point d'accès par point d'accès.",
          },
          contribute: {
            label: 'Guide de contribution',
            description: 'Signalez des bogues, corrigez-les, traduisez.',
          },
          development: {
            label: 'Guide de développement',
            description: "Écrivez des scripts et des clients pour l'API.",
          },
        },
      },
    ],
  },
  sitemap: { ignorePatterns: ['/docs/components/**', '/docs/development/**'] },
  apiReference: {
    route: '/docs/api/',
    document: 'content/openapi.ts',
    // What the document is built from: the reference follows every change of a route.
    sources: ['api', 'plugins', 'package-lock.json'],
    sidebar: 'api',
  },
  guides: [
    {
      id: 'user',
      label: 'User guide',
      description: 'Use Keyward day to day with the official clients.',
    },
    {
      id: 'admin',
      label: 'Admin guide',
      description: 'Manage users, groups, policies and emails.',
    },
    {
      id: 'hosting',
      label: 'Hosting guide',
      description: 'Install, configure, back up and update a server.',
    },
    {
      id: 'api',
      label: 'API guide',
      description: 'The passbolt-compatible REST API, endpoint by endpoint.',
    },
    {
      id: 'contribute',
      label: 'Contribute guide',
      description: 'Report bugs, fix them, translate.',
    },
    {
      id: 'development',
      label: 'Development guide',
      description: 'Write scripts and clients against the API.',
    },
  ],
})
