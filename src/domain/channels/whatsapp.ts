import { defineChannel } from './channel.js';

export const whatsapp = defineChannel({
  name: 'WHATSAPP',
  title: 'WhatsApp',
  description: 'a WhatsApp message with the code (deliveryType TEXT), to `phone`',
  destination: 'phone',
  deliveryTypes: ['TEXT', 'CALL'],
  // A WhatsApp call (the WhatsApp Cloud API's calling) is not wired yet; a phone call is VOICE.
  unavailable: {
    CALL: 'WhatsApp calls are not available yet; for a phone call that reads the code, use the VOICE channel',
  },
  carrier: 'message',
  countryWindow: true,
  routedByCountry: false,
  message: 'whatsapp',
});
