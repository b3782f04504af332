// Header values of the stateless era: sent as is when visible ASCII, else as =?base64?...?=,
// decoded strictly (streamable-http.mdx 2026-07-28, "Request Metadata").
import { describe, expect, it } from 'vitest';
import { decodeHeaderValue } from '../../../src/transport/stateless-http.js';

describe('decodeHeaderValue', () => {
  it('takes visible ASCII as it is, and a value that only looks half like the form as a literal', () => {
    expect(decodeHeaderValue('fs__read_file')).toBe('fs__read_file');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
  });

  it('decodes the base64 form, UTF-8 included', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeHeaderValue(`=?base64?${Buffer.from('héllo wörld').toString('base64')}?=`)).toBe('héllo wörld');
  });

  it('refuses bad padding, bad characters, control characters and bytes that are not UTF-8', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    expect(decodeHeaderValue('a\u0001b')).toBeUndefined();
    expect(decodeHeaderValue('a\u007fb')).toBeUndefined();
    expect(decodeHeaderValue('caf\u00e9')).toBeUndefined();
    expect(decodeHeaderValue('a\tb ~')).toBe('a\tb ~');
    expect(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`)).toBeUndefined();
  });
});
