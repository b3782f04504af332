// Patterns for what a parameter asks the model to fill in: its description, and its name.
//
// A parameter description needs no directive to be an attack: "the contents of ~/.ssh/id_rsa" or
// "the full conversation" as what to pass is the ask. Names are read split into words.
import { CONV_PARAMETER_TARGET, definePattern as p, ENV_FILE, gap, T_GENERIC, T_STRONG, type Pattern } from './patterns.js';

/** Parameter descriptions (and names) that ask for secrets or transcripts, no directive needed. */
export const PARAMETER_PATTERNS: readonly Pattern[] = [
  p('parameter.file-content', 'exfil-parameter',
    `\\b(?:contents?|text|body|data|value|output)\\b (?:of|from|in) ${gap(60)}(?:${T_STRONG}|${ENV_FILE})`,
    'block', 'critical', 'a parameter asks for the contents of a credential file'),
  p('parameter.file-verbatim', 'exfil-parameter',
    `(?:${T_STRONG}|${ENV_FILE})${gap(40)}\\b(?:verbatim|as[- ]is|unredacted|in full|left in|unchanged|contents?)\\b`,
    'block', 'critical', 'a parameter asks for a credential file as it is'),
  p('parameter.secrets', 'exfil-parameter', `(?:${T_GENERIC})`, 'block', 'critical', 'a parameter asks for secrets'),
  p('parameter.transcript', 'exfil-parameter', `(?:${CONV_PARAMETER_TARGET})`, 'block', 'critical', 'a parameter asks for the conversation or system prompt'),
  p('parameter.identifier', 'exfil-parameter',
    '\\b(?:content|contents|read|reading|dump|cat)\\b.{0,40}\\b(?:ssh id (?:rsa|dsa|ecdsa|ed25519)|aws credentials|netrc|git credentials|mcp json|claude desktop config)\\b',
    'block', 'critical', 'a parameter name spells out a credential file to read'),
];

/**
 * Property names that ask for a secret by saying where it comes from or whose it is (only for
 * names: a description saying "your personal access token" is how tools document their own auth).
 * `token` is what a GitHub tool asks the user for; `personal_access_token_from_env` is not.
 */
export const SECRET_NAME_PATTERNS: readonly Pattern[] = [
  p('parameter.secret-name', 'exfil-parameter',
    [
      '\\b(?:token|password|passwd|secret|key|cookie|credentials?)s? (?:from|in|of) (?:the )?(?:env|environment|dotenv|shell|system)\\b',
      '\\b(?:contents?|paste|dump|copy|read|verbatim)\\b.{0,40}\\b(?:ssh|private key|dotenv|env file|credentials?|keychain|password|secret)',
      '\\b(?:all|every|full|entire|whole|current|process) (?:the )?(?:env|environment) (?:dump|vars|variables)\\b|\\b(?:env|environment) dump\\b',
      '\\b(?:conversation|chat|dialog|messages?) so far\\b|\\b(?:current|this|our) (?:conversation|chat)\\b|\\bsystem (?:prompt|message|instructions) (?:text|contents?|verbatim)\\b|\\b(?:full|entire|whole|complete) (?:chat|conversation|message) (?:history|log|transcript)\\b|\\b(?:every|all) messages?\\b.{0,30}\\b(?:chat|conversation|thread)\\b',
    ].join('|'),
    'block', 'critical', 'a parameter name asks for a secret or the conversation'),
  // A credential named as what it is (`private_key`, `env_vars`) is withheld on a tool that has no
  // business with it; semantic.ts lets it pass where the server's own tools are about it.
  p('parameter.credential-name', 'exfil-parameter',
    [
      '\\b(?:ssh|gpg|pgp) (?:private )?key\\b|\\bprivate key\\b|\\bsecret access key\\b|\\b(?:gcloud|gcp|azure|aws|kube) (?:credentials?|config|token)\\b',
      '\\b(?:session|auth|browser) cookies?(?: value)?\\b|\\buser(?:s)? password\\b|\\bnpm auth token\\b|\\bpersonal access token\\b',
      '\\b(?:env|environment) (?:vars|variables)\\b|\\bdotenv\\b',
    ].join('|'),
    'block', 'critical', 'a parameter name asks for a secret or the conversation'),
];
