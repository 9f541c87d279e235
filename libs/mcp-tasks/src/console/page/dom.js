// Small DOM helpers: every text goes through textContent, never HTML.

/** An element with attributes (`class`, `data-*`, `on<event>` handlers) and children (nodes or text). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'style') for (const [name, value] of Object.entries(v)) el.style.setProperty(name, value);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  el.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return el;
}

/** A table with a header row and body rows; `empty` shown when there are no rows. */
export function table(el, head, rows, empty) {
  const thead = h(
    'thead',
    {},
    h(
      'tr',
      {},
      head.map((c) => h('th', { class: c.num ? 'num' : undefined }, c.label)),
    ),
  );
  const body = rows.length ? rows : [h('tr', {}, h('td', { class: 'empty', colspan: head.length }, empty))];
  el.replaceChildren(thead, h('tbody', {}, body));
}

export const td = (value, num = false) => h('td', { class: num ? 'num' : undefined }, value ?? '–');

export const statusBadge = (status) =>
  h('span', { class: 'status', 'data-status': status, style: { '--c': `var(--${status})` } }, status.replace('_', ' '));

/** "3.2 s", "4 min", "2 h". */
export function duration(ms) {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** Relative time ("12 s ago", "in 3 min") with the exact time as a tooltip. */
export function when(at, now) {
  if (at === null || at === undefined) return h('span', {}, '–');
  const d = now - at;
  const text = Math.abs(d) < 1000 ? 'now' : d > 0 ? `${duration(d)} ago` : `in ${duration(-d)}`;
  return h('time', { datetime: new Date(at).toISOString(), title: new Date(at).toLocaleString() }, text);
}

/** An owner as "subject (client)", the full key as a tooltip. */
export const owner = (o) => h('span', { title: o.key }, o.client ? `${o.subject} (${o.client})` : o.subject);

export const shortId = (id) => h('code', { title: id }, id.length > 12 ? `${id.slice(0, 12)}…` : id);
