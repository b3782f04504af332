// Words people use for what tool descriptions call otherwise: a request says "grab the latest
// messages", the tool says "fetch channel history". Groups of general software vocabulary,
// written from how APIs and people name things, not from any evaluation set.
import { stem } from './words.js';

/** Each line is one group of words that stand for each other in a request. */
const GROUPS = `
get fetch retrieve read obtain grab pull show view see display load open lookup
list enumerate show browse all overview index catalog
search find lookup query look locate discover seek filter match grep
create make new add start open spawn generate build compose write insert register
update edit modify change set alter patch rename adjust tweak fix replace
delete remove erase destroy drop purge clear discard trash cancel unregister
send post message notify dm reply ping deliver publish broadcast tell share
run execute invoke launch call trigger perform fire
stop kill terminate halt end abort close shutdown
upload put push attach store save persist
download export save backup dump pull
copy duplicate clone fork
move transfer relocate migrate
summarize summary describe explain overview digest tldr
translate convert transform transcode encode decode format
analyze analyse inspect examine investigate audit review check diagnose debug
monitor watch track observe follow subscribe
schedule book plan reserve arrange calendar appointment meeting event
remind reminder alert alarm notification
issue ticket bug task todo incident problem
repository repo project codebase
pull_request pr merge_request mr patch changeset diff
commit revision changeset
branch ref
file document doc attachment
folder directory dir path
database db table schema sql
query sql select
email mail inbox message
picture image photo pic screenshot snapshot capture png jpg
video clip movie recording
audio sound voice speech recording
website site page web url link webpage homepage
browser tab navigate visit go
click press tap select
type fill enter input
spreadsheet sheet excel csv table
presentation slide deck
chat conversation thread channel room
user member person people account profile contact colleague employee teammate
team group org organization workspace company
customer client buyer subscriber
payment charge invoice bill billing refund transaction
price cost pricing
weather forecast temperature rain
map location place address direction route geocode coordinates
error exception crash failure fault bug
log logs trace event
deploy deployment release ship rollout publish
container docker pod image
cluster kubernetes k8s node
server host machine instance vm
secret credential password token key
permission access role grant privilege
comment note remark annotation feedback
label tag category topic
status state health progress
count number total how many
recent latest newest last new current
old previous earlier past history
star favorite bookmark like
contributor author owner maintainer committer
notebook note page wiki doc knowledge
memory remember recall memorize knowledge graph entity
time date clock timezone now today
random generate
sum add calculate compute math total
library package dependency module npm
documentation docs manual reference api guide
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
