// One queue: its numbers, consumers, delayed retries and partitions; pause and resume for an operator.
'use strict';
(() => {
  const {el, api, show, info, param, number, duration, time, badge} = baton;
  const queue = param('queue') || '';
  const path = '/api/queues/' + encodeURIComponent(queue);
  document.getElementById('title').textContent = 'Queue ' + queue;
  document.title = 'Baton · ' + queue;
  document.getElementById('dead-link').href = '/dashboard/dead.html?queue=' + encodeURIComponent(queue);
  document.getElementById('outcomes-link').href = '/dashboard/outcomes.html?queue=' + encodeURIComponent(queue);

  function rows(id, items, cells, empty) {
    const body = document.querySelector('#' + id + ' tbody');
    body.replaceChildren(...(items.length ? items.map(item => el('tr', {}, cells(item)))
      : [el('tr', {}, el('td', {colspan: 3, class: 'muted'}, empty))]));
  }

  async function refresh() {
    try {
      const q = await api(path);
      document.getElementById('state').replaceChildren(badge(q.paused ? 'paused' : 'running'));
      const facts = [['Length', number(q.length)], ['Lag', number(q.lag)], ['Pending', number(q.pending)],
        ['Oldest pending', duration(q.oldest_pending_idle_ms)], ['Delayed', number(q.delayed)],
        ['Dead', number(q.dead)], ['Completed (1 h)', number(q.completed_last_hour)],
        ['Completed (ledger)', number(q.completed)]];
      document.getElementById('facts').replaceChildren(...facts.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
      rows('consumers', q.consumers || [], c => [el('td', {}, c.name), el('td', {class: 'num'}, number(c.pending)),
        el('td', {class: 'num'}, duration(c.idle_ms))], 'no consumers');
      rows('delayed', q.delayed_jobs || [], d => [
        el('td', {}, el('a', {href: '/dashboard/job.html?queue=' + encodeURIComponent(queue) + '&job_id='
          + encodeURIComponent(d.job_id)}, d.job_id)),
        el('td', {}, time(d.due_at)), el('td', {class: 'num'}, number(d.attempt))], 'no delayed jobs');
      rows('partitions', q.partitions || [], p => [el('td', {class: 'num'}, p.index),
        el('td', {class: 'num'}, number(p.length)), el('td', {class: 'num'}, number(p.pending))],
        'none reported');
    } catch (e) {
      show('message', e);
    }
  }

  async function change(action) {
    try {
      await api(path + '/' + action, {});
      info('message', 'Queue ' + queue + (action === 'pause' ? ' paused' : ' resumed'));
      refresh();
    } catch (e) {
      show('message', e);
    }
  }

  document.getElementById('pause').addEventListener('click', () => change('pause'));
  document.getElementById('resume').addEventListener('click', () => change('resume'));
  baton.start().then(refresh);
  setInterval(refresh, 3000);
})();
