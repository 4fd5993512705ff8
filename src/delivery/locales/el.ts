import type { LocaleTexts } from './texts.js';

/** Formal plural (σας), with the enclitic's second accent (επαλήθευσής σας). */
export const el: LocaleTexts = {
  email: {
    subject: '{code} είναι ο κωδικός επαλήθευσής σας για {product}',
    text: 'Ο κωδικός επαλήθευσής σας για {product} είναι: {code}',
    heading: 'Κωδικός επαλήθευσης για {product}',
    requestedFor: 'Σκοπός',
    expires: {
      one: 'Ο κωδικός λήγει σε {minutes} λεπτό. Αν δεν τον ζητήσατε, αγνοήστε αυτό το μήνυμα.',
      other: 'Ο κωδικός λήγει σε {minutes} λεπτά. Αν δεν τον ζητήσατε, αγνοήστε αυτό το μήνυμα.',
    },
    help: 'Βοήθεια',
    colon: ': ',
    linkButton: 'Επαλήθευση διεύθυνσης email',
    linkIntro: 'Πατήστε το κουμπί ή πληκτρολογήστε αυτόν τον κωδικό:',
    linkText: 'Ή ανοίξτε αυτόν τον σύνδεσμο για επαλήθευση: {link}',
  },
  linkPage: {
    title: 'Επιβεβαιώστε τη διεύθυνση email σας',
    prompt: 'Επιβεβαιώστε ότι θέλετε να επαληθεύσετε τη διεύθυνση {address} για {product}.',
    button: 'Επιβεβαίωση',
    verifiedTitle: 'Η διεύθυνση email επαληθεύτηκε',
    verifiedText: 'Μπορείτε να κλείσετε αυτή τη σελίδα και να επιστρέψετε στο {product}.',
    goneTitle: 'Αυτός ο σύνδεσμος δεν ισχύει πλέον',
    goneText: 'Έχει λήξει ή έχει ήδη χρησιμοποιηθεί. Ζητήστε νέο κωδικό.',
    notFoundTitle: 'Ο σύνδεσμος δεν βρέθηκε',
    notFoundText: 'Ελέγξτε ότι ανοίξατε ολόκληρο τον σύνδεσμο από το email σας.',
  },
  sms: '{code} είναι ο κωδικός σας για {product}.',
  whatsapp: '*{code}* είναι ο κωδικός επαλήθευσής σας. Για την ασφάλειά σας, μην τον κοινοποιήσετε.',
  voice: [
    'Ο κωδικός επαλήθευσής σας για {product} είναι {code}.',
    'Επαναλαμβάνω, ο κωδικός σας είναι {code}.',
  ],
  voiceCall: 'Φωνητική κλήση',
  voiceLanguage: 'el-GR',
  whatsappCall: {
    permissionBody:
      '{product}: θα θέλαμε να σας καλέσουμε στο WhatsApp για να σας διαβάσουμε τον κωδικό επαλήθευσης.',
    espeakVoice: 'el',
  },
};
