// Re-measures test/fixtures/tool-tokens.json with real tokenizers and prints the estimator's error.
// The tokenizers are not dependencies of the project; install them for one run:
//   npm install --no-save gpt-tokenizer@4.0.0 @anthropic-ai/tokenizer@0.0.4
//   node --import tsx scripts/calibrate-token-estimate.mjs [--write]
import fs from 'node:fs';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as claude } from '@anthropic-ai/tokenizer';
import { estimateToolTokens, modelText } from '../src/catalog/token-estimate.ts';

const file = new URL('../test/fixtures/tool-tokens.json', import.meta.url);
const fixture = JSON.parse(fs.readFileSync(file, 'utf8'));
for (const entry of fixture.tools) {
  const text = modelText(entry.tool);
  Object.assign(entry, { o200k: o200k(text).length, cl100k: cl100k(text).length, claude: claude(text) });
}
for (const key of ['o200k', 'cl100k', 'claude']) {
  let abs = 0;
  let worst = 0;
  let estimated = 0;
  let real = 0;
  for (const entry of fixture.tools) {
    const e = estimateToolTokens(entry.tool);
    const err = Math.abs(e - entry[key]) / entry[key];
    abs += err;
    worst = Math.max(worst, err);
    estimated += e;
    real += entry[key];
  }
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  console.log(`${key}: mean |error| ${pct(abs / fixture.tools.length)}, worst ${pct(worst)}, total ${pct(estimated / real - 1)}`);
}
if (process.argv.includes('--write')) fs.writeFileSync(file, JSON.stringify(fixture, null, 1) + '\n');
