import type { LocaleTexts } from './texts.js';

export const vi: LocaleTexts = {
  email: {
    subject: '{code} là mã xác minh {product} của bạn',
    text: 'Mã xác minh {product} của bạn là: {code}',
    heading: 'Mã xác minh {product}',
    requestedFor: 'Mục đích',
    expires: {
      other: 'Mã sẽ hết hạn sau {minutes} phút. Nếu bạn không yêu cầu mã này, hãy bỏ qua email này.',
    },
    help: 'Trợ giúp',
    colon: ': ',
    linkButton: 'Xác minh địa chỉ email',
    linkIntro: 'Nhấp vào nút hoặc nhập mã sau:',
    linkText: 'Hoặc mở liên kết này để xác minh: {link}',
  },
  linkPage: {
    title: 'Xác nhận địa chỉ email của bạn',
    prompt: 'Xác nhận rằng bạn muốn xác minh {address} cho {product}.',
    button: 'Xác nhận',
    verifiedTitle: 'Đã xác minh địa chỉ email',
    verifiedText: 'Bạn có thể đóng trang này và quay lại {product}.',
    goneTitle: 'Liên kết này không còn dùng được',
    goneText: 'Liên kết đã hết hạn hoặc đã được sử dụng. Hãy yêu cầu mã mới.',
    notFoundTitle: 'Không tìm thấy liên kết',
    notFoundText: 'Hãy kiểm tra xem bạn đã mở đầy đủ liên kết trong email chưa.',
  },
  sms: '{code} là mã xác minh {product} của bạn.',
  whatsapp: '*{code}* là mã xác minh của bạn. Vì lý do bảo mật, đừng chia sẻ mã này với bất kỳ ai.',
  voice: ['Mã xác minh {product} của bạn là {code}.', 'Xin nhắc lại, mã của bạn là {code}.'],
  voiceCall: 'Cuộc gọi thoại',
  voiceLanguage: 'vi-VN',
  whatsappCall: {
    permissionBody: '{product} muốn gọi cho bạn qua WhatsApp để đọc mã xác minh.',
    espeakVoice: 'vi',
  },
};
