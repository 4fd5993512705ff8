/**
 * Next.js (App Router) route handler: POST /api/otp/start {email} → {requestId}. A fragment to
 * copy into a Next.js app (examples/nextjs/README.md): it needs the client, otp.ts, and CV_BASE_URL
 * and CV_API_KEY in the server's environment.
 */
import { userFacing, verify } from '../../../../../otp.js';

export async function POST(request: Request): Promise<Response> {
  const { email } = (await request.json().catch(() => ({}))) as { email?: string };
  try {
    const sent = await verify.sendCode({ channel: 'EMAIL', email: String(email ?? '') });
    return Response.json({ requestId: sent.requestId, to: sent.to });
  } catch (err) {
    const { status, message } = userFacing(err);
    return Response.json({ message }, { status });
  }
}
