// Renders the overview (cards, tables), the task list and the task page from the API's answers.
import { drawChart } from './chart.js';
import { duration, h, owner, shortId, statusBadge, table, td, when } from './dom.js';

export const STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'];
const $ = (id) => document.getElementById(id);

/** The chart: tasks created and ended per minute. */
export const renderActivity = (activity) => drawChart($('chart'), activity.timeline);

/** Counts, tables and rankings; run times come from the last activity answer (`null` before the first). */
export function renderOverview(o, activity, filterBySubject) {
  const { stats, limits } = o;
  $('server').textContent = `${o.server.name} ${o.server.version}`;
  $('instance').textContent = o.instance;
  $('updated').replaceChildren(when(o.now, Date.now()));
  const cap = limits.maxTasks === null ? 'no server cap' : `of maxTasks ${limits.maxTasks}`;
  $('status-cards').replaceChildren(
    card('live', 'live', stats.live, cap, 'var(--accent)'),
    ...STATUSES.map((s) => card(s, s.replace('_', ' '), stats.byStatus[s], '', `var(--${s})`)),
  );
  const runs = new Map((activity?.durations ?? []).map((d) => [d.tool, d]));
  table(
    $('tools'),
    [{ label: 'tool' }, ...STATUSES.map((s) => ({ label: s.replace('_', ' '), num: true })), ...num('p50', 'p95')],
    stats.byTool.map((t) =>
      h(
        'tr',
        { 'data-tool': t.tool },
        td(t.tool),
        STATUSES.map((s) => td(t.byStatus[s] ?? 0, true)),
        td(duration(runs.get(t.tool)?.p50), true),
        td(duration(runs.get(t.tool)?.p95), true),
      ),
    ),
    'no tasks',
  );
  const pick = (o_) =>
    h('button', { type: 'button', class: 'link', onclick: () => filterBySubject(o_.subject) }, owner(o_));
  table(
    $('owners'),
    [{ label: 'owner' }, ...num('tasks', 'live')],
    stats.byOwner.map((r) => h('tr', {}, h('td', {}, pick(r.owner)), td(r.total, true), td(r.live, true))),
    'no tasks',
  );
  const per = limits.maxPerPrincipal;
  table(
    $('caps'),
    [{ label: 'owner' }, ...num('live'), { label: per === null ? 'no cap' : `of ${per}` }],
    stats.busiestOwners.map((r) => {
      const share = per === null ? 0 : Math.min(1, r.live / per);
      const bar = h('span', {
        class: share >= 1 ? 'bar full' : 'bar',
        style: { width: `${Math.max(2, share * 120)}px` },
      });
      return h('tr', {}, h('td', {}, pick(r.owner)), td(r.live, true), h('td', {}, bar));
    }),
    'no live tasks',
  );
  table(
    $('leases'),
    [{ label: 'instance' }, ...num('tasks'), { label: 'lease until' }],
    stats.leases.map((l) =>
      h(
        'tr',
        {},
        h('td', {}, h('code', {}, l.instance), l.instance === o.instance ? ' (this one)' : ''),
        td(l.tasks, true),
        h('td', {}, when(l.until, o.now), l.until < o.now ? ' — lapsed' : ''),
      ),
    ),
    'no instance holds a lease',
  );
}

function card(key, label, n, sub, color) {
  return h(
    'div',
    { class: 'card', 'data-count': key, style: { '--c': color } },
    h('div', { class: 'n' }, String(n)),
    h('div', { class: 'label' }, label),
    sub ? h('div', { class: 'label' }, sub) : undefined,
  );
}

const num = (...labels) => labels.map((label) => ({ label, num: true }));

export function renderList(page, state, open) {
  const from = state.cursors.length * state.limit;
  $('list-info').textContent = page.total
    ? `${from + 1}–${from + page.tasks.length} of ${page.total}`
    : 'No task matches these filters.';
  table(
    $('task-list'),
    [
      { label: 'created' },
      { label: 'tool' },
      { label: 'status' },
      { label: 'owner' },
      { label: 'message' },
      { label: 'id' },
    ],
    page.tasks.map((t) =>
      h(
        'tr',
        { 'data-task-id': t.id, class: t.id === state.openId ? 'selected' : undefined, onclick: () => open(t.id) },
        h('td', {}, when(t.createdAt, page.now)),
        td(t.tool),
        h('td', {}, statusBadge(t.status), t.inputKeys.length ? ` ${t.inputKeys.join(', ')}` : ''),
        h('td', {}, owner(t.owner)),
        td(t.statusMessage),
        h('td', {}, shortId(t.id)),
      ),
    ),
    'no tasks',
  );
  $('older').disabled = !page.next;
  $('older').dataset.next = page.next ?? '';
  $('newer').disabled = state.cursors.length === 0;
}

/** The task page; `ui` holds the action message, whether a cancel is being confirmed, and the handlers. */
export function renderTask(detail, ui) {
  const { task: t, now } = detail;
  const dl = (pairs) =>
    h(
      'dl',
      {},
      pairs.filter(([, v]) => v !== undefined).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
    );
  const lease = t.lease
    ? [
        h('code', {}, t.lease.instance),
        t.lease.thisInstance ? ' (this one)' : '',
        t.lease.current ? ', until ' : ', lapsed ',
        when(t.lease.until, now),
      ]
    : 'none';
  const outcome = t.outcome.shown
    ? [
        t.outcome.result ? h('pre', { id: 'task-result' }, JSON.stringify(t.outcome.result, null, 2)) : undefined,
        t.outcome.error ? h('pre', { id: 'task-error' }, JSON.stringify(t.outcome.error, null, 2)) : undefined,
        !t.outcome.result && !t.outcome.error ? h('p', {}, 'None yet.') : undefined,
      ]
    : h(
        'p',
        { id: 'task-result-hidden' },
        t.outcome.exists ? 'Hidden: the app does not show results (showResults).' : 'None yet.',
      );
  const terminal = !['working', 'input_required'].includes(t.status);
  const parts = [
    h('h2', {}, `${t.tool} `, statusBadge(t.status)),
    dl([
      ['id', h('code', { id: 'task-id' }, t.id)],
      ['status message', t.statusMessage],
      ['owner', h('span', {}, owner(t.owner), t.owner.server ? ` on ${t.owner.server}` : '')],
      ['scopes', t.requiredScopes.length ? t.requiredScopes.join(' ') : undefined],
      ['instance', h('span', {}, ...[lease].flat())],
      [
        'attempt',
        t.attempt.of === null ? undefined : h('span', { id: 'task-attempt' }, `${t.attempt.number} of ${t.attempt.of}`),
      ],
      ['expires', t.expiresAt === null ? 'never' : when(t.expiresAt, now)],
    ]),
    h('h3', {}, 'History (as far as the store keeps it)'),
    h(
      'table',
      {},
      h(
        'tbody',
        {},
        t.history.map((e) =>
          h('tr', {}, h('td', {}, e.event), h('td', {}, statusBadge(e.status)), h('td', {}, when(e.at, now))),
        ),
      ),
    ),
    h('h3', {}, 'Waiting for input'),
    t.input.outstanding.length
      ? h(
          'ul',
          { id: 'task-input' },
          t.input.outstanding.map((q) =>
            h('li', {}, h('code', {}, q.key), ` ${q.method}`, q.question ? `: “${q.question}”` : ''),
          ),
        )
      : h('p', {}, 'Nothing.'),
    t.input.answeredKeys.length ? h('p', {}, `Answered: ${t.input.answeredKeys.join(', ')}`) : undefined,
    h('h3', {}, 'Result'),
    outcome,
    terminal ? undefined : cancelBox(t.id, ui),
    h('p', { id: 'action-message', role: 'status' }, ui.message),
  ];
  $('detail-body').replaceChildren(...parts.flat().filter(Boolean));
}

/**
 * The cancel buttons. A redraw keeps the ones on the page while the question is the same: a button replaced at
 * every poll loses a click whose press and release straddle a redraw.
 */
function cancelBox(id, ui) {
  const key = `${id} ${ui.confirming ? 'confirm' : 'ask'}`;
  const shown = [...$('detail-body').querySelectorAll('.actions')].find((el) => el.dataset.key === key);
  if (shown) return shown;
  if (!ui.confirming)
    return h(
      'div',
      { class: 'actions', 'data-key': key },
      button('cancel-task', 'danger', 'Cancel task', () => ui.ask(true)),
    );
  return h(
    'div',
    { class: 'actions', 'data-key': key },
    h('span', {}, 'Cancel this task?'),
    button('confirm-cancel', 'danger', 'Yes, cancel it', ui.cancel),
    button('keep-task', '', 'Keep it running', () => ui.ask(false)),
  );
}

const button = (id, cls, label, onclick) =>
  h('button', { type: 'button', id, class: cls || undefined, onclick }, label);
