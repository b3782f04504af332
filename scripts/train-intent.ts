// Trains the sanitizer's learned second opinion and writes src/sanitize/intent-model.json; what it
// is trained and calibrated on is scripts/intent-training.ts.
//
//   npm run train:intent [-- --check | --cross | --folds]
//
// --check: train, and fail if the result differs from the committed file.
// --cross: each corpus batch (one writer) left out of training in turn, the model alone judged on it.
// --folds: how the real tools the model is calibrated on score when the model never saw them (each
//   fold of real servers scored by a model trained without it), against the shipped thresholds.
import fs from 'node:fs';
import path from 'node:path';
import { intentFindings, modelFrom, type IntentModelFile } from '../src/sanitize/intent-model.js';
import { FOLD_MARGIN, scorerOf } from './intent-calibration.js';
import { BITS, EPOCHS, FOLDS, L2, REAL_WEIGHT, ROOT, SEED, calibrate, calibration, caseContext, corpus, digests, legitimateFields, realCatalog, samplesOf, train } from './intent-training.js';

const OUT = path.join(ROOT, 'src/sanitize/intent-model.json');
const modes = ['--check', '--cross', '--folds'].filter((m) => process.argv.includes(m));
if (modes.length > 1) {
  process.stderr.write(`train:intent: ${modes.join(' and ')} are separate runs\n`);
  process.exit(2);
}
if (process.argv.includes('--cross')) {
  // How the model reads a writer it never saw: each batch in turn left out of training (the
  // thresholds still set on legitimate text only), and the model alone judged on that batch.
  const lines = ['| left out | poisoned | withheld by the model | benign | withheld by the model |', '|---|---:|---:|---:|---:|'];
  const sum = { poisoned: 0, caught: 0, benign: 0, wrong: 0 };
  const CLASSES = ['p1', 'p2', 'p3', 'p4', 'd', 's'] as const;
  const byClass = new Map<string, { n: number; caught: number }>(CLASSES.map((k) => [k, { n: 0, caught: 0 }]));
  const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);
  for (const batch of new Set(corpus.map((x) => x.batch))) {
    const { samples, positives } = samplesOf(corpus.filter((x) => x.batch !== batch).map((x) => x.c));
    const { scale, packed } = train(samples, positives);
    const cal = calibrate(scale, packed);
    const model = modelFrom({ format: 2, bits: BITS, scale, threshold: cal.threshold, proseThreshold: cal.proseThreshold, parameterThreshold: cal.parameterThreshold, titleThreshold: cal.titleThreshold, claimGate: cal.claimGate, weights: packed, trained: {} });
    const row = { poisoned: 0, caught: 0, benign: 0, wrong: 0 };
    for (const { c } of corpus.filter((x) => x.batch === batch)) {
      const ctx = caseContext(c);
      const fired = intentFindings(c.tool, { server: ctx.server, own: ctx.own, index: ctx.index }, model).length > 0;
      if (c.class === 'benign') [row.benign, row.wrong] = [row.benign + 1, row.wrong + (fired ? 1 : 0)];
      else {
        [row.poisoned, row.caught] = [row.poisoned + 1, row.caught + (fired ? 1 : 0)];
        const k = byClass.get(c.class) ?? { n: 0, caught: 0 };
        byClass.set(c.class, { n: k.n + 1, caught: k.caught + (fired ? 1 : 0) });
      }
    }
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += row[k];
    lines.push(`| ${batch} | ${row.poisoned} | ${row.caught} (${pct(row.caught, row.poisoned)}) | ${row.benign} | ${row.wrong} (${pct(row.wrong, row.benign)}) |`);
  }
  lines.push(`| **all** | ${sum.poisoned} | ${sum.caught} (${pct(sum.caught, sum.poisoned)}) | ${sum.benign} | ${sum.wrong} (${pct(sum.wrong, sum.benign)}) |`);
  lines.push('', `| class | ${[...byClass.keys()].join(' | ')} |`, `|---|${[...byClass.keys()].map(() => '---:').join('|')}|`);
  lines.push(`| withheld | ${[...byClass.values()].map((v) => `${v.caught}/${v.n} (${pct(v.caught, v.n)})`).join(' | ')} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}

const { samples, positives, unresolved } = samplesOf(corpus.map((x) => x.c));
const { scale, packed } = train(samples, positives);
const { threshold, proseThreshold, parameterThreshold, titleThreshold, claimGate, claimSupport, highest, highestAt } = calibrate(scale, packed);

if (process.argv.includes('--folds')) {
  // The real fields, each scored by a model trained without its fold of servers, against the
  // thresholds the shipped calibration sets (on scores of fields the model was trained on).
  const folds = Array.from({ length: FOLDS }, (_, k) => {
    const fold = samplesOf(corpus.map((x) => x.c), k);
    const m = train(fold.samples, fold.positives);
    return scorerOf(BITS, m.scale, m.packed);
  });
  const bars = { data: threshold, prose: proseThreshold, pdesc: parameterThreshold, title: titleThreshold };
  const lines = ['| slot | real fields | shipped bar | highest out of fold | at | real fields at or above the bar | their servers |', '|---|---:|---:|---:|---|---:|---:|'];
  for (const slot of ['prose', 'pdesc', 'title', 'data'] as const) {
    const real = legitimateFields().filter((l) => l.slot === slot && l.fold !== undefined).map((l) => ({ at: l.at, score: folds[l.fold!]!(l.features) }));
    const top = real.reduce((a, b) => (b.score > a.score ? b : a), { at: '-', score: -Infinity });
    const over = real.filter((r) => r.score >= bars[slot]);
    lines.push(`| ${slot} | ${real.length} | ${bars[slot]} | ${top.score.toFixed(2)} | ${top.at} | ${over.length} | ${new Set(over.map((r) => r.at.split('/')[0])).size} |`);
  }
  const oof = calibrate(scale, packed, folds);
  lines.push('', `Set out of fold (margin ${FOLD_MARGIN}), the thresholds would be: data slots ${oof.threshold} (${oof.highestAt.data}), prose ${oof.proseThreshold} (${oof.highestAt.prose}), parameters ${oof.parameterThreshold} (${oof.highestAt.pdesc}), titles ${oof.titleThreshold}, claim gate ${oof.claimGate} (${oof.highestAt.claim}).`);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}

const file: IntentModelFile = {
  format: 2,
  bits: BITS,
  scale: Number(scale.toPrecision(8)),
  threshold,
  proseThreshold,
  parameterThreshold,
  titleThreshold,
  claimGate,
  weights: packed,
  trained: {
    by: 'scripts/train-intent.ts',
    seed: SEED,
    epochs: EPOCHS,
    l2: L2,
    realWeight: REAL_WEIGHT,
    fields: samples.length,
    poisonedFields: positives,
    casesWithoutAStringTarget: unresolved,
    calibrationRealTools: realCatalog.reduce((n, r) => n + r.tools.length, 0) + calibration.reduce((n, r) => n + r.tools.length, 0),
    highestDataScore: Number(highest.data.toFixed(4)),
    highestDataField: highestAt.data,
    highestProseScore: Number(highest.prose.toFixed(4)),
    highestProseField: highestAt.prose,
    highestParameterScore: Number(highest.pdesc.toFixed(4)),
    highestParameterField: highestAt.pdesc,
    highestTitleScore: Number(highest.title.toFixed(4)),
    highestTitleField: highestAt.title,
    claimingFields: claimSupport,
    highestClaimOffset: Number(highest.claim.toFixed(4)),
    highestClaimField: highestAt.claim,
    files: digests,
  },
};
const text = `${JSON.stringify(file, null, 1)}\n`;
if (process.argv.includes('--check')) {
  const committed = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  if (committed !== text) {
    process.stderr.write('train:intent: the committed src/sanitize/intent-model.json is not what this data trains; run npm run train:intent\n');
    process.exit(1);
  }
  process.stdout.write('train:intent: the committed model is what this data trains\n');
} else {
  fs.writeFileSync(OUT, text);
  process.stdout.write(`train:intent: ${samples.length} fields (${positives} poisoned, ${unresolved} cases without a string target), data slots ${threshold} (highest legitimate: ${highestAt.data}), prose ${proseThreshold} (highest legitimate: ${highestAt.prose}), parameters ${parameterThreshold} (${highestAt.pdesc}), titles ${titleThreshold} (${highestAt.title}), claim gate ${claimGate} (${claimSupport} fields; ${highestAt.claim}), ${Math.round(text.length / 1024)} KiB\n`);
}
