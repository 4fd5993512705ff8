import type { LocaleTexts } from './texts.js';

/** Polite Japanese (です・ます). The SMS opens with the sender's name in 【】, as Japanese code messages do. */
export const ja: LocaleTexts = {
  email: {
    subject: '{code} は {product} の認証コードです',
    text: '{product} の認証コード：{code}',
    heading: '{product} の認証コード',
    requestedFor: '用途',
    expires: {
      other:
        'このコードの有効期限は {minutes} 分です。お心当たりのない場合は、このメールを破棄してください。',
    },
    help: 'ヘルプ',
    colon: '：',
    linkButton: 'メールアドレスを確認する',
    linkIntro: 'ボタンをクリックするか、次のコードを入力してください：',
    linkText: 'または、次のリンクを開いて確認してください：{link}',
  },
  linkPage: {
    title: 'メールアドレスの確認',
    prompt: '{product} で使用する {address} を確認します。よろしければ、下のボタンを押してください。',
    button: '確認する',
    verifiedTitle: 'メールアドレスを確認しました',
    verifiedText: 'このページを閉じて、{product} に戻ってください。',
    goneTitle: 'このリンクは使用できません',
    goneText: '有効期限が切れているか、すでに使用されています。新しいコードをリクエストしてください。',
    notFoundTitle: 'リンクが見つかりません',
    notFoundText: 'メールに記載されたリンクが途中で切れていないか、ご確認ください。',
  },
  sms: '【{product}】認証コード：{code}',
  whatsapp: '*{code}* が認証コードです。セキュリティのため、このコードは誰にも教えないでください。',
  voice: ['{product} の認証コードは {code} です。', 'もう一度繰り返します。認証コードは {code} です。'],
  voiceCall: '音声通話',
  voiceLanguage: 'ja-JP',
  whatsappCall: {
    permissionBody: '{product} から WhatsApp でお電話し、認証コードをお伝えしてもよろしいですか？',
    espeakVoice: 'ja',
    espeakScript: [
      '{product} の にんしょう コードは {code} です。',
      'もう いちど くりかえします。にんしょう コードは {code} です。',
    ],
  },
};
