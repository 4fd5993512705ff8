/**
 * An Express app with the two routes a sign-in form needs. The API key stays on the server; the
 * browser only ever sees the requestId. The client (../otp.ts) reads CV_BASE_URL and CV_API_KEY;
 * server.ts listens on PORT.
 *
 *   POST /otp/start {email}           → {requestId}
 *   POST /otp/check {requestId, code} → {verified}
 */
import express from 'express';
import { userFacing, verify } from '../otp.js';

export function otpApp(): express.Express {
  const app = express();
  app.use(express.json());

  app.post('/otp/start', async (req, res) => {
    try {
      const sent = await verify.sendCode({ channel: 'EMAIL', email: String(req.body?.email ?? '') });
      res.json({ requestId: sent.requestId, to: sent.to });
    } catch (err) {
      const { status, message } = userFacing(err);
      res.status(status).json({ message });
    }
  });

  app.post('/otp/check', async (req, res) => {
    try {
      const result = await verify.verifyCode({
        requestId: String(req.body?.requestId ?? ''),
        otpCode: String(req.body?.code ?? ''),
      });
      // Here your app would start the user's session when result.verified is true.
      res.json({ verified: result.verified, attemptsRemaining: result.attemptsRemaining });
    } catch (err) {
      const { status, message } = userFacing(err);
      res.status(status).json({ message });
    }
  });
  return app;
}
