import type { LocaleTexts } from './texts.js';

/**
 * Formal plural (σας), with the enclitic's second accent (επαλήθευσής σας). The product name
 * follows a noun ("κωδικός επαλήθευσης {product}", "την υπηρεσία {product}"): after a bare
 * preposition Greek would need its article, whose gender depends on the name.
 */
export const el: LocaleTexts = {
  email: {
    subject: '{code} είναι ο κωδικός επαλήθευσης {product}',
    text: 'Ο κωδικός επαλήθευσης {product} είναι: {code}',
    heading: 'Κωδικός επαλήθευσης {product}',
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
    prompt: 'Επιβεβαιώστε ότι θέλετε να επαληθεύσετε τη διεύθυνση {address} για την υπηρεσία {product}.',
    button: 'Επιβεβαίωση',
    verifiedTitle: 'Η διεύθυνση email επαληθεύτηκε',
    verifiedText: 'Μπορείτε να κλείσετε αυτή τη σελίδα και να επιστρέψετε στην υπηρεσία {product}.',
    goneTitle: 'Αυτός ο σύνδεσμος δεν ισχύει πλέον',
    goneText: 'Έχει λήξει ή έχει ήδη χρησιμοποιηθεί. Ζητήστε νέο κωδικό.',
    notFoundTitle: 'Ο σύνδεσμος δεν βρέθηκε',
    notFoundText: 'Βεβαιωθείτε ότι ανοίξατε ολόκληρο τον σύνδεσμο από το email σας.',
  },
  sms: '{code} είναι ο κωδικός επαλήθευσης {product}.',
  whatsapp: '*{code}* είναι ο κωδικός επαλήθευσής σας. Για την ασφάλειά σας, μην τον κοινοποιήσετε.',
  voice: ['Ο κωδικός επαλήθευσης {product} είναι {code}.', 'Επαναλαμβάνω, ο κωδικός σας είναι {code}.'],
  voiceCall: 'Φωνητική κλήση',
  voiceLanguage: 'el-GR',
  whatsappCall: {
    permissionBody:
      '{product}: θα θέλαμε να σας καλέσουμε στο WhatsApp για να σας διαβάσουμε τον κωδικό επαλήθευσης.',
    espeakVoice: 'el',
  },
};
