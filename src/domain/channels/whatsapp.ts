import { defineChannel } from './channel.js';

export const whatsapp = defineChannel({
  name: 'WHATSAPP',
  title: 'WhatsApp',
  description:
    'a WhatsApp message with the code (deliveryType TEXT), or a WhatsApp call that speaks it (deliveryType CALL, after the user grants call permission), to `phone`',
  destination: 'phone',
  deliveryTypes: ['TEXT', 'CALL'],
  carrier: 'message',
  countryWindow: true,
  routedByCountry: false,
  message: 'whatsapp',
});
