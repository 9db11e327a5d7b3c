// The version the server announces to clients (`/settings.json`, healthcheck) and writes into
// its backups: passbolt's API version that Keyward implements.
export const KEYWARD_VERSION = { number: '5.0.0', name: 'Keyward' }
