// The explorer page: reads its state from the URL, asks mmsim's engine (mmsim.js, WebAssembly,
// explorer/explorer_api.h) for the figures, and draws them. Every number on the page comes from
// the engine; this file only lays them out.
'use strict';

const $ = (id) => document.getElementById(id);
let engine = null;  // the WebAssembly module once loaded

// ---- state in the URL -------------------------------------------------------------------------

// Keys of older links, read as the names the page (and the command line) use now.
const ALIASES = { warps: 'warp', bytes: 'element-bytes', tile_warp: 'tile-warp' };

// The query read by hand: each name and value percent-decoded, and nothing else. A '+' is a plus
// sign, as an address expression means it (lane*9+warp); URLSearchParams would read it as a space,
// the convention of HTML forms, which this page's addresses never use.
function urlState() {
  const state = {};
  for (const pair of location.search.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const decode = (s) => {
      try {
        return decodeURIComponent(s);
      } catch (e) {
        state.badPercent = s;
        return s;
      }
    };
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    state[ALIASES[key] || key] = eq < 0 ? '' : decode(pair.slice(eq + 1));
  }
  state.view = state.view || 'access';
  return state;
}

// Each value percent-encoded, but for the characters that read well on a slide and mean nothing
// else in a query: , ; + : / ^ | and those encodeURIComponent keeps (( ) * ! ' ~).
const encodePart = (s) =>
  encodeURIComponent(s).replace(/%(2C|3B|2B|3A|2F|5E|7C)/g, (m) => decodeURIComponent(m));

// Each state its own entry, so that back and forward work; `replace`: the same entry (stepping
// through the pipeline's time units, which would otherwise fill the history).
function setUrl(state, replace = false) {
  const text = Object.entries(state)
    .filter(([k, v]) => v !== '' && v !== undefined && k !== 'badPercent')
    .map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`)
    .join('&');
  if (replace) history.replaceState(null, '', '?' + text);
  else history.pushState(null, '', '?' + text);
}

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = !message;
}

// Parses the engine's answer; a refusal is shown on the page and returns null.
function ask(text) {
  const answer = JSON.parse(text);
  if (answer && answer.error) {
    showError(answer.error);
    return null;
  }
  return answer;
}

function el(tag, attrs = {}, text = '') {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== '') e.textContent = text;
  return e;
}

// A colour per bank, slot or group: evenly spaced hues.
const hue = (i, n) => `hsl(${Math.round((360 * i) / Math.max(1, n))} 70% 75%)`;

// A field with a data-default goes back to it when the state leaves it out, and is left out of the
// URL while it holds it.
function fillForm(form, state) {
  for (const input of form.elements) {
    if (!input.name) continue;
    if (state[input.name] !== undefined) input.value = state[input.name];
    else if (input.dataset.default !== undefined) input.value = input.dataset.default;
    else input.value = '';
  }
}

function formState(form, view) {
  const state = { view };
  for (const input of form.elements)
    if (input.name && !input.disabled && input.value !== '' && input.value !== input.dataset.default)
      state[input.name] = input.value;
  return state;
}

// ---- SVG downloads ----------------------------------------------------------------------------

// A figure drawn in HTML (a table of coloured cells) as an SVG picture of what the page shows: a
// rectangle per cell or chip with its colour, border and outline, and its text line by line where
// the browser put it.
function htmlSvg(node) {
  const box = node.getBoundingClientRect();
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const n = (v) => Math.round(v * 10) / 10;
  const out = [];
  const visible = (c) => c && c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c);
  for (const e of [node, ...node.querySelectorAll('*')]) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const cs = getComputedStyle(e);
    const x = r.left - box.left, y = r.top - box.top;
    const border = parseFloat(cs.borderTopWidth);
    if (visible(cs.backgroundColor) || (border > 0 && visible(cs.borderTopColor)))
      out.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(r.width)}" height="${n(r.height)}" ` +
               `fill="${visible(cs.backgroundColor) ? cs.backgroundColor : 'none'}"` +
               (border > 0 ? ` stroke="${cs.borderTopColor}" stroke-width="${border}"` : '') + '/>');
    const outline = parseFloat(cs.outlineWidth);
    if (cs.outlineStyle !== 'none' && outline > 0) {
      const inset = -parseFloat(cs.outlineOffset || '0') - outline / 2;
      out.push(`<rect x="${n(x + inset)}" y="${n(y + inset)}" width="${n(r.width - 2 * inset)}" ` +
               `height="${n(r.height - 2 * inset)}" fill="none" stroke="${cs.outlineColor}" stroke-width="${outline}"/>`);
    }
  }
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const cs = getComputedStyle(t.parentElement);
    const lines = new Map();  // words grouped by the line the browser put them on
    for (const m of t.data.matchAll(/\S+/g)) {
      range.setStart(t, m.index);
      range.setEnd(t, m.index + m[0].length);
      const r = range.getBoundingClientRect();
      if (!r.width) continue;
      const key = Math.round(r.top);
      if (!lines.has(key)) lines.set(key, { x: r.left, top: r.top, bottom: r.bottom, words: [] });
      lines.get(key).words.push(m[0]);
    }
    for (const l of lines.values())
      out.push(`<text x="${n(l.x - box.left)}" y="${n((l.top + l.bottom) / 2 - box.top)}" dominant-baseline="central" ` +
               `font-family="${esc(cs.fontFamily).replace(/"/g, "'")}" ` +
               `font-size="${cs.fontSize}" font-weight="${cs.fontWeight}" font-style="${cs.fontStyle}" ` +
               `fill="${cs.color}" xml:space="preserve">${esc(l.words.join(' '))}</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${n(box.width)}" height="${n(box.height)}" ` +
    `font-family="${esc(getComputedStyle(node).fontFamily).replace(/"/g, "'")}">\n` +
    '<rect width="100%" height="100%" fill="white"/>\n' + out.join('\n') + '\n</svg>\n';
}

// Every figure's "SVG download" button: `svg` gives the picture's text when pressed.
const downloads = new Map();  // figure id -> () => SVG text (window.figureSvg reads it, for tests)

function downloadButton(id, name, svg) {
  downloads.set(id, svg);
  const b = el('button', { type: 'button', class: 'download', 'data-figure': id }, '⤓ SVG download');
  b.addEventListener('click', () => {
    const url = URL.createObjectURL(new Blob([svg()], { type: 'image/svg+xml' }));
    const a = el('a', { href: url, download: name + '.svg' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  return b;
}

window.figureSvg = (id) => (downloads.has(id) ? downloads.get(id)() : null);

// Puts a download button for the figure in `box` (an engine SVG, else the HTML drawn there) above it.
function withDownload(box, name, engineSvg) {
  const bar = el('div', { class: 'figure-bar' });
  bar.append(downloadButton(box.id, name, engineSvg ? () => engineSvg : () => htmlSvg(box.querySelector('table') || box)));
  box.prepend(bar);
}

// Puts an SVG of the engine's into `box`, scaled to the box's width (its size becomes a viewBox).
function placeSvg(box, svg, name) {
  box.innerHTML = svg;
  const pic = box.querySelector('svg');
  if (pic && !pic.getAttribute('viewBox') && pic.getAttribute('width') && pic.getAttribute('height'))
    pic.setAttribute('viewBox', `0 0 ${parseFloat(pic.getAttribute('width'))} ${parseFloat(pic.getAttribute('height'))}`);
  if (name) withDownload(box, name, svg);
}

// ---- access view ------------------------------------------------------------------------------

let access = null;  // the last answer, for stepping
let now = 0;
let timer = null;

// The warps field says the access one way, the address or the cells another: while either of those
// is given the warps field is emptied and disabled, so the form never holds two at once.
function syncWarpField() {
  const f = $('form-access').elements;
  const other = f.addr.value.trim() !== '' || f.cell.value.trim() !== '';
  if (other && f.warp.value !== '') {
    f.warp.dataset.kept = f.warp.value;
    f.warp.value = '';
  } else if (!other && f.warp.disabled && f.warp.value === '') {
    f.warp.value = f.warp.dataset.kept || f.warp.dataset.default;
  }
  f.warp.disabled = other;
}

function renderAccess(state) {
  // The bare page and ?view=access show KNI Fig. 2 (the warps' field's default): warps are taken
  // from it unless the state poses the access another way (addresses or a layout).
  const posed = state.warp !== undefined || state.addr !== undefined || state.layout !== undefined ||
    state.cell !== undefined;
  const warps = posed ? state.warp || '' : $('form-access').elements.warp.dataset.default;
  syncWarpField();
  const r = ask(engine.access(state.model || 'dmm', state.w || '4', state.l || '5', warps,
                              state.addr || '', state.layout || '', state.cell || '', state.threads || '',
                              state.seed || '', state['element-bytes'] || '', state.vector || '', state.op || '',
                              state.reg || '', state['tile-warp'] || ''));
  access = r;
  if (!r) return;
  $('time-units').textContent = r.time_units;
  $('warp-slots').textContent = r.slots.join(',');
  $('warp-congestion').textContent = r.warps.map((v) => (r.model === 'dmm' ? v.congestion : v.slots)).join(',');
  $('access-posed').textContent = r.posed + (r.layout ? ' — ' + r.layout : '');
  drawAccessGrid(r);
  if (r.element_bytes !== undefined) describePhases(r);
  drawTile(r);
  // The whole diagram first, unless the address names a time unit; play and step go through it.
  now = r.time_units - 1;
  if (state.time !== undefined) {
    if (!/^\d+$/.test(state.time) || Number(state.time) >= r.time_units)
      return showError(`time: must be an integer in [0, ${r.time_units - 1}] (got '${state.time}')`);
    now = Number(state.time);
  }
  drawPipeline();
}

// The tile view of a layout's access: the engine's picture, as `mmsim access --svg` writes it.
function drawTile(r) {
  $('tile-section').hidden = r.tile_svg === undefined;
  if (r.tile_svg === undefined) return;
  if (r.tile_svg === null) {
    $('tile').append(el('p', { class: 'note' }, 'tile view left out: a matrix wider than 64 is too large to draw here ' +
                        '(mmsim access --svg draws it)'));
    return;
  }
  placeSvg($('tile'), r.tile_svg, 'mmsim-tile');
}

// A border colour per phase of a warp (element widths and vectors: docs/model.md, "Real accesses").
const phaseColour = (p, n) => `hsl(${Math.round((360 * p) / Math.max(1, n)) + 200} 60% 35%)`;

// Each request of thread t as [unit, slot, part]: its bank or group and the slot that carries it.
// The papers' access has one; a real access (element widths, vectors, atomics) one per 4-byte word
// (DMM) or address group (UMM) of its bytes.
function requests(t, r) {
  if (r.element_bytes === undefined) return [[r.model === 'dmm' ? t.bank : t.group, t.slot, 0]];
  const words = r.model === 'dmm' ? t.words : t.groups;
  return words.map((x, k) => [r.model === 'dmm' ? x % r.w : x, t.word_slots[k] ?? t.word_slots[0], k]);
}

function chipTitle(t, r) {
  if (r.element_bytes === undefined) return `T${t.thread}, address ${t.address}, slot ${t.slot}`;
  const dmm = r.model === 'dmm';
  const words = dmm ? t.words : t.groups;
  return `thread ${t.thread}, address ${t.address}, bytes ${t.bytes[0]}-${t.bytes[1]}, ` +
    (dmm ? `words ${words.join(',')} (banks ${words.map((x) => x % r.w).join(',')}), phase ${t.phase}, `
         : `groups ${words.join(',')}, `) + `slots ${t.word_slots.join(',')}`;
}

// Slot s of warp k as `mmsim access` names it: W0a, W0b, ... (W0.27 once a warp has more than 26).
function slotNamer(r) {
  const numeric = r.slots.some((s) => s > 26);
  return (warp, slot) => `W${warp}${numeric ? '.' + slot : slot >= 26 ? slot : String.fromCharCode(97 + slot)}`;
}

// One row per warp: the banks (DMM) or the groups it touches (UMM), each request placed in its
// bank or group and coloured by the slot that carries it; in a real access framed by its phase.
// Banks no request reaches stay narrow, so that w = 32 banks fit a 1400-px page.
function drawAccessGrid(r) {
  const dmm = r.model === 'dmm';
  const shaped = r.element_bytes !== undefined;
  const slotsMax = Math.max(1, ...r.slots);
  const table = el('table', { class: 'grid' });
  for (const v of r.warps) {
    const active = v.threads.filter((t) => t.address !== null);
    let units;
    if (dmm) units = v.requests_per_bank.map((n, b) => [b, n]);
    else if (!shaped) units = v.requests_per_group.map((g) => [g.group, g.requests]);
    else {  // the groups in the order of their first slot
      const first = new Map();
      for (const t of active) for (const [g, s] of requests(t, r)) if (!first.has(g) || s < first.get(g)) first.set(g, s);
      units = [...first].sort((a, b) => a[1] - b[1]);
    }
    // The warp's line as `mmsim access` prints it, above its banks (or groups) and their requests.
    const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const says = `W(${v.warp}): ${plural(v.slots, 'slot')}` +
      (!dmm ? `, one per address group${v.slots === 1 ? ' (coalesced)' : ''}`
            : `, congestion ${v.congestion}` +
              (v.congestion === 1 ? ' (conflict-free)'
                                  : `, set by bank${v.congested_banks.length > 1 ? 's' : ''} ${v.congested_banks.join(', ')}`));
    const line = el('tr');
    line.append(el('th', { class: 'warp-says', colspan: units.length + 1 }, says));
    const head = el('tr');
    head.append(el('th', { class: 'warp' }, dmm ? 'bank' : 'group'));
    for (const [u] of units) {
      const th = el('th', { title: (dmm ? 'bank ' : 'address group ') + u }, String(u));
      if (dmm && v.congestion > 1 && v.congested_banks.includes(u)) th.classList.add('congested');
      head.append(th);
    }
    const row = el('tr');
    row.append(el('th', { class: 'warp' }, 'requests'));
    for (const [u] of units) {
      const td = el('td');
      for (const t of active)
        for (const [unit, slot, part] of requests(t, r)) {
          if (unit !== u) continue;
          // The address alone, so that 32 banks of 4-digit addresses fit across the page; the
          // title says the rest (the thread, the part of a wide access, the merge).
          const title = chipTitle(t, r) + (shaped && requests(t, r).length > 1 ? `, part ${part}` : '') +
            (t.merged_with === null ? '' : `, merged with T${t.merged_with}`);
          const chip = el('span', { class: 'chip', title }, String(t.address));
          chip.style.background = hue(slot, slotsMax);
          if (t.merged_with !== null) chip.classList.add('merged');
          if (shaped && dmm) {
            chip.classList.add('phased');
            chip.dataset.phase = t.phase;
            chip.style.borderColor = phaseColour(t.phase, v.phases.length);
          }
          td.append(chip);
        }
      if (!td.childElementCount) {
        td.classList.add('empty');
        head.children[row.children.length].classList.add('empty');
      }
      if (dmm && v.congestion > 1 && v.congested_banks.includes(u)) td.classList.add('congested');
      row.append(td);
    }
    table.append(line, head, row);
  }
  // Wider than the page only beyond w = 32 (or with addresses of 5 digits and more): then the grid
  // scrolls, never the page.
  $('access-grid').append(el('div', { class: 'scroll' }));
  $('access-grid').lastChild.append(table);
  if (r.warps.some((v) => v.threads.some((t) => t.merged_with !== null)))
    $('access-grid').append(el('p', { class: 'note' }, 'Faded, in italics: a request merged with an earlier ' +
                               "thread's request for the same address (its title names the thread)."));
  withDownload($('access-grid'), 'mmsim-access');
}

// The line under the grid of a real access: what each thread moves, and per warp its phases (DMM)
// with the slots of each.
function describePhases(r) {
  const box = $('access-phases');
  box.append(`${r.op} of ${r.vector} element${r.vector === 1 ? '' : 's'} of ${r.element_bytes} bytes a thread. `);
  if (r.model !== 'dmm') {
    box.append('A warp takes one slot per address group its bytes touch' +
               (r.op.startsWith('atomic') ? ', and repeats it for the threads on one address.' : '.'));
    return;
  }
  for (const v of r.warps) {
    const line = el('span', {}, ` W(${v.warp}): ${v.phases.length} phase${v.phases.length === 1 ? '' : 's'} of ` +
                    `${v.phases[0] ? v.phases[0].threads : 0} threads${v.fused_pairs ? ' (pairs fused)' : ''} `);
    v.phases.forEach((p, k) => {
      const tag = el('span', { class: 'phase' }, `T${p.first_thread}-T${p.first_thread + p.threads - 1}`);
      tag.style.borderColor = phaseColour(k, v.phases.length);
      line.append(tag, ' ');
    });
    line.append('slots per phase ', el('b', { class: 'phase-slots' }, v.phases.map((p) => p.slots).join(',')), '.');
    box.append(line);
  }
}

// Rows: pipeline stages st1 .. stl; columns: time units. A slot entering at t is in stage s at
// t + s - 1, as `mmsim access` draws it (its rows are the time units).
function drawPipeline() {
  const r = access;
  const box = $('pipeline');
  box.textContent = '';
  if (!r) return;
  const latency = r.latency;
  // A table of latency x time units cells: at l = 5000 that is 25 million, which no browser lays
  // out. As `mmsim access` does, the diagram is drawn only while it fits; the slots, the time units
  // and the events of each time unit are shown either way.
  if (latency * r.time_units > 200000) {
    box.append(el('p', { class: 'note', id: 'pipeline-left-out' },
                  `pipeline diagram left out: ${latency} stages x ${r.time_units} time units is too large to draw`));
  } else {
    drawPipelineTable(r, box);
    withDownload(box, 'mmsim-pipeline');
  }
  $('time-now').textContent = now;
  const name = slotNamer(r);
  const entering = r.trace.filter((e) => e.enter === now);
  const done = r.trace.filter((e) => e.complete === now);
  const say = (list, verb) => list.map((e) => `${name(e.warp, e.slot)} (m[${e.requests.join('] m[')}]) ${verb}`);
  $('time-events').textContent =
    [...say(entering, 'enters'), ...say(done, 'completes')].join('; ') || 'nothing enters or completes';
}

function drawPipelineTable(r, box) {
  const latency = r.latency;
  const name = slotNamer(r);
  const entered = new Map(r.trace.map((e) => [e.enter, e]));  // one slot enters per time unit
  const table = el('table', { class: 'pipeline' });
  const head = el('tr');
  head.append(el('th', {}, 'stage \\ time'));
  for (let t = 0; t < r.time_units; ++t) head.append(el('th', t === now ? { class: 'now' } : {}, String(t)));
  table.append(head);
  const slotsMax = Math.max(1, ...r.slots);
  for (let s = 0; s < latency; ++s) {
    const row = el('tr');
    row.append(el('th', {}, `st${s + 1}`));
    for (let t = 0; t < r.time_units; ++t) {
      const e = entered.get(t - s);
      const td = el('td', t === now ? { class: 'now' } : {});
      if (e && t <= now) {
        td.textContent = name(e.warp, e.slot);
        td.title = `${name(e.warp, e.slot)}: m[${e.requests.join('] m[')}]`;
        td.style.background = hue(e.slot, slotsMax);
      }
      row.append(td);
    }
    table.append(row);
  }
  box.append(el('div', { class: 'scroll' }));
  box.lastChild.append(table);
}

function step(by) {
  if (!access) return;
  now = Math.min(Math.max(0, now + by), Math.max(0, access.time_units - 1));
  // The time unit shown goes into the address too (left out at the last, the default).
  const state = urlState();
  if (now === access.time_units - 1) delete state.time;
  else state.time = String(now);
  setUrl(state, true);
  drawPipeline();
}

function play() {
  if (timer) {
    clearInterval(timer);
    timer = null;
    $('play').textContent = '▶ play';
    return;
  }
  if (access && now >= access.time_units - 1) now = -1;
  $('play').textContent = '❚❚ pause';
  timer = setInterval(() => {
    step(1);
    if (!access || now >= access.time_units - 1) play();
  }, 500);
}

// ---- layout view ------------------------------------------------------------------------------

function renderLayout(state) {
  const r = ask(engine.layout(state.layout || 'raw', state.w || '8', state.seed || ''));
  if (!r) return;
  const w = r.w;
  const show = state.show || 'row';
  if (!['row', 'column', 'diagonal'].includes(show)) return showError(`show: must be row, column or diagonal (got '${show}')`);
  const index = Number(state.index || '0');
  if (!/^\d+$/.test(state.index || '0') || index >= w) return showError(`index: must be an integer in [0, ${w - 1}]`);
  const inAccess = (i, j) => (show === 'row' ? i === index : show === 'column' ? j === index : j === (i + index) % w);
  const table = el('table', { class: 'layout' });
  const head = el('tr');
  head.append(el('th', {}, 'i \\ j'));
  for (let j = 0; j < w; ++j) head.append(el('th', {}, String(j)));
  table.append(head);
  for (let i = 0; i < w; ++i) {
    const row = el('tr');
    row.append(el('th', {}, String(i)));
    for (let j = 0; j < w; ++j) {
      const td = el('td', {}, String(r.banks[i][j]));
      td.style.background = hue(r.banks[i][j], w);
      if (inAccess(i, j)) td.classList.add('hit');
      row.append(td);
    }
    table.append(row);
  }
  if (w > 16) table.classList.add('small');
  if (w > 32) table.classList.add('smaller');
  $('layout-grid').append(table);
  withDownload($('layout-grid'), 'mmsim-layout');
  const a = r.by_index;
  for (let k = 0; k < w; ++k) {
    const tr = el('tr');
    tr.append(el('td', {}, String(k)));
    for (const kind of ['row', 'column', 'diagonal']) {
      const td = el('td', { title: `cell '${a[kind][k].cell}', set by bank ${a[kind][k].congested_banks.join(', ')}` },
                    String(a[kind][k].congestion));
      if (kind === show && k === index) td.classList.add('hit');
      tr.append(td);
    }
    $('layout-congestion').tBodies[0].append(tr);
  }
  for (const kind of ['row', 'column', 'diagonal'])
    $(kind + '-congestion').textContent = a[kind].map((x) => x.congestion).join(',');
  // `mmsim layout`'s table: w warps at once for each access, and beside an F2 layout's figures the
  // congestion read off its matrix's rank.
  if (r.accesses) {
    const f2 = r.accesses.some((x) => x.f2_rank_congestion !== undefined);
    const rows = r.accesses.map((x) => ({ ...x, cells: `(${x.cells})`, f2_rank: x.f2_rank_congestion ?? '-' }));
    stepsTable($('layout-accesses'), rows,
               ['access', 'cells', 'congestion', 'wavefronts', 'slots'].concat(f2 ? ['f2_rank'] : []));
    const head = $('layout-accesses').rows[0].cells;
    ["access", "thread t's cell", 'congestion', 'wavefronts', 'slots of all warps', 'from the F2 rank']
      .forEach((label, k) => k < head.length && (head[k].textContent = label));
  }
  const chosen = a[show][index];
  $('layout-described').textContent =
    `${r.description}. The highlighted ${show} ${index} is one warp reading cells ` +
    `(${chosen.cell}): congestion ${chosen.congestion}, set by bank ${chosen.congested_banks.join(', ')}.`;
}

// ---- run view ---------------------------------------------------------------------------------

let catalogue = [];

function paramInputs(algo, state) {
  const box = $('run-params');
  box.textContent = '';
  const entry = catalogue.find((a) => a.name === algo);
  if (!entry) return;
  for (const p of entry.parameters) {
    if (p.type === 'text' || p.type === 'matrix') continue;  // files: the command line's
    // Labelled as `mmsim run` spells the option (-n, -w, --perm); the URL keeps the parameter's name.
    const label = el('label', { title: `${p.flags}: ${p.help} [${p.rule}]` }, p.flags.split(',')[0] + ' ');
    let input;
    if (p.type === 'choice') {
      input = el('select', { name: p.name });
      input.append(el('option', { value: '' }, p.default ? `(${p.default})` : '–'));
      for (const c of p.choices) input.append(el('option', {}, c));
    } else if (p.type === 'flag') {
      input = el('select', { name: p.name });
      input.append(el('option', { value: '' }, 'no'), el('option', { value: 'true' }, 'yes'));
    } else {
      input = el('input', { name: p.name, size: 6, placeholder: p.default || '' });
    }
    if (state[p.name] !== undefined) input.value = state[p.name];
    label.append(input);
    box.append(label);
  }
  $('run-about').textContent = `${entry.name}: ${entry.description} (${entry.paper}; on the ${entry.machine.toUpperCase()})`;
}

function stepsTable(table, rows, cols) {
  const head = el('tr');
  for (const c of cols) head.append(el('th', {}, c));
  table.append(head);
  for (const r of rows) {
    const tr = el('tr');
    for (const c of cols) tr.append(el('td', { class: c.replace(/_/g, '-') }, r[c] === null ? '' : String(r[c])));
    table.append(tr);
  }
}

function renderRun(state) {
  const algo = state.algo || 'd-designated';
  $('form-run').elements.algo.value = algo;
  paramInputs(algo, state);
  const params = Object.entries(state).filter(([k]) => k !== 'view' && k !== 'algo');
  // Each name and value percent-encoded: a '&' or '=' inside a value (a %26 in the address) stays
  // in that value and never sets another parameter; the engine decodes each after splitting.
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const r = ask(engine.run(algo, query));
  if (!r) return;
  const sync = r.round_synchronous;
  const async = r.asynchronous;
  $('run-time-units').textContent = sync.time_units;
  $('run-async-time-units').textContent = async ? async.time_units : 'not offered';
  $('run-correct').textContent = sync.correct && (!async || async.correct) ? 'correct' : 'NOT correct';
  stepsTable($('rounds'), sync.rounds,
             ['kernel', 'name', 'memory', 'op', 'slots', 'time_units', 'max_congestion', 'bank_conflicts']);
  $('time-axis').textContent = r.time_axis;
  placeSvg($('trace-sync'), r.svgs.round_synchronous, `mmsim-${algo}-round-synchronous`);
  $('trace-async-figure').hidden = !async;
  if (async) placeSvg($('trace-async'), r.svgs.asynchronous, `mmsim-${algo}-asynchronous`);
}

// A dropped file's text, handed to `use` with a name safe to show.
function readDropped(file, use) {
  const reader = new FileReader();
  reader.onload = () => use(String(reader.result), file.name.replace(/[^\w.\- ]/g, '_'));
  reader.readAsText(file);
}

function readTrace(file) {
  readDropped(file, (text, name) => {
    showError('');
    $('dropped').textContent = '';
    const r = ask(engine.trace(text, name));
    if (!r) return;
    const line = el('p', { class: 'note' }, `${name}: `);
    line.append(el('b', { id: 'dropped-slots' }, String(r.slots)), ' slots, ',
                el('b', { id: 'dropped-time-units' }, String(r.time_units)), ' time units, ',
                el('b', { id: 'dropped-rounds' }, String(r.rounds.length)), ' rounds',
                r.overlapping ? ' (asynchronous: rounds overlap)' : '');
    $('dropped').append(line);
    const pic = el('div', { id: 'dropped-trace' });
    $('dropped').append(pic);
    placeSvg(pic, r.svg, name.replace(/\.csv$/, ''));
  });
}

// ---- kernel view ------------------------------------------------------------------------------

// Kernel files are small (docs/kernel-files.md's examples are under 1 kB): the text goes in the
// URL, so a link holds the kernel too, up to this many characters.
const KERNEL_IN_URL = 16000;

function readKernel(file) {
  readDropped(file, (text, name) => {
    const state = { view: 'kernel', file: name };
    if (text.length <= KERNEL_IN_URL) state.kernel = text;
    setUrl(state);
    render(text);
  });
}

// The example kernel files (kernels.js, written when the page is built from examples/kernels/).
const EXAMPLES = typeof EXAMPLE_KERNELS === 'object' ? EXAMPLE_KERNELS : {};

function renderKernel(state, dropped) {
  let text = dropped !== undefined ? dropped : state.kernel;
  let name = state.file || 'kernel.json';
  if (state.example !== undefined && dropped === undefined) {
    if (!Object.hasOwn(EXAMPLES, state.example))
      return showError(`example: no example kernel file '${state.example}' (the page has ` +
                       `${Object.keys(EXAMPLES).join(', ')})`);
    text = JSON.stringify(EXAMPLES[state.example], null, 2);
    name = state.example;
  }
  if (text === undefined) return;
  if (dropped !== undefined && state.kernel === undefined)
    $('kernel-note').textContent = `${name} is too large to keep in the address (${text.length} characters); ` +
      'a link to this page will not hold it';
  const r = ask(engine.kernel(text, name));
  if (!r) return;
  $('kernel-source').textContent = r.source;
  $('kernel-machine').textContent = r.machine;
  $('kernel-time-units').textContent = r.time_units;
  stepsTable($('kernel-steps'), r.steps, ['kernel', 'step', 'array', 'memory', 'op', 'requests', 'warps', 'slots',
                                          'max_slots_of_a_warp', 'bank_conflicts', 'time_units']);
}

// ---- the page ---------------------------------------------------------------------------------

// Every element that holds a figure or a drawing, in every view.
const OUTPUTS = ['time-units', 'warp-slots', 'warp-congestion', 'access-posed', 'access-grid', 'access-phases',
                 'tile', 'pipeline', 'time-events', 'layout-described', 'layout-grid', 'row-congestion',
                 'column-congestion', 'diagonal-congestion', 'layout-accesses', 'run-about', 'run-time-units', 'run-async-time-units',
                 'run-correct', 'rounds', 'time-axis', 'trace-sync', 'trace-async', 'dropped', 'kernel-source',
                 'kernel-machine', 'kernel-time-units', 'kernel-steps', 'kernel-note'];

const views = {
  access: { form: 'form-access', render: renderAccess },
  layout: { form: 'form-layout', render: renderLayout },
  run: { form: 'form-run', render: renderRun },
  kernel: { form: 'form-kernel', render: renderKernel },
};

// `dropped`: a kernel file's text too large for the URL, read from the file just dropped.
function render(dropped) {
  showError('');
  const state = urlState();
  const view = views[state.view];
  // What another state drew goes, so the page never shows a figure of a state it is not in.
  for (const id of OUTPUTS) $(id).textContent = '';
  $('layout-congestion').tBodies[0].textContent = '';
  downloads.clear();
  document.body.dataset.ready = state.view;  // for tests: the figures (or the message) are on the page
  if (!view) {
    showError(`view: must be access, layout, run or kernel (got '${state.view}')`);
    return;
  }
  for (const name of Object.keys(views)) $('view-' + name).hidden = name !== state.view;
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.dataset.view === state.view);
  if (state.badPercent !== undefined) {
    showError(`the address has a '%' that is not %XX in '${state.badPercent}'`);
    return;
  }
  if (view.form) fillForm($(view.form), state);
  try {
    view.render(state, typeof dropped === 'string' ? dropped : undefined);
  } catch (e) {
    showError('The page could not show this state: ' + e.message);
  }
}

function dropZone(zone, input, use) {
  input.addEventListener('change', (ev) => ev.target.files[0] && use(ev.target.files[0]));
  zone.addEventListener('dragover', (ev) => ev.preventDefault());
  zone.addEventListener('drop', (ev) => {
    ev.preventDefault();
    if (ev.dataTransfer.files[0]) use(ev.dataTransfer.files[0]);
  });
}

function start() {
  catalogue = JSON.parse(engine.algorithms());
  const select = $('form-run').elements.algo;
  for (const a of catalogue) select.append(el('option', {}, a.name));
  select.addEventListener('change', () => {
    setUrl({ view: 'run', algo: select.value });
    render();
  });
  for (const name of Object.keys(EXAMPLES)) $('form-kernel').elements.example.append(el('option', {}, name));
  for (const [name, view] of Object.entries(views))
    if (view.form)
      $(view.form).addEventListener('submit', (ev) => {
        ev.preventDefault();
        setUrl(formState($(view.form), name));
        render();
      });
  for (const field of ['addr', 'cell']) $('form-access').elements[field].addEventListener('input', syncWarpField);
  for (const a of document.querySelectorAll('nav a'))
    a.addEventListener('click', (ev) => {
      ev.preventDefault();
      setUrl({ view: a.dataset.view });
      render();
    });
  $('step').addEventListener('click', () => step(1));
  $('step-back').addEventListener('click', () => step(-1));
  $('play').addEventListener('click', play);
  dropZone($('drop'), $('trace-file'), readTrace);
  dropZone($('kernel-drop'), $('kernel-file'), readKernel);
  window.addEventListener('popstate', () => render());
  $('status').textContent = '';
  render();
}

createMmsim()
  .then((m) => {
    engine = m;
    start();
  })
  .catch((e) => {
    $('status').textContent = '';
    showError('The engine could not be loaded: ' + e);
  });
