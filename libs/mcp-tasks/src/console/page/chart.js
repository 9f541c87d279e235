// Tasks created and ended per minute: a hand-drawn SVG bar chart (two bars per minute).

const NS = 'http://www.w3.org/2000/svg';
const [W, H, LEFT, BOTTOM, TOP] = [720, 170, 34, 18, 8];

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A "nice" upper bound for the y axis: 1, 2 or 5 × a power of ten. */
function niceMax(n) {
  if (n <= 4) return 4;
  const p = 10 ** Math.floor(Math.log10(n));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= n);
}

export function drawChart(container, timeline) {
  const { start, bucketMs, created, ended } = timeline;
  const n = created.length;
  const max = niceMax(Math.max(0, ...created, ...ended));
  const plotW = W - LEFT - 4;
  const plotH = H - BOTTOM - TOP;
  const slot = plotW / Math.max(n, 1);
  const bar = Math.max(1, slot / 2 - 0.5);
  const y = (v) => TOP + plotH - (v / max) * plotH;
  const total = (xs) => xs.reduce((a, b) => a + b, 0);
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': `Last hour: ${total(created)} tasks created, ${total(ended)} ended`,
  });
  for (const v of [0, max / 2, max]) {
    svg.append(s('line', { class: 'axis', x1: LEFT, x2: W - 4, y1: y(v), y2: y(v) }));
    svg.append(s('text', { x: LEFT - 4, y: y(v) + 3, 'text-anchor': 'end' }, String(v)));
  }
  for (let i = 0; i < n; i++) {
    const x = LEFT + i * slot;
    const minute = new Date(start + i * bucketMs).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    for (const [cls, v, dx] of [
      ['created', created[i], 0],
      ['ended', ended[i], bar],
    ]) {
      if (v === 0) continue;
      const r = s('rect', { class: cls, x: x + dx, y: y(v), width: bar, height: TOP + plotH - y(v) });
      r.append(s('title', {}, `${minute}: ${v} ${cls}`));
      svg.append(r);
    }
    if (i % 10 === 0 || i === n - 1) {
      const label = i === n - 1 ? 'now' : `−${n - 1 - i} min`;
      svg.append(s('text', { x: x + slot / 2, y: H - 4, 'text-anchor': 'middle' }, label));
    }
  }
  const legend = s('g', { transform: `translate(${W - 150}, ${TOP + 2})` });
  legend.append(s('rect', { class: 'created', width: 9, height: 9 }), s('text', { x: 13, y: 8 }, 'created'));
  legend.append(s('rect', { class: 'ended', x: 70, width: 9, height: 9 }), s('text', { x: 83, y: 8 }, 'ended'));
  svg.append(legend);
  container.replaceChildren(svg);
}
