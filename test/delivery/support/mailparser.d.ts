// mailparser ships no types; this is the part of simpleParser the tests read.
declare module 'mailparser' {
  export interface AddressObject {
    text: string;
    value: Array<{ address?: string; name: string }>;
  }
  export interface ParsedMail {
    subject?: string;
    text?: string;
    html: string | false;
    from?: AddressObject;
    to?: AddressObject | AddressObject[];
    headers: Map<string, unknown>;
  }
  export function simpleParser(source: NodeJS.ReadableStream | Buffer | string): Promise<ParsedMail>;
}
