import type { LocaleTexts } from './texts.js';

export const hi: LocaleTexts = {
  email: {
    subject: '{code} आपका {product} सत्यापन कोड है',
    text: 'आपका {product} सत्यापन कोड है: {code}',
    heading: '{product} सत्यापन कोड',
    requestedFor: 'उद्देश्य',
    expires: {
      one: 'यह कोड {minutes} मिनट में समाप्त हो जाएगा। अगर आपने इसका अनुरोध नहीं किया है, तो इस ईमेल को अनदेखा करें।',
      other: 'यह कोड {minutes} मिनट में समाप्त हो जाएगा। अगर आपने इसका अनुरोध नहीं किया है, तो इस ईमेल को अनदेखा करें।',
    },
    help: 'सहायता',
    colon: ': ',
    linkButton: 'ईमेल पता सत्यापित करें',
    linkIntro: 'बटन पर क्लिक करें या यह कोड डालें:',
    linkText: 'या सत्यापित करने के लिए यह लिंक खोलें: {link}',
  },
  linkPage: {
    title: 'अपने ईमेल पते की पुष्टि करें',
    prompt: 'पुष्टि करें कि आप {product} के लिए {address} को सत्यापित करना चाहते हैं।',
    button: 'पुष्टि करें',
    verifiedTitle: 'ईमेल पता सत्यापित हो गया',
    verifiedText: 'अब आप यह पेज बंद करके {product} पर वापस जा सकते हैं।',
    goneTitle: 'यह लिंक अब इस्तेमाल नहीं किया जा सकता',
    goneText: 'इसकी समय-सीमा खत्म हो गई है या इसका इस्तेमाल पहले ही हो चुका है। नया कोड मँगाएँ।',
    notFoundTitle: 'लिंक नहीं मिला',
    notFoundText: 'जाँच लें कि आपने ईमेल का पूरा लिंक खोला है।',
  },
  sms: '{code} आपका {product} सत्यापन कोड है।',
  whatsapp: '*{code}* आपका सत्यापन कोड है। अपनी सुरक्षा के लिए यह कोड किसी के साथ साझा न करें।',
  voice: ['आपका {product} सत्यापन कोड है {code}।', 'फिर से, आपका कोड है {code}।'],
  voiceCall: 'वॉइस कॉल',
  voiceLanguage: 'hi-IN',
  whatsappCall: {
    permissionBody: '{product} आपका सत्यापन कोड पढ़कर सुनाने के लिए आपको WhatsApp पर कॉल करना चाहता है।',
    espeakVoice: 'hi',
  },
};
