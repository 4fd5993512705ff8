import type { LocaleTexts } from './texts.js';

export const bn: LocaleTexts = {
  email: {
    subject: '{code} আপনার {product} যাচাইকরণ কোড',
    text: 'আপনার {product} যাচাইকরণ কোড: {code}',
    heading: '{product} যাচাইকরণ কোড',
    requestedFor: 'উদ্দেশ্য',
    expires: {
      one: 'কোডটির মেয়াদ {minutes} মিনিটের মধ্যে শেষ হবে। আপনি এটির অনুরোধ না করে থাকলে এই ইমেলটি উপেক্ষা করুন।',
      other: 'কোডটির মেয়াদ {minutes} মিনিটের মধ্যে শেষ হবে। আপনি এটির অনুরোধ না করে থাকলে এই ইমেলটি উপেক্ষা করুন।',
    },
    help: 'সহায়তা',
    colon: ': ',
    linkButton: 'ইমেল ঠিকানা যাচাই করুন',
    linkIntro: 'বোতামে ক্লিক করুন অথবা এই কোডটি লিখুন:',
    linkText: 'অথবা যাচাই করতে এই লিংকটি খুলুন: {link}',
  },
  linkPage: {
    title: 'আপনার ইমেল ঠিকানা নিশ্চিত করুন',
    prompt: 'নিশ্চিত করুন যে আপনি {product}-এর জন্য {address} যাচাই করতে চান।',
    button: 'নিশ্চিত করুন',
    verifiedTitle: 'ইমেল ঠিকানা যাচাই করা হয়েছে',
    verifiedText: 'আপনি এই পেজটি বন্ধ করে {product}-এ ফিরে যেতে পারেন।',
    goneTitle: 'এই লিংকটি আর ব্যবহার করা যাবে না',
    goneText: 'এটির মেয়াদ শেষ হয়ে গেছে অথবা এটি আগেই ব্যবহার করা হয়েছে। নতুন কোডের অনুরোধ করুন।',
    notFoundTitle: 'লিংকটি পাওয়া যায়নি',
    notFoundText: 'ইমেল থেকে পুরো লিংকটি খুলেছেন কিনা দেখে নিন।',
  },
  sms: '{code} আপনার {product} যাচাইকরণ কোড।',
  whatsapp: '*{code}* আপনার যাচাইকরণ কোড। নিজের সুরক্ষার জন্য এই কোডটি কারও সাথে শেয়ার করবেন না।',
  voice: ['আপনার {product} যাচাইকরণ কোড হলো {code}।', 'আবারও বলছি, আপনার কোড হলো {code}।'],
  voiceCall: 'ভয়েস কল',
  voiceLanguage: 'bn-BD',
  whatsappCall: {
    permissionBody: '{product} আপনার যাচাইকরণ কোড পড়ে শোনাতে WhatsApp-এ আপনাকে কল করতে চায়।',
    espeakVoice: 'bn',
  },
};
