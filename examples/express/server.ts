/**
 * Starts the Express example on PORT (3000 by default: the example's own port, not the service's)
 * against the service at CV_BASE_URL (http://127.0.0.1:8080 by default):
 *
 *   CV_BASE_URL=http://127.0.0.1:8080 CV_API_KEY=cvk_… PORT=3000 npx tsx examples/express/server.ts
 */
import { otpApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
otpApp().listen(port, () => console.log(`sign-in example on http://127.0.0.1:${port}`));
