// The QR code of an otpauth:// URI, drawn here rather than taken from the enrolment answer: the auth
// server hands the secret out once, and a person who mistypes their first code must see the same QR
// code again (the page posts the URI back). One SVG path instead of GoTrue's rectangle per module.
import QRCode from 'qrcode';

export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The base32 secret inside an otpauth URI, for people who type it instead of scanning. */
export function secretOf(uri: string): string {
  try {
    return new URL(uri).searchParams.get('secret') ?? '';
  } catch {
    return '';
  }
}
