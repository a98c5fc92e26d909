import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totp } from './totp.ts';

// RFC 6238 appendix B: the seeds are ASCII digits, 20/32/64 bytes for SHA-1/SHA-256/SHA-512.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
} as const;

const RFC6238_VECTORS: Array<[number, string, string, string]> = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(RFC6238_VECTORS)('matches the test vectors at %i s', (seconds, sha1, sha256, sha512) => {
    const at = seconds * 1000;
    expect(totp(SEEDS.sha1, at, { digits: 8, algorithm: 'sha1' })).toBe(sha1);
    expect(totp(SEEDS.sha256, at, { digits: 8, algorithm: 'sha256' })).toBe(sha256);
    expect(totp(SEEDS.sha512, at, { digits: 8, algorithm: 'sha512' })).toBe(sha512);
  });

  it('matches the HOTP test vectors of RFC 4226 appendix D', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(SEEDS.sha1, counter))).toEqual(expected);
  });

  it("accepts the current step and one step either side, as GoTrue's skew of 1 does, and says which", () => {
    const at = 1111111111 * 1000;
    const step = Math.floor(1111111111 / 30);
    const codeAt = (offsetSteps: number) => totp(SEEDS.sha1, at + offsetSteps * 30_000);
    expect(matchTotp(SEEDS.sha1, codeAt(0), at)).toBe(step);
    expect(matchTotp(SEEDS.sha1, codeAt(-1), at)).toBe(step - 1);
    expect(matchTotp(SEEDS.sha1, codeAt(1), at)).toBe(step + 1);
    expect(matchTotp(SEEDS.sha1, codeAt(-2), at)).toBeNull();
    expect(matchTotp(SEEDS.sha1, codeAt(2), at)).toBeNull();
  });

  it('refuses codes of the wrong length or with other characters', () => {
    const at = 59_000;
    const code = totp(SEEDS.sha1, at);
    expect(code).toMatch(/^\d{6}$/);
    expect(matchTotp(SEEDS.sha1, `0${code}`, at)).toBeNull();
    expect(matchTotp(SEEDS.sha1, code.slice(1), at)).toBeNull();
    expect(matchTotp(SEEDS.sha1, ` ${code.slice(1)}`, at)).toBeNull();
  });
});

describe('base32 (RFC 4648 section 10, without padding)', () => {
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ];

  it.each(vectors)('encodes %j as %j and back', (plain, encoded) => {
    expect(base32Encode(Buffer.from(plain))).toBe(encoded);
    expect(base32Decode(encoded)?.toString()).toBe(plain);
  });

  it('reads padded, lower-case and spaced input as authenticator apps show it, and refuses other letters', () => {
    expect(base32Decode('mzxw 6ytb oi======')?.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeNull();
  });

  it('makes 160-bit secrets: 32 base32 characters', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
  });
});

describe('otpauth URI', () => {
  it('is written as pquerna/otp writes it for GoTrue: label issuer:account, sorted query, %20 for spaces', () => {
    expect(otpauthUri('localhost:3000', 'ada@example.test', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/localhost:3000:ada@example.test?algorithm=SHA1&digits=6&issuer=localhost:3000&period=30&secret=JBSWY3DPEHPK3PXP',
    );
    expect(otpauthUri('Crew board', 'a+b@example.test', 'ABC')).toBe(
      'otpauth://totp/Crew%20board:a+b@example.test?algorithm=SHA1&digits=6&issuer=Crew%20board&period=30&secret=ABC',
    );
  });
});
