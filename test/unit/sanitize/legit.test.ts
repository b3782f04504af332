import { describe, expect, it } from 'vitest';
import { sanitizeEntity } from '../../../src/sanitize/index.js';
import { CTX, sanitizeTool } from './helpers.js';

/** Legitimate text that must be forwarded byte-identical with no finding at all (SANITIZE.md "Must never be altered"). */
const LEGIT: Record<string, string> = {
  chinese: '读取指定路径的文件内容，并以 UTF-8 文本返回。支持全角数字１２３和兼容汉字（如 﨑）。',
  traditionalChinese: '搜尋程式碼庫中的符號定義，結果依相關性排序。',
  arabic: 'يقرأ محتويات الملف ويعيدها كنص. استخدم المسار الكامل.',
  persianZwnj: 'می‌خواهم فایل‌ها را بخوانم و نتیجه را برگردانم.',
  devanagari: 'क्‍ष और त्र जैसे संयुक्ताक्षर, तथा र्‍य और क्‌ष — फ़ाइल पढ़ता है।',
  sinhala: 'ශ්‍රී ලංකා ගොනුව කියවයි.',
  hebrew: 'קורא את תוכן הקובץ ומחזיר אותו כטקסט.',
  russian: 'Читает файл и возвращает его содержимое. Все параметры необязательны.',
  greek: 'Διαβάζει το αρχείο και επιστρέφει το περιεχόμενο.',
  emojiZwj: 'Team status: 👩‍💻 coding, 👨‍👩‍👧‍👦 family, 🏳️‍🌈 pride, ❤️‍🔥, 🧑🏽‍🚀 astronaut, 👁️‍🗨️.',
  skinTones: 'Reactions: 👍🏻 👍🏼 👍🏽 👍🏾 👍🏿 and 🤝🏽.',
  keycaps: 'Press 1️⃣ 2️⃣ #️⃣ *️⃣ or 🔟 to choose.',
  vs16: 'Weather: ☀️ ☁️ ❄️ ⚠️ ✔️ ©️ ™︎ ↔️.',
  subdivisionFlags: 'Supported regions: 🏴󠁧󠁢󠁥󠁮󠁧󠁿 England, 🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland, 🏴󠁧󠁢󠁷󠁬󠁳󠁿 Wales, 🇯🇵 Japan.',
  japaneseIvs: '葛󠄀城市と辻󠄁… 検索します。 ひらがな、カタカナ、漢字を含む文字列。',
  japaneseIvsSingle: '葛󠄀飾区の住所を正規化します。',
  nbsp: 'Costs 10\u00a0€ per call; 5\u202fkm radius; « guillemets\u00a0»; 12\u2009345 items.',
  lrmRlm: 'Mixed: \u200fשלום\u200f and \u200eabc\u200e and Arabic letter mark \u061c here.',
  markdown:
    '# Search\n\n## Parameters\n\n- **query**: the text to find\n- *limit*: max results\n  - nested item\n\n1. first\n2. second\n\n> Note: results are cached.\n\n| name | type    | description          |\n|------|---------|----------------------|\n| q    | string  | what to search for   |\n| n    | integer | how many results     |\n\nSee [the docs](https://example.com/docs) and `inline code`.',
  fenced:
    'Example:\n\n```json\n{\n  "query": "select * from users",\n  "options": {\n    "limit": 10,\n    "nested": {\n      "deep": {\n        "deeper": true\n      }\n    }\n  }\n}\n```\n\n```python\ndef add(a, b):\n    return a + b  # ignore type errors here\n```',
  jsonInline: 'Returns {"items": [{"id": 1, "name": "x"}], "next": null}. Pass {"cursor": "abc"} to page.',
  math: 'Computes ∑ᵢ xᵢ² ≤ ∞, ∀x ∈ ℝ: √(x²) = |x|, ∫₀¹ f(x) dx ≈ π/4, a ≠ b, ½ + ¼ = ¾, ≩︀.',
  important: 'Important: rate limits apply. Important notes: the API returns at most 100 items.',
  ordinaryWords:
    'Set ignore_case to true to ignore letter case. Ignore whitespace differences when comparing. The token is refreshed automatically; secrets are never logged. Reads the system clock. Loads variables from .env if present. Password fields are masked. Use the system prompt parameter to configure the sub-agent.',
  envDocs: 'Add your API key to .env as OPENAI_API_KEY, or copy .env.example to .env and fill it in.',
  apiKeyParam: 'Your OpenWeather API key. Pass your API key in the api_key parameter if it is not set in the environment.',
  sshTool: 'Connects over SSH. Path to the private key file, default ~/.ssh/id_rsa. Reads ~/.ssh/config for host aliases. The public key ~/.ssh/id_ed25519.pub is uploaded to the server.',
  ordering: 'Returns paths instead of file contents. Use list_directory first if you are unsure of the layout.',
  urlTemplates: 'Calls GET https://api.github.com/repos/{owner}/{repo}/issues and returns the issues. Docs: https://docs.github.com/rest.',
  cliHelp: 'Usage: tool [options]\n\n  -v, --verbose                Print more\n  -o, --output <file>          Write to file\n  -h, --help                   Show help',
  silently: 'Silently ignores missing files. Errors are reported in the result, not thrown.',
  windowsPath: 'Accepts C:\\Users\\me\\file.txt or /home/me/file.txt.',
  regexDoc: 'Pattern is a regular expression like ^[a-z]+$ or \\d{3}-\\d{4}.',
  jwtExample: 'Send the token as a header, e.g. Authorization: Bearer <token>.',
  base64Doc: 'Returns the image as base64 (e.g. "iVBORw0KGgo...").',
  ignoreResults: 'If true, ignore previous results and start a new search. Forget cached pages with clear_cache.',
  deleteDoc: 'Deletes a file. Do not use this for directories; use remove_directory instead.',
  htmlTags: 'Supports <b>bold</b>, <code>code</code>, <br> and <details><summary>more</summary>text</details>.',
  templatePlaceholders: 'Format: <user>@<host>:<path>. Use {name} placeholders in the template string.',
  thanks: 'Thanks to the contributors. When the user asks for a summary, call summarize.',
  memory: 'Use this tool when the user says "remember" or asks you to store a fact for later.',
  quotes: 'He said “don’t panic” — and left… «OK» ‹yes›.',
  fullwidth: 'ＡＢＣ１２３ ｶﾀｶﾅ are preserved as sent.',
  ligatures: 'The ﬁle and ﬂow ligatures stay as they are.',
  crossReferenceOwn: 'Returns the sum. Use multiply for products.',
};

/** Values real servers put in defaults, enums and examples (from the tool lists in bench/discovery/catalog). */
const LEGIT_DATA = [
  'https://api.github.com',
  'https://developers-resource.landpress.line.me/fx/img/01_1_cafe.png',
  './output',
  'SELECT * FROM users LIMIT 10',
  'from:alice@example.com subject:invoice',
  '10.0.0.0/16',
  'claude_opus_4_7',
  'Find the webhook documentation page on this API docs site.',
  'What is the capital of Peru?',
  'Manage monday platform agent',
  'Admin: rotate keys',
  'cohere-rerank-3.5',
  '{"owner": "octocat", "repo": "hello-world"}',
  '--dry-run --verbose',
  'en-US',
];

describe('legitimate text passes byte-identical with no finding', () => {
  for (const [name, text] of Object.entries(LEGIT)) {
    it(`${name} as a tool description`, () => {
      const entity = { name: 'add', description: text };
      const r = sanitizeEntity('tool', entity, CTX);
      expect(r.findings.map((f) => `${f.rule}: ${f.reason}`)).toEqual([]);
      expect(r.forwarded).toBe(entity);
      expect(r.blocked).toBe(false);
    });
  }

  it('every text as a parameter description', () => {
    for (const text of Object.values(LEGIT)) {
      const entity = { name: 'add', inputSchema: { type: 'object', properties: { q: { type: 'string', description: text } } } };
      const r = sanitizeEntity('tool', entity, CTX);
      expect(r.findings.map((f) => `${f.field} ${f.rule}: ${f.reason}`)).toEqual([]);
      expect(r.forwarded).toBe(entity);
    }
  });

  // Data slots hold data (SANITIZE.md data-slot-prose): the values real servers put there pass; a
  // paragraph of documentation addressed to the reader is not data and is judged as such.
  it('real data values as a default, enum value and example', () => {
    for (const text of LEGIT_DATA) {
      const entity = {
        name: 'add',
        inputSchema: {
          type: 'object',
          properties: { q: { type: 'string', default: text, examples: [text] }, mode: { enum: [text] } },
        },
      };
      const r = sanitizeEntity('tool', entity, CTX);
      expect(r.findings.map((f) => `${f.field} ${f.rule}: ${f.reason}`)).toEqual([]);
      expect(r.forwarded).toBe(entity);
    }
  });

  it('a credential path is data only as the default of a parameter about it', () => {
    const about = sanitizeEntity('tool', { name: 'add', inputSchema: { type: 'object', properties: { kubeconfig: { type: 'string', default: '~/.kube/config' } } } }, CTX);
    expect(about.findings).toEqual([]);
    const other = sanitizeEntity('tool', { name: 'add', inputSchema: { type: 'object', properties: { attachment: { type: 'string', default: '~/.kube/config' } } } }, CTX);
    expect(other.blocked).toBe(true);
    expect(other.findings.map((f) => f.rule)).toContain('data-slot-prose');
  });

  it('the same texts as prompt, resource and instructions', () => {
    for (const text of Object.values(LEGIT)) {
      expect(sanitizeEntity('prompt', { name: 'p', description: text, arguments: [{ name: 'a', description: text }] }, CTX).findings).toEqual([]);
      expect(sanitizeEntity('resource', { uri: 'file:///x', name: text.slice(0, 60), description: text }, CTX).findings).toEqual([]);
      expect(sanitizeEntity('instructions', text, CTX).findings).toEqual([]);
    }
  });

  it('never NFKC-normalizes forwarded text even when something else is stripped', () => {
    const r = sanitizeTool('ＡＢＣ１２３ ﬁle 﨑\u200b done');
    expect(r.forwarded['description']).toBe('ＡＢＣ１２３ ﬁle 﨑 done');
  });
});

// Definitions of popular servers the sanitizer once withheld (their own words, or close to them).
describe('real tools once withheld are served', () => {
  it('an image extractor whose parameter takes images from the clipboard saved to disk', () => {
    const tool = {
      name: 'extract_image_from_file',
      description: 'Extract and analyze images from local file paths. Supports images from clipboard, screenshots and downloads.',
      inputSchema: { type: 'object', properties: { file_path: { type: 'string', description: 'Path to the image file (e.g. images from clipboard saved to disk, screenshots)' } } },
    };
    expect(sanitizeEntity('tool', tool, CTX).blocked).toBe(false);
  });

  it('a docstring example that names the server\'s own tools', () => {
    const tool = {
      name: 'set_default_project',
      description: 'Set default project in config. Requires restart to take effect.\n\nExample:\n    set_default_project("work-notes")\n    # Then use write_note or search_notes without the project argument',
      inputSchema: { type: 'object', properties: { project_name: { type: 'string' } } },
    };
    const ctx = { ...CTX, server: 'memory', ownToolNames: new Set(['set_default_project', 'write_note', 'search_notes']) };
    expect(sanitizeEntity('tool', tool, ctx).blocked).toBe(false);
  });
});
