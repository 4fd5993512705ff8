import type { LocaleTexts } from './texts.js';

/**
 * Formal Korean (합니다체). The texts avoid a particle right after the product name or the code,
 * whose form (을/를, 은/는) would depend on their last sound.
 */
export const ko: LocaleTexts = {
  email: {
    subject: '{code} - {product} 인증번호',
    text: '{product} 인증번호: {code}',
    heading: '{product} 인증번호',
    requestedFor: '용도',
    expires: {
      other:
        '인증번호는 {minutes}분 후에 만료됩니다. 본인이 요청하지 않았다면 이 이메일은 무시하셔도 됩니다.',
    },
    help: '도움말',
    colon: ': ',
    linkButton: '이메일 주소 인증',
    linkIntro: '버튼을 클릭하거나 다음 인증번호를 입력하세요:',
    linkText: '또는 다음 링크를 열어 인증하세요: {link}',
  },
  linkPage: {
    title: '이메일 주소 확인',
    prompt: '{product}에서 사용할 {address} 주소를 인증하려면 확인을 누르세요.',
    button: '확인',
    verifiedTitle: '이메일 주소가 인증되었습니다',
    verifiedText: '이 페이지를 닫고 {product} 화면으로 돌아가세요.',
    goneTitle: '더 이상 사용할 수 없는 링크입니다',
    goneText: '링크가 만료되었거나 이미 사용되었습니다. 새 인증번호를 요청하세요.',
    notFoundTitle: '링크를 찾을 수 없습니다',
    notFoundText: '이메일에 있는 링크 전체를 열었는지 확인하세요.',
  },
  sms: '[{product}] 인증번호: {code}',
  whatsapp: '인증번호는 *{code}*입니다. 보안을 위해 이 번호를 다른 사람과 공유하지 마세요.',
  voice: ['{product} 인증번호는 {code}입니다.', '다시 한번 말씀드립니다. 인증번호는 {code}입니다.'],
  voiceCall: '음성 통화',
  voiceLanguage: 'ko-KR',
  whatsappCall: {
    permissionBody: '{product}에서 인증번호를 알려 드리기 위해 WhatsApp으로 전화를 드리려고 합니다.',
    espeakVoice: 'ko',
  },
};
