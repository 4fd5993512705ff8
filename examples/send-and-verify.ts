/**
 * A plain Node.js script: send a code by email, read it back from the outbox (development), get
 * one wrong, then verify it. Run against a started service at CV_BASE_URL (http://127.0.0.1:8080
 * by default, the service's own default PORT):
 *
 *   CV_BASE_URL=http://127.0.0.1:8080 CV_API_KEY=cvk_… CV_ADMIN_TOKEN=… \
 *     npx tsx examples/send-and-verify.ts jane@example.com
 */
import { ContactVerifyError } from '../clients/typescript/src/index.js';
import { codeFromOutbox, userFacing, verify } from './otp.js';

const email = process.argv[2] ?? 'jane@example.com';

const sent = await verify.sendCode({ channel: 'EMAIL', email, purpose: 'sign-in' });
console.log(`sent to ${sent.to}, expires ${sent.expiresAt}`);

const wrong = await verify.verifyCode({ requestId: sent.requestId, otpCode: '000000' });
console.log(`a wrong code: verified=${wrong.verified}, ${wrong.attemptsRemaining} attempts left`);

const code = await codeFromOutbox(email);
const result = await verify.verifyCode({ requestId: sent.requestId, otpCode: code });
console.log(`the right code: verified=${result.verified} on ${result.channel}`);

// A second send inside the resend cooldown is refused: tell the user when to try again.
try {
  await verify.sendCode({ channel: 'EMAIL', email }, { maxRetries: 0 });
} catch (err) {
  if (!(err instanceof ContactVerifyError) || err.code !== 'RATE_LIMITED') throw err;
  console.log(`a resend right away: ${userFacing(err).message}`);
}
