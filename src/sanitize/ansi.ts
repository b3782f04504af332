// ECMA-48 escape sequences (7-bit ESC forms and 8-bit C1 forms): where one starts, where it ends, what it hides.

export type EscapeKind = 'CSI' | 'OSC' | 'DCS' | 'SOS' | 'PM' | 'APC' | 'nF' | 'Fp' | 'Fe' | 'Fs' | 'ESC' | 'C1';

export interface EscapeSequence {
  /** Exclusive end (UTF-16 offset) of the whole sequence, terminator included. */
  readonly end: number;
  readonly kind: EscapeKind;
  /** Text a string sequence carries (OSC title, OSC-8 target, DCS data); the model would read it, a terminal never shows it. */
  readonly payload?: string;
  /** For OSC 8: the hyperlink target, which the terminal shows as different text. */
  readonly linkTarget?: string;
}

const ESC = 0x1b;
const BEL = 0x07;
const ST_C1 = 0x9c;
const BACKSLASH = 0x5c;

export function startsEscape(code: number): boolean {
  return code === ESC || (code >= 0x80 && code <= 0x9f);
}

/** The sequence starting at `i` (an ESC or a C1 control). Unterminated strings run to the end of the field, as in a terminal. */
export function scanEscape(text: string, i: number): EscapeSequence {
  const code = text.charCodeAt(i);
  if (code !== ESC) return scanC1(text, i, code);
  const next = text.charCodeAt(i + 1);
  if (Number.isNaN(next)) return { end: i + 1, kind: 'ESC' };
  switch (next) {
    case 0x5b: // [
      return csi(text, i + 2);
    case 0x5d: // ]
      return stringSequence(text, i + 2, 'OSC');
    case 0x50: // P
      return stringSequence(text, i + 2, 'DCS');
    case 0x58: // X
      return stringSequence(text, i + 2, 'SOS');
    case 0x5e: // ^
      return stringSequence(text, i + 2, 'PM');
    case 0x5f: // _
      return stringSequence(text, i + 2, 'APC');
    default:
      break;
  }
  if (next >= 0x20 && next <= 0x2f) {
    // nF: intermediates then one final byte.
    let j = i + 2;
    while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
    const final = text.charCodeAt(j);
    return { end: final >= 0x30 && final <= 0x7e ? j + 1 : j, kind: 'nF' };
  }
  if (next >= 0x30 && next <= 0x3f) return { end: i + 2, kind: 'Fp' };
  if (next >= 0x40 && next <= 0x5f) return { end: i + 2, kind: 'Fe' };
  if (next >= 0x60 && next <= 0x7e) return { end: i + 2, kind: 'Fs' };
  return { end: i + 1, kind: 'ESC' };
}

function scanC1(text: string, i: number, code: number): EscapeSequence {
  switch (code) {
    case 0x9b:
      return csi(text, i + 1);
    case 0x9d:
      return stringSequence(text, i + 1, 'OSC');
    case 0x90:
      return stringSequence(text, i + 1, 'DCS');
    case 0x98:
      return stringSequence(text, i + 1, 'SOS');
    case 0x9e:
      return stringSequence(text, i + 1, 'PM');
    case 0x9f:
      return stringSequence(text, i + 1, 'APC');
    default:
      return { end: i + 1, kind: 'C1' };
  }
}

/** Parameter bytes 0x30-0x3F, intermediates 0x20-0x2F, one final 0x40-0x7E. A malformed one ends where it broke. */
function csi(text: string, j: number): EscapeSequence {
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c >= 0x40 && c <= 0x7e) return { end: j + 1, kind: 'CSI' };
    if (c < 0x20 || c > 0x3f) break;
    j++;
  }
  return { end: j, kind: 'CSI' };
}

/** OSC/DCS/SOS/PM/APC: up to BEL, ST (ESC \) or 8-bit ST. */
function stringSequence(text: string, start: number, kind: EscapeKind): EscapeSequence {
  let j = start;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === BEL || c === ST_C1) return finish(text, start, j, j + 1, kind);
    if (c === ESC && text.charCodeAt(j + 1) === BACKSLASH) return finish(text, start, j, j + 2, kind);
    j++;
  }
  return finish(text, start, j, j, kind);
}

function finish(text: string, start: number, stop: number, end: number, kind: EscapeKind): EscapeSequence {
  const payload = text.slice(start, stop);
  if (kind === 'OSC' && payload.startsWith('8;')) {
    // OSC 8 ; params ; URI — an empty URI closes the link.
    const semi = payload.indexOf(';', 2);
    const target = semi >= 0 ? payload.slice(semi + 1) : '';
    return target ? { end, kind, payload, linkTarget: target } : { end, kind, payload };
  }
  return payload ? { end, kind, payload } : { end, kind };
}
