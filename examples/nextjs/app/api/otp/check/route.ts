/** Next.js (App Router) route handler: POST /api/otp/check {requestId, code} → {verified}. */
import { userFacing, verify } from '../../../../../otp.js';

export async function POST(request: Request): Promise<Response> {
  const body = (await request.json().catch(() => ({}))) as { requestId?: string; code?: string };
  try {
    const result = await verify.verifyCode({
      requestId: String(body.requestId ?? ''),
      otpCode: String(body.code ?? ''),
    });
    return Response.json({ verified: result.verified, attemptsRemaining: result.attemptsRemaining });
  } catch (err) {
    const { status, message } = userFacing(err);
    return Response.json({ message }, { status });
  }
}
