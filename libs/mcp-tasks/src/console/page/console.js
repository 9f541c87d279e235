// The console page: polls the data routes every `pollInterval` ms and re-renders in place.
import { api, ApiError, token } from './api.js';
import { h } from './dom.js';
import { renderActivity, renderList, renderOverview, renderTask, STATUSES } from './views.js';

const $ = (id) => document.getElementById(id);
const state = {
  limit: 50,
  filters: {},
  /** Cursors of the pages before the current one (empty on the first page). */
  cursors: [],
  cursor: '',
  openId: '',
  pollInterval: 2000,
  /** The per-minute chart and run times are re-read less often than the counts. */
  activityInterval: 10_000,
  activity: null,
  activityAt: 0,
  timer: 0,
  /** Bumped by each refresh: only the latest one renders and schedules the next. */
  generation: 0,
  /** The outcome of the last action, shown on its task's page until another task is opened. */
  message: { id: '', text: '' },
  /** The task whose cancel is being confirmed: kept here, so a refresh does not take the question away. */
  confirming: '',
  /** The open task's last answer, and a counter so that only the newest answer is drawn. */
  detail: null,
  detailSeq: 0,
};

function banner(message) {
  $('banner').hidden = !message;
  $('banner').textContent = message ?? '';
}

/** 401/403: no data is shown; a bearer token can be given. */
function refused(err) {
  for (const id of ['status-cards', 'chart', 'tools', 'owners', 'caps', 'leases', 'task-list']) $(id).replaceChildren();
  state.activity = null;
  $('list-info').textContent = '';
  closeTask();
  $('token-form').hidden = false;
  banner(`${err.status === 401 ? 'Sign-in needed' : 'Access refused'} (${err.status}): ${err.message}`);
}

async function refresh() {
  const generation = ++state.generation;
  clearTimeout(state.timer);
  const params = { ...state.filters, limit: String(state.limit), ...(state.cursor ? { cursor: state.cursor } : {}) };
  const due = !state.activity || Date.now() - state.activityAt >= state.activityInterval;
  const [overview, list, activity] = await Promise.allSettled([
    api.overview(),
    api.tasks(params),
    due ? api.activity() : Promise.resolve(state.activity),
  ]);
  if (generation !== state.generation) return;
  const problems = [overview, list, activity].filter((r) => r.status === 'rejected').map((r) => r.reason);
  const denied = problems.find((e) => e instanceof ApiError && (e.status === 401 || e.status === 403));
  if (denied) refused(denied);
  else banner(problems.length ? [...new Set(problems.map((e) => e.message))].join(' ') : '');
  if (activity.status === 'fulfilled' && due) {
    state.activity = activity.value;
    state.activityAt = Date.now();
    renderActivity(activity.value);
  }
  if (overview.status === 'fulfilled') {
    state.pollInterval = overview.value.pollInterval;
    state.activityInterval = overview.value.activityInterval;
    renderOverview(overview.value, state.activity, filterBySubject);
    fillToolFilter(overview.value.stats.byTool.map((t) => t.tool));
  }
  if (list.status === 'fulfilled') renderList(list.value, state, openTask);
  if (state.openId && !denied) await loadTask(state.openId);
  if (generation !== state.generation) return;
  state.timer = setTimeout(() => void refresh(), state.pollInterval);
}

async function loadTask(id) {
  const seq = ++state.detailSeq;
  try {
    const detail = await api.task(id);
    // Only the newest answer for the open task is drawn (an older poll may land after it).
    if (seq !== state.detailSeq || id !== state.openId) return;
    state.detail = detail;
    showTask();
  } catch (err) {
    if (seq !== state.detailSeq || id !== state.openId) return;
    $('detail').hidden = false;
    $('detail-body').replaceChildren(h('p', { role: 'alert' }, `Task ${id}: ${err.message}`));
  }
}

/** Draws the open task from the last answer; the cancel question lives in `state`, so redraws keep it. */
function showTask() {
  const id = state.detail.task.id;
  renderTask(state.detail, {
    message: state.message.id === id ? state.message.text : '',
    confirming: state.confirming === id,
    ask: (yes) => {
      state.confirming = yes ? id : '';
      showTask();
    },
    cancel: () => void cancelTask(id),
  });
  $('detail').hidden = false;
}

async function openTask(id) {
  state.openId = id;
  state.confirming = '';
  for (const row of document.querySelectorAll('#task-list tr[data-task-id]'))
    row.classList.toggle('selected', row.dataset.taskId === id);
  await loadTask(id);
}

function closeTask() {
  state.openId = '';
  state.confirming = '';
  $('detail').hidden = true;
}

async function cancelTask(id) {
  state.confirming = '';
  state.message = { id, text: 'Cancelling…' };
  showTask();
  try {
    const { status } = await api.cancel(id);
    state.message = { id, text: `Cancel requested: the task is now ${status}.` };
  } catch (err) {
    state.message = { id, text: `Not cancelled: ${err.message}` };
  }
  await refresh();
}

function fillToolFilter(tools) {
  const select = $('tool-filter');
  const current = state.filters.tool ?? '';
  const wanted = ['', ...new Set([...tools, ...(current ? [current] : [])])];
  if ([...select.options].map((o) => o.value).join('\n') === wanted.join('\n')) return;
  select.replaceChildren(...wanted.map((t) => h('option', { value: t, selected: t === current }, t || 'any')));
}

function readFilters() {
  const f = {};
  const statuses = STATUSES.filter((s) => $(`status-${s}`).checked);
  if (statuses.length && statuses.length < STATUSES.length) f.status = statuses.join(',');
  if ($('tool-filter').value) f.tool = $('tool-filter').value;
  if ($('subject-filter').value.trim()) f.subject = $('subject-filter').value.trim();
  const [kind, ms] = $('age-filter').value.split(':');
  if (ms) f[kind === 'max' ? 'maxAge' : 'minAge'] = ms;
  return f;
}

function applyFilters() {
  state.filters = readFilters();
  state.cursors = [];
  state.cursor = '';
  void refresh();
}

function filterBySubject(subject) {
  $('subject-filter').value = subject;
  applyFilters();
}

function setUp() {
  $('status-filter').append(
    ...STATUSES.map((s) =>
      h('label', {}, h('input', { type: 'checkbox', id: `status-${s}`, checked: true }), ` ${s.replace('_', ' ')}`),
    ),
  );
  $('filters').addEventListener('submit', (e) => (e.preventDefault(), applyFilters()));
  $('filters').addEventListener('reset', () => setTimeout(applyFilters));
  $('open-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if ($('open-id').value.trim()) void openTask($('open-id').value.trim());
  });
  $('older').addEventListener('click', () => {
    const next = $('older').dataset.next;
    state.cursors.push(state.cursor);
    state.cursor = next ?? '';
    void refresh();
  });
  $('newer').addEventListener('click', () => {
    state.cursor = state.cursors.pop() ?? '';
    void refresh();
  });
  $('detail-close').addEventListener('click', closeTask);
  $('token-button').addEventListener('click', () => ($('token-form').hidden = !$('token-form').hidden));
  $('token').value = token.get();
  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    token.set($('token').value.trim());
    $('token-form').hidden = true;
    void refresh();
  });
  $('token-forget').addEventListener('click', () => {
    token.set('');
    $('token').value = '';
    void refresh();
  });
  void refresh();
}

setUp();
