import { defineChannel } from './channel.js';

export const voice = defineChannel({
  name: 'VOICE',
  title: 'Voice call',
  description: 'a phone call to `phone` that reads the code, digit by digit, twice',
  destination: 'phone',
  deliveryTypes: [],
  carrier: 'call',
  // Voice pumping is the same fraud as SMS pumping: calls to premium ranges paid per minute.
  countryWindow: true,
  routedByCountry: true,
  message: 'voice',
});
