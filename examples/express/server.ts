/** Starts the Express example: CV_API_KEY=cvk_… npx tsx examples/express/server.ts */
import { otpApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
otpApp().listen(port, () => console.log(`sign-in example on http://127.0.0.1:${port}`));
