import { defineChannel } from './channel.js';

export const sms = defineChannel({
  name: 'SMS',
  title: 'SMS',
  description: 'a text message with the code, to `phone`',
  destination: 'phone',
  deliveryTypes: [],
  carrier: 'message',
  countryWindow: true,
  routedByCountry: true,
  message: 'sms',
});
