// The clause splitter: a long request of several steps splits at its steps, and nothing else does
// (a pair of verbs that is one action, a pair of adjectives, a URL, code, quoted text, a lead-in).
import { describe, expect, it } from 'vitest';
import { clauses } from '../../../src/search/clauses.js';

describe('clauses: requests of several steps split', () => {
  it.each([
    [
      'get the pods in the payments namespace, show me the logs of the crashing one and then restart the deployment',
      ['get the pods in the payments namespace', 'show me the logs of the crashing one', 'restart the deployment'],
    ],
    ['list the open pull requests on github; merge the first one', ['list the open pull requests on github', 'merge the first one']],
    ['Start a browserbase session. Navigate to example.com/news. Close the session.', ['Start a browserbase session', 'Navigate to example.com/news', 'Close the session']],
    ['first create a feature flag in launchdarkly, after that check its status across environments', ['create a feature flag in launchdarkly', 'check its status across environments']],
    ['read the README from acme/api on GitHub and translate it to Spanish', ['read the README from acme/api on GitHub', 'translate it to Spanish']],
    ['find coffee shops near the tower, give me walking directions to the closest one', ['find coffee shops near the tower', 'give me walking directions to the closest one']],
    ['fetch the transcript of https://www.youtube.com/watch?v=dQw4w9WgXcQ, then summarize it into a notion page', ['fetch the transcript of https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'summarize it into a notion page']],
    ['check the pipeline status on circleci and if it failed pull the build logs', ['check the pipeline status on circleci', 'if it failed pull the build logs']],
    ['crawl the docs site with firecrawl and when it is done extract the endpoint names', ['crawl the docs site with firecrawl', 'extract the endpoint names']],
  ])('%s', (text, expected) => {
    expect(clauses(text)).toEqual(expected);
  });

  it('splits numbered and bulleted steps, on lines or inline, without their markers', () => {
    expect(clauses('1. list the open PRs on github\n2. get the files changed in PR 12\n3. merge it')).toEqual(['list the open PRs on github', 'get the files changed in PR 12', 'merge it']);
    expect(clauses('- search the logs-2024 index for timeout\n- get the mappings of that index\n* list all indices')).toEqual([
      'search the logs-2024 index for timeout',
      'get the mappings of that index',
      'list all indices',
    ]);
    expect(clauses('1) read the quarterly report 2) summarise the numbers 3) mail the summary to bob')).toEqual([
      'read the quarterly report',
      'summarise the numbers',
      'mail the summary to bob',
    ]);
  });

  it('splits at "then" in German, French and Spanish', () => {
    expect(clauses('erstelle ein Issue im GitHub-Repo acme/app, dann poste den Link im Slack-Kanal')).toEqual(['erstelle ein Issue im GitHub-Repo acme/app', 'poste den Link im Slack-Kanal']);
    expect(clauses("cherche sur le web les nouvelles d'OpenAI, puis traduis le premier article")).toEqual(["cherche sur le web les nouvelles d'OpenAI", 'traduis le premier article']);
    expect(clauses('busca alojamientos en Lisboa, luego muéstrame los detalles y después calcula la distancia')).toEqual([
      'busca alojamientos en Lisboa',
      'muéstrame los detalles',
      'calcula la distancia',
    ]);
  });

  it('keeps the clause text as written (case, punctuation inside) and caps the steps at what find_tools searches', () => {
    const topics = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
    const parts = clauses(topics.map((topic) => `Create an issue about ${topic}`).join('. '));
    expect(parts).toHaveLength(8);
    expect(parts[0]).toBe('Create an issue about alpha');
    expect(parts[7]).toBe('Create an issue about theta, Create an issue about iota, Create an issue about kappa');
  });
});

describe('clauses: one intent stays whole', () => {
  it.each([
    'copy and paste the table into the sheet',
    'search and replace foo with bar in the config file',
    'convert the product photo to black and white',
    'go ahead and merge PR 42 on github, it is approved',
    'list the issues, pull requests and commits of acme/web',
    'open https://example.com/cart;jsessionid=42?step=2 in the headless browser',
    'evaluate `for (let i = 0; i < n; i++) total += i;` in the page',
    'run the snippet for (let i = 0; i < 3; i++) console.log(i); in node',
    'post "build done; deploy next, then celebrate" to the dev channel on slack',
    'In airtable, find the records in the Leads table where status is hot',
    'summarise the meeting notes, e.g. the ones from Monday',
    'open a bug on our github repo saying the login button does nothing on safari',
    'read and summarise notes',
  ])('%s', (text) => {
    expect(clauses(text)).toEqual([text]);
  });

  it('gives back the very text when it does not split', () => {
    const text = 'which PRs are still waiting in the acme/webapp repository?';
    expect(clauses(text)[0]).toBe(text);
  });
});
