'use strict';
(() => {
const D = JSON.parse(document.getElementById('data').textContent);
const S = D.strings, KEYS = D.keys, OUT = D.outcomes, ST = D.states, DIFF = D.kind === 'diff';
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const fmt = (n) => n.toLocaleString('en-US');
const outcomeOf = (state) => ST[state][0];
// One record per operator: its states per key (coverage: [now], diff: [before, after]).
const rows = D.rows.map((r, i) => ({ i, name: r[0], note: r[1], schema: r[2], states: r.slice(3), el: null }));
const last = (r) => r.states[r.states.length - 1];
for (const r of rows) {
  let n = 0;
  for (const s of last(r)) if (s >= 0 && (DIFF || OUT[outcomeOf(s)].works)) n++;
  r.score = n;
}

document.title = D.title + ' \u2014 ' + D.subtitle;
$('title').textContent = D.title;
$('subtitle').textContent = D.subtitle;

// Header: operator, works (or changed), one rotated column per key.
document.documentElement.style.setProperty('--keys', KEYS.length);
// Rotated key names: the header is as tall as the longest one.
document.documentElement.style.setProperty('--key-height', Math.max(40, 10 + 7.2 * Math.max(0, ...KEYS.map((k) => k.length))) + 'px');
if (DIFF) $('subtitle').textContent += '  \u00b7  each cell: before (upper left) \u2192 after (lower right)';
$('keys').innerHTML = '<div class="name"><button data-sort="name">operator</button></div>' +
  '<div class="works" data-sort="score" title="' + (DIFF ? 'changed cells' : 'keys whose row works') + '">' +
  (DIFF ? 'changed' : 'works') + '</div>' +
  KEYS.map((k, j) => '<div class="k" data-sort="' + j + '" data-key="' + j + '"><span>' + esc(k) + '</span></div>').join('');

const onlySelect = $('only');
onlySelect.innerHTML += OUT.map((o, i) => '<option value="' + i + '">rows with ' + esc(o.label) + '</option>').join('');

// Diff: a changed cell whose outcome (so colour) stayed, e.g. one C++ kernel
// replaced by another: the kernel changed, which the colours cannot show.
const kernelOnly = (r, j) => r.states[0][j] >= 0 && r.states[1][j] >= 0 &&
  outcomeOf(r.states[0][j]) === outcomeOf(r.states[1][j]);
const KC_LABEL = 'kernel changed, same outcome';

function cellHtml(r, j) {
  if (!DIFF) return '<i class="c' + outcomeOf(r.states[0][j]) + '"></i>';
  const a = r.states[0][j], b = r.states[1][j];
  if (a < 0 && b < 0) return '<i></i>';
  return '<i class="d' + (kernelOnly(r, j) ? ' kc' : '') + '" style="--a:var(--c' + outcomeOf(a) + ');--b:var(--c' +
    outcomeOf(b) + ')"></i>';
}

// Diff: the operators only one side has, listed above the matrix.
if (DIFF) {
  const lists = [['added', 'only in the new registry', D.added || []], ['removed', 'only in the old registry', D.removed || []]];
  const html = lists.filter((l) => l[2].length).map(([what, where, names]) =>
    '<details class="' + what + '"' + (names.length <= 40 ? ' open' : '') + '><summary>' + fmt(names.length) +
    ' operator' + (names.length === 1 ? '' : 's') + ' ' + what + ' <span class="where">(' + where + ')</span></summary><ul>' +
    names.map((n) => '<li>' + esc(n) + '</li>').join('') + '</ul></details>').join('');
  $('opchanges').innerHTML = html;
  $('opchanges').hidden = !html;
}

// Coverage: what to implement at each backend column, forward then backward,
// the operators that unblock the most of the page's rows first (report's analysis).
// Open on a backend's page (an operator set); on a whole registry's the matrix comes first.
if (!DIFF && D.implement) {
  const list = (what, needs, total) => !needs.length ? '' :
    '<div class="' + what + '"><strong>' + what + '</strong> (' + fmt(total) + ')<ol>' + needs.map((n) =>
      '<li' + (n.in_set ? '' : ' class="outside" title="not one of this page\'s operators"') + '>' +
      (n.in_set ? '<a href="#' + esc(n.op) + '">' + esc(n.op) + '</a>' : esc(n.op)) +
      ' <span class="n">unblocks ' + fmt(n.unblocks) + ' row' + (n.unblocks === 1 ? '' : 's') + '</span></li>').join('') +
    '</ol>' + (total > needs.length ? '<p class="more">' + fmt(total - needs.length) + ' more (--format json)</p>' : '') +
    '</div>';
  const html = D.implement.filter((k) => k.forward.length || k.backward.length).map((k) =>
    '<details data-key="' + esc(k.key) + '"' + (rows.length <= 1000 ? ' open' : '') + '><summary>What to implement at ' +
    esc(k.key) + ' <span class="where">(' + fmt(k.rows_needing) + ' of ' + fmt(k.operators) +
    ' operators need something at ' + esc(k.key) + ' forward; backward recorded for ' + fmt(k.backward_recorded) +
    ')</span></summary>' + list('forward', k.forward, k.forward_total) + list('backward', k.backward, k.backward_total) +
    '</details>').join('');
  $('implement').innerHTML = html;
  $('implement').hidden = !html;
}

// Rows live in chunks of CHUNK displayed rows, each laid out only near the
// viewport; filtered-out rows wait in a display: none parking lot. Filtering
// and sorting move rows between them instead of hiding rows in place, so no
// chunk is ever empty but displayed (a pile of empty chunks at one spot would
// all count as on screen and be laid out).
const CHUNK = 64, ROW_HEIGHT = 18;
const body = $('rows');
const parking = document.createElement('div');
parking.hidden = true;
body.after(parking);
let chunks = [];
let order = rows.slice();  // the sort order

// Building 65,000 cells is most of the load time: the first chunks are built
// at once, the rest in slices after the first paint; anything that needs
// every row (filter, sort, an anchor) finishes the build first.
const CHUNK_COUNT = Math.ceil(rows.length / CHUNK);
let built = 0;
function build(upto) {
  if (upto <= built) return;
  const html = [];
  for (let c = built; c < upto; c++) {
    html.push('<div class="chunk">');
    for (const r of rows.slice(c * CHUNK, (c + 1) * CHUNK)) {
      let cells = '';
      for (let j = 0; j < KEYS.length; j++) cells += cellHtml(r, j);
      const id = esc(r.name);
      html.push('<div class="r g" id="' + id + '" data-i="' + r.i + '"><a href="#' + id + '" title="' + id + '">' + id +
        '</a><span class="n">' + r.score + '</span>' + cells + '</div>');
    }
    html.push('</div>');
  }
  body.insertAdjacentHTML('beforeend', html.join(''));
  chunks = [...body.children];
  for (let c = built; c < upto; c++) for (const el of chunks[c].children) rows[Number(el.dataset.i)].el = el;
  built = upto;
}
const finishBuild = () => build(CHUNK_COUNT);

// Show `visible` (in order) in the chunks, park the other rows.
function place(visible) {
  const shown = new Uint8Array(rows.length);
  for (const r of visible) shown[r.i] = 1;
  for (let c = 0; c < chunks.length; c++) {
    const part = visible.slice(c * CHUNK, (c + 1) * CHUNK), chunk = chunks[c];
    const same = part.length === chunk.children.length && part.every((r, k) => chunk.children[k] === r.el);
    if (!same) {
      const frag = document.createDocumentFragment();
      for (const r of part) frag.appendChild(r.el);
      chunk.replaceChildren(frag);
    }
    chunk.hidden = part.length === 0;
    // An off-screen chunk is not laid out: it is as tall as its rows.
    chunk.style.containIntrinsicSize = 'auto ' + part.length * ROW_HEIGHT + 'px';
  }
  const frag = document.createDocumentFragment();
  for (const r of rows) if (!shown[r.i] && r.el.parentNode !== parking) frag.appendChild(r.el);
  parking.appendChild(frag);
}

// Per-key totals over the visible rows, and the legend's counts.
function totals(visible) {
  const perKey = KEYS.map(() => new Array(OUT.length).fill(0));
  const all = new Array(OUT.length).fill(0);
  let kernelChanges = 0;
  for (const r of visible) {
    const s = last(r);
    for (let j = 0; j < KEYS.length; j++) {
      if (s[j] < 0) continue;
      const o = outcomeOf(s[j]);
      perKey[j][o]++; all[o]++;
      if (DIFF && kernelOnly(r, j)) kernelChanges++;
    }
  }
  state.perKey = perKey;
  const n = visible.length;
  $('totals').innerHTML = '<div class="name">' + (DIFF ? 'changed cells per key' : '% of rows that work') + '</div><div></div>' +
    perKey.map((c, j) => {
      const works = DIFF ? c.reduce((a, b) => a + b, 0) : c.reduce((a, b, o) => a + (OUT[o].works ? b : 0), 0);
      const p = n ? Math.round(100 * works / n) : 0;
      return '<div data-key="' + j + '" style="--p:' + (DIFF ? 0 : p) + '%">' + (DIFF ? works : p) + '</div>';
    }).join('');
  $('legend').innerHTML = OUT.map((o, i) => '<li data-o="' + i + '" class="' + (state.only === String(i) ? 'on' : '') +
    '"><span class="sw c' + i + '"></span>' + esc(o.label) + ' <span class="count">' + fmt(all[i]) + '</span></li>').join('') +
    (DIFF ? '<li class="kc-legend" title="the cell\'s kernel changed but its outcome, so its colour, did not">' +
      '<span class="sw kc"></span>' + KC_LABEL + ' <span class="count">' + fmt(kernelChanges) + '</span></li>' : '');
}

const state = { filter: '', only: '', sort: 'name', up: true, pinned: null, perKey: [] };

function matcher(text) {
  text = text.trim();
  if (!text) return () => true;
  if (/[*?]/.test(text)) {
    const re = new RegExp('^' + text.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', 'i');
    return (name) => re.test(name);
  }
  const lower = text.toLowerCase();
  return (name) => name.toLowerCase().includes(lower);
}

function apply() {
  finishBuild();
  const match = matcher(state.filter);
  const only = state.only === '' ? -1 : Number(state.only);
  const visible = [];
  for (const r of order) {
    let show = match(r.name);
    if (show && only >= 0) {
      show = false;
      for (const s of last(r)) if (s >= 0 && outcomeOf(s) === only) { show = true; break; }
    }
    if (show) visible.push(r);
  }
  place(visible);
  summarize(visible);
  return visible.length;
}

function summarize(visible) {
  $('status').textContent = 'showing ' + fmt(visible.length) + ' of ' + fmt(rows.length) + ' operators \u00d7 ' + KEYS.length + ' keys';
  $('empty').hidden = visible.length > 0;
  totals(visible);
}

function sortBy(what) {
  state.up = state.sort === what ? !state.up : true;
  state.sort = what;
  const dir = state.up ? 1 : -1;
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  let cmp;
  if (what === 'name') cmp = (a, b) => dir * byName(a, b);
  else if (what === 'score') cmp = (a, b) => dir * (a.score - b.score) || byName(a, b);
  else {
    const j = Number(what);
    const rank = (r) => (last(r)[j] < 0 ? -1 : outcomeOf(last(r)[j]));
    cmp = (a, b) => dir * (rank(b) - rank(a)) || byName(a, b);
  }
  order = rows.slice().sort(cmp);
  apply();
  for (const el of $('keys').children) {
    el.classList.toggle('sorted', el.dataset.sort === String(what) && el.classList.contains('k'));
    el.classList.toggle('up', !state.up);
  }
}

function stateHtml(label, key, s) {
  if (s < 0) return '<div class="state"><div class="what">' + label + 'unchanged</div></div>';
  const [o, tail, why, origin] = ST[s];
  const line = tail < 0 ? '(no line: _dispatch_dump_table prints nothing for a missing row)' : key + ': ' + S[tail];
  return '<div class="state"><div class="what">' + label + '<span class="sw c' + o + '"></span>' + esc(OUT[o].label) + '</div>' +
    '<div>' + esc(S[why]) + '</div>' +
    (origin >= 0 ? '<div class="origin">loaded from ' + esc(S[origin]) + '</div>' : '') +
    '<pre class="line">' + esc(line) + '</pre></div>';
}

function showCell(r, j, pin) {
  const panel = $('panel');
  const key = KEYS[j];
  let html = '<h2>' + esc(r.name) + ' \u00b7 ' + esc(key) + '</h2>' +
    (r.schema >= 0 ? '<p class="schema">' + esc(S[r.schema]) + '</p>' : '');
  if (DIFF && kernelOnly(r, j))
    html += '<div class="kc-note"><span class="sw kc"></span>' + KC_LABEL + ': ' + esc(OUT[outcomeOf(r.states[1][j])].label) + ' before and after</div>';
  if (DIFF) html += stateHtml('before: ', key, r.states[0][j]) + stateHtml('after: ', key, r.states[1][j]);
  else html += stateHtml('', key, r.states[0][j]);
  html += '<div class="hint">' + (pin ? 'pinned; Esc or click it again to unpin' : 'click to pin') + '</div>';
  panel.innerHTML = html;
  panel.hidden = false;
  panel.classList.toggle('pinned', pin);
  panel.dataset.op = r.name;
  panel.dataset.key = key;
}

function showKey(j) {
  const c = state.perKey[j] || [];
  $('panel').innerHTML = '<h2>' + esc(KEYS[j]) + '</h2><table>' +
    OUT.map((o, i) => '<tr><td><span class="sw c' + i + '"></span></td><td>' + esc(o.label) + '</td><td>' + fmt(c[i] || 0) + '</td></tr>').join('') +
    '</table><div class="hint">click the column to sort by outcome</div>';
  $('panel').hidden = false;
  $('panel').classList.remove('pinned');
}

function cellAt(target) {
  const cell = target.closest('i');
  if (!cell || !cell.parentElement.classList.contains('r')) return null;
  const j = [...cell.parentElement.children].indexOf(cell) - 2;
  return { td: cell, r: rows[Number(cell.parentElement.dataset.i)], j };
}

body.addEventListener('mouseover', (e) => {
  if (state.pinned) return;
  const c = cellAt(e.target);
  if (c) showCell(c.r, c.j, false);
});
body.addEventListener('click', (e) => {
  const c = cellAt(e.target);
  if (!c) return;
  if (state.pinned) state.pinned.classList.remove('sel');
  if (state.pinned === c.td) { state.pinned = null; showCell(c.r, c.j, false); return; }
  state.pinned = c.td;
  c.td.classList.add('sel');
  showCell(c.r, c.j, true);
});
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !state.pinned) return;
  state.pinned.classList.remove('sel');
  state.pinned = null;
  $('panel').hidden = true;
});
$('keys').addEventListener('click', (e) => {
  const th = e.target.closest('[data-sort]');
  if (th) sortBy(th.dataset.sort === 'name' || th.dataset.sort === 'score' ? th.dataset.sort : Number(th.dataset.sort));
});
for (const id of ['keys', 'totals'])
  $(id).addEventListener('mouseover', (e) => {
    const el = e.target.closest('[data-key]');
    if (el && !state.pinned) showKey(Number(el.dataset.key));
  });
$('filter').addEventListener('input', (e) => { state.filter = e.target.value; apply(); });
onlySelect.addEventListener('change', (e) => { state.only = e.target.value; apply(); });
$('legend').addEventListener('click', (e) => {
  const li = e.target.closest('li');
  if (!li || li.dataset.o === undefined) return;
  state.only = state.only === li.dataset.o ? '' : li.dataset.o;
  onlySelect.value = state.only;
  apply();
});

function goToHash() {
  const name = decodeURIComponent(location.hash.slice(1));
  if (name) finishBuild();
  for (const el of body.querySelectorAll('.r.hit')) el.classList.remove('hit');
  const el = name && document.getElementById(name);
  if (!el || !el.classList.contains('r')) return;
  if (el.parentNode === parking) { state.filter = ''; $('filter').value = ''; state.only = ''; onlySelect.value = ''; apply(); }
  el.classList.add('hit');
  el.scrollIntoView({ block: 'center' });
}
window.addEventListener('hashchange', goToHash);

build(Math.min(2, CHUNK_COUNT));
summarize(rows);
goToHash();
// For the browser test and the curious: how long the first render took, and a filter hook.
window.dispatchctlReport = {
  firstRenderMs: performance.now(),
  fullRenderMs: 0,
  // Resolves when every row is in the DOM.
  ready: new Promise((resolve) => {
    const step = () => {
      build(Math.min(CHUNK_COUNT, built + 4));
      if (built < CHUNK_COUNT) return setTimeout(step, 0);
      window.dispatchctlReport.fullRenderMs = performance.now();
      resolve(rows.length);
    };
    setTimeout(step, 0);
  }),
  rows: rows.length,
  keys: KEYS.length,
  filter(text, only) {
    const t0 = performance.now();
    state.filter = text; $('filter').value = text;
    state.only = only === undefined ? '' : String(only); onlySelect.value = state.only;
    const n = apply();
    void document.body.offsetHeight;  // include style and layout
    return { visible: n, ms: performance.now() - t0 };
  },
  sort(what) { const t0 = performance.now(); sortBy(what); void document.body.offsetHeight; return performance.now() - t0; },
};
})();
