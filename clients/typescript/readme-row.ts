// The program around the TypeScript row of the main README's client table
// (test/clients.readme-snippets.test.ts): the row replaces the marked line below and must print
// "verified". The row sends and verifies in one line, so the code has to be known between its two
// calls: the client's injected fetch reads it from the outbox (test-mode key) as soon as the send
// is answered.
import { ContactVerify, type FetchLike, TestOutbox } from '@contact-verify/client';

const baseUrl = process.env.CV_BASE_URL ?? '';
const email = `readme-row-ts-${Date.now()}@example.com`;
const outbox = new TestOutbox({ baseUrl, adminToken: process.env.CV_ADMIN_TOKEN ?? '' });
// biome-ignore lint/correctness/noUnusedVariables: the README row reads it
let otpCode = '';
const readsTheCode: FetchLike = async (url, init) => {
  const res = await fetch(url, init);
  if (url.endsWith('/v1/contact/send-code') && res.ok) otpCode = await outbox.latestOutboxCode(email);
  return res;
};
// biome-ignore lint/correctness/noUnusedVariables: the README row calls it
const cv = new ContactVerify({ baseUrl, apiKey: process.env.CV_API_KEY ?? '', fetch: readsTheCode });

// README_ROW
console.log(r.status);
