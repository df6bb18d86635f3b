// The overview: every queue's numbers (refreshed every 2 s) and the live throughput chart fed by /api/events.
'use strict';
(() => {
  const {el, api, show, number, duration, badge} = baton;
  const HISTORY = 15 * 60;
  const samples = []; // {at: seconds, queues: {name: {completed, retried, dead}}}

  /** A queue the server cannot read (a stray key of another type): its name and the problem, across the row. */
  function damaged(q) {
    return el('tr', {'data-queue': q.queue, class: 'damaged'}, el('td', {}, q.queue),
      el('td', {colspan: 9, class: 'error-text'}, 'cannot be read: ' + q.error));
  }

  async function refresh() {
    try {
      const data = await api('/api/queues');
      const queues = data.queues || data;
      document.querySelector('#queues tbody').replaceChildren(...queues.map(q => q.error ? damaged(q) : el('tr', {'data-queue': q.queue},
        el('td', {}, el('a', {href: '/dashboard/queue.html?queue=' + encodeURIComponent(q.queue)}, q.queue)),
        el('td', {class: 'num', 'data-field': 'length'}, number(q.length)),
        el('td', {class: 'num', 'data-field': 'lag'}, number(q.lag)),
        el('td', {class: 'num', 'data-field': 'pending'}, number(q.pending)),
        el('td', {class: 'num'}, duration(q.oldest_pending_idle_ms)),
        el('td', {class: 'num', 'data-field': 'delayed'}, number(q.delayed)),
        el('td', {class: 'num', 'data-field': 'dead'},
          el('a', {href: '/dashboard/dead.html?queue=' + encodeURIComponent(q.queue)}, number(q.dead))),
        el('td', {class: 'num', 'data-field': 'completed'}, number(q.completed_last_hour)),
        el('td', {class: 'num'}, number((q.consumers || []).length)),
        el('td', {}, badge(q.paused ? 'paused' : 'running')))));
      const choice = document.getElementById('chart-queue');
      const known = new Set([...choice.options].map(o => o.value));
      queues.filter(q => !q.error && !known.has(q.queue)).forEach(q => choice.append(el('option', {value: q.queue}, q.queue)));
      document.getElementById('message').textContent = '';
    } catch (e) {
      show('message', e);
    }
  }

  const palette = {completed: '#1f8a4c', retried: '#b7791f', dead: '#c53030'};
  const chartBox = document.getElementById('chart');
  // without its library (an optional WebJar) there is no chart: the server says so in the chart area
  const plot = typeof uPlot !== 'function' ? null : new uPlot({
    width: Math.max(chartBox.clientWidth, 600), height: 260,
    scales: {x: {time: true}, y: {range: (u, min, max) => [0, Math.max(1, max * 1.1)]}},
    axes: [{space: 90, incrs: [1, 5, 10, 15, 30, 60, 120, 300],
      values: (u, ticks) => ticks.map(t => new Date(t * 1000).toISOString().slice(11, 19))}, {label: 'jobs / s'}],
    series: [{}].concat(Object.entries(palette).map(([name, stroke]) => ({
      label: name, stroke, width: 2, points: {show: false}, value: (u, v) => v === null ? '–' : v.toFixed(2)
    })))
  }, [[], [], [], []], chartBox);
  if (plot) {
    window.addEventListener('resize', () => plot.setSize({width: Math.max(chartBox.clientWidth, 600), height: 260}));
  }

  function redraw() {
    if (!plot) return;
    const queue = document.getElementById('chart-queue').value;
    const columns = [[], [], [], []];
    for (const sample of samples) {
      columns[0].push(sample.at);
      ['completed', 'retried', 'dead'].forEach((kind, i) => {
        let sum = 0;
        for (const [name, rates] of Object.entries(sample.queues)) {
          if (!queue || name === queue) sum += rates[kind];
        }
        columns[i + 1].push(sum);
      });
    }
    plot.setData(columns);
  }

  document.getElementById('chart-queue').addEventListener('change', redraw);

  const status = document.getElementById('chart-status');
  const events = new EventSource('/api/events');
  // every (re)connection starts with the server's whole history
  events.onopen = () => { samples.length = 0; status.textContent = 'live'; };
  events.onerror = () => { status.textContent = 'reconnecting…'; };
  events.onmessage = message => {
    const sample = JSON.parse(message.data);
    samples.push({at: Date.parse(sample.at) / 1000, queues: sample.queues});
    if (samples.length > HISTORY) samples.shift();
    status.textContent = 'live · ' + Math.round(samples[samples.length - 1].at - samples[0].at) + ' s';
    redraw();
  };

  baton.start().then(refresh);
  setInterval(refresh, 2000);
})();
