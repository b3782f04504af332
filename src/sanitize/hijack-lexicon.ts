// The word lists of hijack-lexicon.json, read once: what the rules on tools named by what they do
// (hijack-by-kind.ts, prereq-by-kind.ts) and the learned second opinion's concepts look for, in 79
// languages. Each list is a StemLexicon, so thousands of entries cost a pass over the sentence.
import fs from 'node:fs';
import { StemLexicon, type Words } from './stem-lexicon.js';

type ByLanguage = Record<string, Words>;
interface LexiconFile {
  readonly tool: ByLanguage;
  readonly when: ByLanguage;
  readonly always: ByLanguage;
  readonly order: ByLanguage;
  readonly also: ByLanguage;
  readonly toolWords: Record<string, readonly string[]>;
  readonly actions: Record<string, ByLanguage>;
  /** "before", "first", "only after": what puts an action ahead of the tool's use. */
  readonly before?: ByLanguage;
  /** Nouns for a kind of software (a shell, the browser, the ticket system), by kind. */
  readonly software?: Record<string, ByLanguage>;
  /** The words a tool's name carries for each kind of software (`shell`: shell, terminal, exec). */
  readonly softwareWords?: Record<string, readonly string[]>;
}

/** One list read apart for English sentences and for the others'. */
interface ByReading {
  readonly english: StemLexicon;
  readonly other: StemLexicon;
}

/** The lists a sentence is read with: English ones for English, the other languages' otherwise. */
export interface Lists {
  readonly cue: StemLexicon;
  readonly order: StemLexicon;
  readonly action: StemLexicon;
}

export interface HijackLexicon {
  readonly english: Lists;
  readonly other: Lists;
  /** "always", "every time" in every language. */
  readonly always: StemLexicon;
  /** Nouns for a tool, an integration, a connector, in every language. */
  readonly tool: StemLexicon;
  readonly toolWords: ReadonlyMap<string, readonly string[]>;
  /** "before", "first", "only after": English, and the other languages. */
  readonly before: ByReading;
  /** Kinds of software, each match keyed by its kind: English, and the other languages. */
  readonly software: ByReading;
  readonly softwareWords: ReadonlyMap<string, readonly string[]>;
}

let lexicon: HijackLexicon | undefined;
let problem: string | undefined;
const NOTHING = new StemLexicon([]);

/**
 * Read once, when the daemon starts (or the first field is judged). A file missing or unreadable
 * leaves these rules, and the learned second opinion's concepts of these lists, without words.
 */
export function hijackLexicon(): HijackLexicon {
  if (lexicon !== undefined) return lexicon;
  try {
    const file = JSON.parse(fs.readFileSync(LEXICON_FILE, 'utf8')) as LexiconFile;
    lexicon = lexiconOf(file);
    // A file of an older shape still serves the lists it has; the rule it lacks says so once.
    if (file.before === undefined || file.software === undefined) problem = 'it has no before or software list (the prerequisite rule is off)';
  } catch (err) {
    problem = err instanceof Error ? err.message.split('\n')[0] : String(err);
    const none = { cue: NOTHING, order: NOTHING, action: NOTHING };
    const empty = { english: NOTHING, other: NOTHING };
    lexicon = { english: none, other: none, always: NOTHING, tool: NOTHING, toolWords: new Map(), before: empty, software: empty, softwareWords: new Map() };
  }
  return lexicon;
}
const LEXICON_FILE = new URL('./hijack-lexicon.json', import.meta.url);

/** Why the word lists could not be read, for the daemon to say once at start; undefined when they were. */
export function hijackLexiconProblem(): string | undefined {
  hijackLexicon();
  return problem;
}

function lexiconOf(file: LexiconFile): HijackLexicon {
  const languagesOf = (english: boolean) => (key: string, byLanguage: ByLanguage): [string, Words][] => Object.entries(byLanguage).filter(([language]) => (language === 'en') === english).map(([, words]) => [key, words]);
  const byReading = (groups: (languages: ReturnType<typeof languagesOf>) => [string, Words][]): ByReading => ({ english: new StemLexicon(groups(languagesOf(true))), other: new StemLexicon(groups(languagesOf(false))) });
  const listsOf = (english: boolean): Lists => {
    const languages = languagesOf(english);
    return {
      cue: new StemLexicon([...languages('when', file.when), ...languages('always', file.always)]),
      order: new StemLexicon([...languages('order', file.order), ...languages('also', file.also)]),
      action: new StemLexicon(Object.entries(file.actions).flatMap(([action, byLanguage]) => languages(action, byLanguage))),
    };
  };
  const all = (key: string, byLanguage: ByLanguage): [string, Words][] => Object.values(byLanguage).map((words) => [key, words]);
  return {
    english: listsOf(true),
    other: listsOf(false),
    always: new StemLexicon(all('always', file.always)),
    tool: new StemLexicon(all('tool', file.tool)),
    toolWords: new Map(Object.entries(file.toolWords)),
    before: byReading((languages) => languages('before', file.before ?? {})),
    software: byReading((languages) => Object.entries(file.software ?? {}).flatMap(([kind, byLanguage]) => languages(kind, byLanguage))),
    softwareWords: new Map(Object.entries(file.softwareWords ?? {})),
  };
}
