/**
 * Next.js (App Router) route handler: POST /api/otp/check {requestId, code} → {verified}. A
 * fragment to copy into a Next.js app (examples/nextjs/README.md): it needs the client, otp.ts,
 * and CV_BASE_URL and CV_API_KEY in the server's environment.
 */
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
