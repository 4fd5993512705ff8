import { defineChannel } from './channel.js';

export const silent = defineChannel({
  name: 'SILENT',
  title: 'Silent network authentication',
  description:
    'silent network authentication of `phone` (SILENT_PROVIDER): the app opens `silent.url` on the device over mobile data, then verify-code asks the provider; no code to type',
  destination: 'phone',
  deliveryTypes: [],
  carrier: 'message',
  // The carrier proves the SIM over the data connection: nothing is sent a premium range could
  // bill, so no country window (a fallback code is counted in its own channel's window).
  countryWindow: false,
  routedByCountry: false,
  message: 'silent',
  proof: 'network',
});
