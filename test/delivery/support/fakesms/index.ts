import { defineProvider } from '../../../../src/delivery/providers/module.js';
import { FakesmsProvider } from './fakesms.provider.js';
import { fakesmsOptions, fakesmsSettings } from './fakesms.settings.js';

/**
 * A fourth SMS provider, built as a real one is (a folder with an index.ts), to show that adding
 * one is this folder and one line in a registry.
 */
export const fakesms = defineProvider({
  name: 'fakesms',
  title: 'FakeSMS',
  api: 'FakeSMS API, `POST /v1/sms`',
  channel: 'SMS',
  settings: fakesmsSettings,
  configured: (config) => fakesmsOptions(config) !== null,
  create(config, { webOtpDomain }) {
    const options = fakesmsOptions(config);
    return options ? new FakesmsProvider(options, webOtpDomain) : null;
  },
});
