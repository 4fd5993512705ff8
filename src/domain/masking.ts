import { type Channel, destinationField } from './channels/registry.js';

/** `jane.doe@example.com` → `j*******@example.com`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}${'*'.repeat(Math.max(1, at - 1))}${email.slice(at)}`;
}

/** `+14155552671` → `+1******2671`. */
export function maskPhone(phone: string): string {
  if (phone.length <= 6) return '***';
  return `${phone.slice(0, 2)}${'*'.repeat(phone.length - 6)}${phone.slice(-4)}`;
}

export function maskDestination(channel: Channel, destination: string): string {
  return destinationField(channel) === 'email' ? maskEmail(destination) : maskPhone(destination);
}
