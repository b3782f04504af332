// Trains the sanitizer's learned second opinion and writes src/sanitize/intent-model.json; what it
// is trained and calibrated on is scripts/intent-training.ts.
//
//   npm run train:intent [-- --check | --cross | --folds]
//
// --check: train, and fail if the result differs from the committed file.
// --cross: each corpus batch (one writer) left out of training in turn, the model alone judged on it.
// --folds [--leave-out t22,t28]: how the real tools the model is calibrated on score when the model
//   never saw them (each fold of real servers scored by a model trained without it), against the
//   shipped thresholds; with batches left out of training, the model alone judged on them both ways.
import fs from 'node:fs';
import path from 'node:path';
import { intentFindings, modelFrom, type IntentModel, type IntentModelFile } from '../src/sanitize/intent-model.js';
import { FOLD_MARGIN, scorerOf, type Calibrated } from './intent-calibration.js';
import { BITS, EPOCHS, FOLDS, L2, REAL_WEIGHT, ROOT, SEED, calibrate, calibration, caseContext, corpus, digests, legitimateFields, realCatalog, samplesOf, train, type Case } from './intent-training.js';

const OUT = path.join(ROOT, 'src/sanitize/intent-model.json');
const modes = ['--check', '--cross', '--folds'].filter((m) => process.argv.includes(m));
if (modes.length > 1) {
  process.stderr.write(`train:intent: ${modes.join(' and ')} are separate runs\n`);
  process.exit(2);
}
if (process.argv.includes('--leave-out') && !process.argv.includes('--folds')) {
  process.stderr.write('train:intent: --leave-out goes with --folds\n');
  process.exit(2);
}
const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);
const modelOf = (scale: number, packed: string, cal: Calibrated): IntentModel =>
  modelFrom({ format: 2, bits: BITS, scale, threshold: cal.threshold, proseThreshold: cal.proseThreshold, parameterThreshold: cal.parameterThreshold, titleThreshold: cal.titleThreshold, claimGate: cal.claimGate, weights: packed, trained: {} });

/** The model alone on some cases, as bench:poison sets them: per class, how many it withholds ('benign': how many it wrongly withholds). */
function judgedByModel(cases: readonly Case[], model: IntentModel): Map<string, { n: number; caught: number }> {
  const by = new Map<string, { n: number; caught: number }>();
  for (const c of cases) {
    const ctx = caseContext(c);
    const fired = intentFindings(c.tool, { server: ctx.server, own: ctx.own, index: ctx.index }, model).length > 0;
    const k = by.get(c.class) ?? { n: 0, caught: 0 };
    by.set(c.class, { n: k.n + 1, caught: k.caught + (fired ? 1 : 0) });
  }
  return by;
}

if (process.argv.includes('--folds')) {
  // The real fields, each scored by a model trained without its fold of servers, against the
  // thresholds the shipped calibration sets (on scores of fields the model was trained on).
  // `--leave-out t22,t28`: those batches are left out of every training, and the model alone is
  // judged on them with either kind of threshold.
  const at = process.argv.indexOf('--leave-out');
  const leaveOut = new Set(at > 0 ? (process.argv[at + 1] ?? '').split(',').filter((b) => b !== '') : []);
  const batches = new Set(corpus.map((x) => x.batch));
  const unknown = [...leaveOut].filter((b) => !batches.has(b));
  if ((at > 0 && leaveOut.size === 0) || unknown.length > 0) {
    process.stderr.write(`train:intent: --leave-out takes batches of the corpus (t22,t28,...)${unknown.length > 0 ? `; not one: ${unknown.join(', ')}` : ''}\n`);
    process.exit(2);
  }
  const kept = corpus.filter((x) => !leaveOut.has(x.batch)).map((x) => x.c);
  const trained = samplesOf(kept);
  const { scale, packed } = train(trained.samples, trained.positives);
  const folds = Array.from({ length: FOLDS }, (_, k) => {
    const fold = samplesOf(kept, k);
    const m = train(fold.samples, fold.positives);
    return scorerOf(BITS, m.scale, m.packed);
  });
  const shipped = calibrate(scale, packed);
  const oof = calibrate(scale, packed, folds);
  const bars = { data: shipped.threshold, prose: shipped.proseThreshold, pdesc: shipped.parameterThreshold, title: shipped.titleThreshold };
  const lines = ['| slot | real fields | bar | highest out of fold | at | real fields at or above their bar (the claim gate\'s for a claim) | their servers |', '|---|---:|---:|---:|---|---:|---:|'];
  const overAll: string[] = [];
  for (const slot of ['prose', 'pdesc', 'title', 'data'] as const) {
    // A field that claims something over the user meets the lower bar the claim gate sets, as at run time.
    const real = legitimateFields().filter((l) => l.slot === slot && l.fold !== undefined).map((l) => ({ at: l.at, score: folds[l.fold!]!(l.features), bar: l.claim && slot !== 'data' ? bars[slot] + shipped.claimGate : bars[slot] }));
    const top = real.reduce((a, b) => (b.score > a.score ? b : a), { at: '-', score: -Infinity, bar: 0 });
    const over = real.filter((r) => r.score >= r.bar);
    for (const r of over) overAll.push(`- ${r.at}: ${r.score.toFixed(2)} >= ${r.bar.toFixed(2)}`);
    lines.push(`| ${slot} | ${real.length} | ${bars[slot]} | ${top.score.toFixed(2)} | ${top.at} | ${over.length} | ${new Set(over.map((r) => r.at.split('/')[0])).size} |`);
  }
  if (overAll.length > 0) lines.push('', 'Real fields scored out of fold at or above their bar:', ...overAll);
  lines.push('', `Set out of fold (margin ${FOLD_MARGIN}), the thresholds would be: data slots ${oof.threshold} (${oof.highestAt.data}), prose ${oof.proseThreshold} (${oof.highestAt.prose}), parameters ${oof.parameterThreshold} (${oof.highestAt.pdesc}), titles ${oof.titleThreshold}, claim gate ${oof.claimGate} (${oof.highestAt.claim}).`);
  if (leaveOut.size > 0) {
    const left = corpus.filter((x) => leaveOut.has(x.batch)).map((x) => x.c);
    for (const [name, cal] of [['as shipped', shipped], ['out of fold', oof]] as const) {
      const by = judgedByModel(left, modelOf(scale, packed, cal));
      const poison = [...by].filter(([k]) => k !== 'benign').reduce((a, [, v]) => ({ n: a.n + v.n, caught: a.caught + v.caught }), { n: 0, caught: 0 });
      lines.push(`Left out (${[...leaveOut].join(', ')}), bars ${name}: poisoned withheld ${poison.caught}/${poison.n} (${pct(poison.caught, poison.n)}); ${[...by].map(([k, v]) => `${k} ${v.caught}/${v.n}`).join(', ')}.`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}

if (process.argv.includes('--cross')) {
  // How the model reads a writer it never saw: each batch in turn left out of training (the
  // thresholds still set on legitimate text only), and the model alone judged on that batch.
  const lines = ['| left out | poisoned | withheld by the model | benign | withheld by the model |', '|---|---:|---:|---:|---:|'];
  const sum = { poisoned: 0, caught: 0, benign: 0, wrong: 0 };
  const byClass = new Map<string, { n: number; caught: number }>(['p1', 'p2', 'p3', 'p4', 'd', 's'].map((k) => [k, { n: 0, caught: 0 }]));
  for (const batch of new Set(corpus.map((x) => x.batch))) {
    const { samples, positives } = samplesOf(corpus.filter((x) => x.batch !== batch).map((x) => x.c));
    const { scale, packed } = train(samples, positives);
    const by = judgedByModel(corpus.filter((x) => x.batch === batch).map((x) => x.c), modelOf(scale, packed, calibrate(scale, packed)));
    const row = { poisoned: 0, caught: 0, benign: by.get('benign')?.n ?? 0, wrong: by.get('benign')?.caught ?? 0 };
    for (const [cls, v] of by) {
      if (cls === 'benign') continue;
      [row.poisoned, row.caught] = [row.poisoned + v.n, row.caught + v.caught];
      const k = byClass.get(cls) ?? { n: 0, caught: 0 };
      byClass.set(cls, { n: k.n + v.n, caught: k.caught + v.caught });
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
