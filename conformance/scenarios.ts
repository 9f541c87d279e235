// The official suite's server scenarios (0.2.0-alpha.12), as data: which run at which revision, which are pending
// (known gaps of issue 42, reported, never counted) and which never run (with the reason). `conformance list
// --server` prints the suite's own list with the revisions each applies to; the runner fails on any scenario the
// suite runs at a revision that this file does not name, so a newer suite cannot add one silently.

/** Extension scenarios (SEP-2663 tasks): run without --spec-version, the CLI infers 2026-07-28. */
export const TASKS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/** Scenarios on the tools and protocol surface every revision shares. */
const COMMON = [
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
  'completion-complete',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
];

/** 2025-06-18 and 2025-11-25: sessions, logging/setLevel, questions on the call's stream, subscriptions. */
const LEGACY = [
  'server-initialize',
  'server-session-lifecycle',
  'ping',
  'logging-set-level',
  'tools-call-with-logging',
  'tools-call-sampling',
  'tools-call-elicitation',
  'resources-subscribe',
  'resources-unsubscribe',
];

/** Each revision's scenarios, run at that revision (--spec-version). */
export const REVISIONS: Record<string, string[]> = {
  '2026-07-28': [
    ...COMMON,
    'server-stateless',
    'json-schema-2020-12',
    'server-sse-multiple-streams',
    'sep-2164-resource-not-found',
    'dns-rebinding-protection',
    'caching',
    'http-header-validation',
    'http-custom-header-server-validation',
    'input-required-result-basic-elicitation',
    'input-required-result-basic-sampling',
    'input-required-result-basic-list-roots',
    'input-required-result-request-state',
    'input-required-result-multiple-input-requests',
    'input-required-result-multi-round',
    'input-required-result-missing-input-response',
    'input-required-result-non-tool-request',
    'input-required-result-result-type',
    'input-required-result-unsupported-methods', // probes tools/list + prompts/list only
    'input-required-result-tampered-state',
    'input-required-result-capability-check',
    'input-required-result-ignore-extra-params',
    'input-required-result-validate-input',
  ],
  '2025-11-25': [
    ...COMMON,
    ...LEGACY,
    'json-schema-2020-12',
    'elicitation-sep1034-defaults',
    'elicitation-sep1330-enums',
    'server-sse-polling',
    'server-sse-multiple-streams',
    'dns-rebinding-protection',
  ],
  '2025-06-18': [...COMMON, ...LEGACY],
};

/**
 * Known gaps: run and reported as PENDING (and "passes now" once they do), counted neither as passed nor failed.
 * One line each; `name` covers every revision, `name@revision` one. Remove a line when the feature lands.
 */
export const PENDING: Record<string, string> = {};

/** Never run: the suite's own check says why no server can pass them here. */
export const EXCLUDED: Record<string, string> = {
  'tasks-status-notifications':
    "a placeholder in 0.2.0-alpha.12: its only check, tasks-status-notifications, is SKIPPED ('Status " +
    "notifications conformance, pending subscriptions/listen rewrite.') and it sends no request",
  ...Object.fromEntries(
    ['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest'].map((name) => [
      name,
      'the SEP-2640 skills extension, outside the revisions and the tasks extension issue 42 covers: the demo ' +
        'declares no io.modelcontextprotocol/skills, so each of its checks is SKIPPED (not applicable)',
    ]),
  ),
};
