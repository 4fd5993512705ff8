import { defineChannel } from './channel.js';

export const email = defineChannel({
  name: 'EMAIL',
  title: 'Email',
  description: 'an email with the code, to `email`',
  destination: 'email',
  deliveryTypes: [],
  carrier: 'message',
  countryWindow: false,
  routedByCountry: false,
  message: 'email',
  linkable: true,
});
