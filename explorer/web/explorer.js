// The explorer page: reads its state from the URL, asks mmsim's engine (mmsim.js, WebAssembly,
// explorer/explorer_api.h) for the figures, and draws them. Every number on the page comes from
// the engine; this file only lays them out.
'use strict';

const $ = (id) => document.getElementById(id);
let engine = null;  // the WebAssembly module once loaded

// ---- state in the URL -------------------------------------------------------------------------

function urlState() {
  const q = new URLSearchParams(location.search);
  const state = {};
  for (const [k, v] of q) state[k] = v;
  state.view = state.view || 'access';
  return state;
}

function setUrl(state) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(state)) if (v !== '' && v !== undefined) q.set(k, v);
  // Commas and semicolons stay readable in a link on a slide.
  const text = q.toString().replace(/%2C/g, ',').replace(/%3B/g, ';');
  history.pushState(null, '', '?' + text);  // each state its own entry: back and forward work
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
  }
}

function formState(form, view) {
  const state = { view };
  for (const input of form.elements)
    if (input.name && input.value !== '' && input.value !== input.dataset.default) state[input.name] = input.value;
  return state;
}

// ---- access view ------------------------------------------------------------------------------

let access = null;  // the last answer, for stepping
let now = 0;
let timer = null;

function renderAccess(state) {
  // The bare page and ?view=access show KNI Fig. 2 (the warps' field's default): warps are taken
  // from it unless the state poses the access another way (addresses or a layout).
  const posed = state.warps !== undefined || state.addr !== undefined || state.layout !== undefined;
  const warps = posed ? state.warps || '' : $('form-access').elements.warps.dataset.default;
  const r = ask(engine.access(state.model || 'dmm', state.w || '4', state.l || '5', warps,
                              state.addr || '', state.layout || '', state.cell || '', state.threads || '',
                              state.seed || '', state.bytes || '', state.vector || '', state.op || '',
                              state.reg || ''));
  access = r;
  for (const id of ['time-units', 'warp-slots', 'warp-congestion']) $(id).textContent = '';
  $('access-grid').textContent = '';
  $('access-phases').textContent = '';
  $('access-posed').textContent = '';
  $('pipeline').textContent = '';
  if (!r) return;
  $('time-units').textContent = r.time_units;
  $('warp-slots').textContent = r.slots.join(',');
  $('warp-congestion').textContent = r.warps.map((v) => (r.model === 'dmm' ? v.congestion : v.slots)).join(',');
  $('access-posed').textContent = r.posed + (r.layout ? ' — ' + r.layout : '');
  drawAccessGrid(r);
  if (r.element_bytes !== undefined) describePhases(r);
  now = r.time_units - 1;  // the whole diagram first; play and step go through it
  drawPipeline();
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
  if (r.element_bytes === undefined) return `thread ${t.thread}, address ${t.address}, slot ${t.slot}`;
  const dmm = r.model === 'dmm';
  const words = dmm ? t.words : t.groups;
  return `thread ${t.thread}, address ${t.address}, bytes ${t.bytes[0]}-${t.bytes[1]}, ` +
    (dmm ? `words ${words.join(',')} (banks ${words.map((x) => x % r.w).join(',')}), phase ${t.phase}, `
         : `groups ${words.join(',')}, `) + `slots ${t.word_slots.join(',')}`;
}

// One row per warp: the banks (DMM) or the groups it touches (UMM), each request placed in its
// bank or group and coloured by the slot that carries it; in a real access framed by its phase.
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
    const head = el('tr');
    head.append(el('th', {}, `warp ${v.warp}`));
    for (const [u] of units) {
      const th = el('th', {}, (dmm ? 'bank ' : 'group ') + u);
      if (dmm && v.congestion > 1 && v.congested_banks.includes(u)) th.classList.add('congested');
      head.append(th);
    }
    head.append(el('th', {}, dmm ? `congestion ${v.congestion}` : shaped ? `${v.slots} slots` : `${v.slots} groups`));
    const row = el('tr');
    row.append(el('td', {}, `${v.slots} slot${v.slots === 1 ? '' : 's'}`));
    for (const [u] of units) {
      const td = el('td');
      for (const t of active)
        for (const [unit, slot, part] of requests(t, r)) {
          if (unit !== u) continue;
          const label = (t.merged_with === null ? `${t.address}` : `${t.address}=t${t.merged_with}`) +
            (shaped && requests(t, r).length > 1 ? `·${part}` : '');
          const chip = el('span', { class: 'chip', title: chipTitle(t, r) }, label);
          chip.style.background = hue(slot, slotsMax);
          if (t.merged_with !== null) chip.classList.add('merged');
          if (shaped && dmm) {
            chip.classList.add('phased');
            chip.dataset.phase = t.phase;
            chip.style.borderColor = phaseColour(t.phase, v.phases.length);
          }
          td.append(chip);
        }
      if (dmm && v.congestion > 1 && v.congested_banks.includes(u)) td.classList.add('congested');
      row.append(td);
    }
    row.append(el('td', {}, dmm && v.congestion > 1 ? 'set by bank ' + v.congested_banks.join(', ') : ''));
    table.append(head, row);
  }
  $('access-grid').append(table);
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
    const line = el('span', {}, ` Warp ${v.warp}: ${v.phases.length} phase${v.phases.length === 1 ? '' : 's'} of ` +
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

const slotLabel = (e) => `w${e.warp}${String.fromCharCode(97 + (e.slot % 26))}`;

// Rows: pipeline stages 0 .. l-1; columns: time units. A slot entering at t is in stage s at t + s.
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
  }
  $('time-now').textContent = now;
  const entering = r.trace.filter((e) => e.enter === now);
  const done = r.trace.filter((e) => e.complete === now);
  const say = (list, verb) => list.map((e) => `warp ${e.warp} slot ${e.slot} (addresses ${e.requests.join(', ')}) ${verb}`);
  $('time-events').textContent =
    [...say(entering, 'enters'), ...say(done, 'completes')].join('; ') || 'nothing enters or completes';
}

function drawPipelineTable(r, box) {
  const latency = r.latency;
  const entered = new Map(r.trace.map((e) => [e.enter, e]));  // one slot enters per time unit
  const table = el('table', { class: 'pipeline' });
  const head = el('tr');
  head.append(el('th', {}, 'stage \\ time'));
  for (let t = 0; t < r.time_units; ++t) head.append(el('th', t === now ? { class: 'now' } : {}, String(t)));
  table.append(head);
  const slotsMax = Math.max(1, ...r.slots);
  for (let s = 0; s < latency; ++s) {
    const row = el('tr');
    row.append(el('th', {}, `stage ${s}`));
    for (let t = 0; t < r.time_units; ++t) {
      const e = entered.get(t - s);
      const td = el('td', t === now ? { class: 'now' } : {});
      if (e && t <= now) {
        td.textContent = slotLabel(e);
        td.title = `warp ${e.warp} slot ${e.slot}: addresses ${e.requests.join(', ')}`;
        td.style.background = hue(e.slot, slotsMax);
      }
      row.append(td);
    }
    table.append(row);
  }
  box.append(table);
}

function step(by) {
  if (!access) return;
  now = Math.min(Math.max(0, now + by), Math.max(0, access.time_units - 1));
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
  const r = ask(engine.layout(state.layout || 'raw', state.w || '8', state.seed || '1'));
  $('layout-congestion').tBodies[0].textContent = '';
  for (const id of ['row-congestion', 'column-congestion', 'diagonal-congestion']) $(id).textContent = '';
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
  $('layout-grid').append(table);
  const a = r.accesses;
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
  const chosen = a[show][index];
  $('layout-described').textContent =
    `${r.layout} (w = ${w}${r.seed === null ? '' : ', seed ' + r.seed}). The highlighted ${show} ${index} is one warp reading cells ` +
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
    const label = el('label', { title: `${p.help} [${p.rule}]` }, p.name + ' ');
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

// Puts an SVG of the engine's into `box`, scaled to the box's width (its size becomes a viewBox).
function placeSvg(box, svg) {
  box.innerHTML = svg;
  const pic = box.querySelector('svg');
  if (pic && !pic.getAttribute('viewBox') && pic.getAttribute('width') && pic.getAttribute('height'))
    pic.setAttribute('viewBox', `0 0 ${parseFloat(pic.getAttribute('width'))} ${parseFloat(pic.getAttribute('height'))}`);
}

function roundsTable(rounds) {
  const table = $('rounds');
  table.textContent = '';
  const cols = ['kernel', 'name', 'memory', 'op', 'slots', 'time_units', 'max_congestion', 'bank_conflicts'];
  const head = el('tr');
  for (const c of cols) head.append(el('th', {}, c.replace('_', ' ')));
  table.append(head);
  for (const r of rounds) {
    const tr = el('tr');
    for (const c of cols) tr.append(el('td', { class: c.replace('_', '-') }, String(r[c])));
    table.append(tr);
  }
}

function renderRun(state) {
  const algo = state.algo || 'd-designated';
  $('form-run').elements.algo.value = algo;
  paramInputs(algo, state);
  for (const id of ['run-time-units', 'run-async-time-units', 'run-correct', 'trace-sync', 'trace-async', 'rounds'])
    $(id).textContent = '';
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
  roundsTable(sync.rounds);
  placeSvg($('trace-sync'), r.svgs.round_synchronous);
  if (async) placeSvg($('trace-async'), r.svgs.asynchronous);
}

function readTrace(file) {
  const reader = new FileReader();
  reader.onload = () => {
    showError('');
    $('dropped').textContent = '';
    const name = file.name.replace(/[^\w.\- ]/g, '_');
    const r = ask(engine.trace(String(reader.result), name));
    if (!r) return;
    const line = el('p', { class: 'note' }, `${name}: `);
    line.append(el('b', { id: 'dropped-slots' }, String(r.slots)), ' slots, ',
                el('b', { id: 'dropped-time-units' }, String(r.time_units)), ' time units, ',
                el('b', { id: 'dropped-rounds' }, String(r.rounds.length)), ' rounds',
                r.overlapping ? ' (asynchronous: rounds overlap)' : '');
    $('dropped').append(line);
    const pic = el('div');
    $('dropped').append(pic);
    placeSvg(pic, r.svg);
  };
  reader.readAsText(file);
}

// ---- the page ---------------------------------------------------------------------------------

// Every element that holds a figure or a drawing, in every view.
const OUTPUTS = ['time-units', 'warp-slots', 'warp-congestion', 'access-posed', 'access-grid', 'access-phases',
                 'pipeline', 'time-events', 'layout-described', 'layout-grid', 'row-congestion', 'column-congestion',
                 'diagonal-congestion', 'run-about', 'run-time-units', 'run-async-time-units', 'run-correct', 'rounds',
                 'trace-sync', 'trace-async', 'dropped'];

const views = {
  access: { form: 'form-access', render: renderAccess },
  layout: { form: 'form-layout', render: renderLayout },
  run: { form: 'form-run', render: renderRun },
};

function render() {
  showError('');
  const state = urlState();
  const view = views[state.view];
  // What another state drew goes, so the page never shows a figure of a state it is not in.
  for (const id of OUTPUTS) $(id).textContent = '';
  $('layout-congestion').tBodies[0].textContent = '';
  document.body.dataset.ready = state.view;  // for tests: the figures (or the message) are on the page
  if (!view) {
    showError(`view: must be access, layout or run (got '${state.view}')`);
    return;
  }
  for (const name of Object.keys(views)) $('view-' + name).hidden = name !== state.view;
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.dataset.view === state.view);
  fillForm($(view.form), state);
  try {
    view.render(state);
  } catch (e) {
    showError('The page could not show this state: ' + e.message);
  }
}

function start() {
  catalogue = JSON.parse(engine.algorithms());
  const select = $('form-run').elements.algo;
  for (const a of catalogue) select.append(el('option', {}, a.name));
  select.addEventListener('change', () => {
    setUrl({ view: 'run', algo: select.value });
    render();
  });
  for (const [name, view] of Object.entries(views))
    $(view.form).addEventListener('submit', (ev) => {
      ev.preventDefault();
      setUrl(formState($(view.form), name));
      render();
    });
  for (const a of document.querySelectorAll('nav a'))
    a.addEventListener('click', (ev) => {
      ev.preventDefault();
      setUrl({ view: a.dataset.view });
      render();
    });
  $('step').addEventListener('click', () => step(1));
  $('step-back').addEventListener('click', () => step(-1));
  $('play').addEventListener('click', play);
  $('trace-file').addEventListener('change', (ev) => ev.target.files[0] && readTrace(ev.target.files[0]));
  const drop = $('drop');
  drop.addEventListener('dragover', (ev) => ev.preventDefault());
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault();
    if (ev.dataTransfer.files[0]) readTrace(ev.dataTransfer.files[0]);
  });
  window.addEventListener('popstate', render);
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
