// Nouns people use for what tool descriptions call otherwise: a request says "file a ticket", the
// tool says "create_issue". Groups of general software vocabulary, written from how APIs and
// people name things, not from any evaluation set; verbs are left to actions.ts.
import { stem } from './words.js';

/** Each line is one group of words that stand for each other in a request. */
const GROUPS = `
issue ticket bug task todo incident problem
repository repo project codebase
pull_request pr merge_request mr
commit revision changeset
folder directory dir
database db
email mail inbox
picture image photo pic screenshot snapshot
video clip movie recording
website site page webpage homepage url link
spreadsheet sheet excel workbook
presentation slide deck
chat conversation thread channel room
user member person people account profile colleague employee teammate
team group org organization workspace company
customer client buyer subscriber
payment charge invoice bill billing refund transaction
price cost pricing
weather forecast temperature
map location place address route coordinates latitude longitude
error exception crash failure fault
log logs trace
deploy deployment release rollout
container docker pod
cluster kubernetes k8s
server host machine instance vm
secret credential password token
permission access role grant privilege
comment note remark annotation feedback
label tag category topic
status state health progress
sprint cycle iteration
doc document documentation docs page wiki
row record entry item
column field property attribute
table collection
favorite star bookmark
subscribe follow watch
audit history changelog
quota limit usage balance credit
transcript captions subtitles
`;

const groupsByStem = new Map<string, string[][]>();
for (const line of GROUPS.split('\n')) {
  const group = [...new Set(line.split(/\s+/).filter((w) => w !== '').flatMap((w) => w.split('_')).map(stem))];
  if (group.length < 2) continue;
  for (const member of group) {
    let groups = groupsByStem.get(member);
    if (groups === undefined) groupsByStem.set(member, (groups = []));
    groups.push(group);
  }
}

/** Multi-word phrases people write as one idea, and the words they stand for. */
const PHRASES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['pull request', ['pr', 'merge']],
  ['merge request', ['pr', 'pull']],
  ['how many', ['count']],
  ['look up', ['search', 'get']],
  ['find out', ['get', 'search']],
  ['sign up', ['register', 'create']],
  ['log in', ['login', 'auth']],
  ['to do', ['todo', 'task']],
].map(([phrase, stand]) => [phrase as string, (stand as string[]).map(stem)] as const);

/** Stems that the query's own stems (and phrases in its words) stand for, beyond themselves. */
export function expand(queryStems: readonly string[], queryWords: readonly string[]): string[] {
  const own = new Set(queryStems);
  const out = new Set<string>();
  for (const term of queryStems) {
    for (const group of groupsByStem.get(term) ?? []) for (const member of group) if (!own.has(member)) out.add(member);
  }
  const text = ` ${queryWords.join(' ')} `;
  for (const [phrase, stems] of PHRASES) if (text.includes(` ${phrase} `)) for (const s of stems) if (!own.has(s)) out.add(s);
  return [...out];
}
