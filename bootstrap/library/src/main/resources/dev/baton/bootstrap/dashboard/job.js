// Looks a job up by id: the ledger and Redis together.
'use strict';
(() => {
  const {el, api, show, info, param, number, time, badge, confirmDialog, canChange} = baton;
  const form = document.getElementById('lookup');

  // The actions on one job, the states each applies to, and what the confirmation asks.
  const ACTIONS = [
    {action: 'run-now', label: 'Run now', states: ['delayed'], done: 'is due now',
      ask: 'Run job {id} of queue {queue} now? A worker runs it on its next promotion.'},
    {action: 'cancel', label: 'Cancel job', states: ['waiting', 'delayed', 'running'], done: 'is cancelled',
      ask: 'Cancel job {id} of queue {queue}? It will not run; a running attempt is told and rolled back.'},
    {action: 'delete', label: 'Delete', states: ['delayed'], done: 'is deleted',
      ask: 'Delete job {id} of queue {queue}? It is removed without running, and no record of it is kept.'}
  ];

  function actionButtons(job) {
    if (!canChange()) return [];
    return ACTIONS.filter(a => a.states.includes(job.state)).map(a =>
      el('button', {id: 'action-' + a.action, class: a.action === 'run-now' ? '' : 'danger',
        onclick: () => act(job, a)}, a.label));
  }

  async function act(job, a) {
    const text = a.ask.replace('{id}', job.job_id).replace('{queue}', job.queue);
    if (!(await confirmDialog(text, a.label))) return;
    try {
      const path = '/api/queues/' + encodeURIComponent(job.queue) + '/jobs/' + encodeURIComponent(job.job_id) + '/';
      const answer = await api(path + a.action, {});
      await lookup();
      info('message', 'Job ' + job.job_id + ' ' + (answer.answer === 'already_cancelled' ? 'was cancelled before'
        : a.done));
    } catch (e) {
      await lookup();
      show('message', e);
    }
  }

  async function lookup() {
    const queue = document.getElementById('queue').value;
    const id = document.getElementById('job-id').value.trim();
    const result = document.getElementById('result');
    document.getElementById('message').textContent = '';
    result.hidden = true;
    if (!id) return;
    history.replaceState(null, '', '?queue=' + encodeURIComponent(queue) + '&job_id=' + encodeURIComponent(id));
    try {
      const job = await api('/api/jobs/' + encodeURIComponent(id) + '?queue=' + encodeURIComponent(queue));
      const error = job.error ? [job.error.type, job.error.message].filter(Boolean).join(': ') : '–';
      const facts = [['Job', job.job_id], ['Queue', job.queue], ['State', badge(job.state)],
        ['Attempts', number(job.attempts)], ['Error', error], ['Result', job.result === null ? '–' : job.result],
        ['Enqueued at', time(job.enqueued_at)], ['Finished at', time(job.finished_at)],
        ['Consumer', job.consumer || '–'], ['In Redis', job.in_redis ? 'yes' : 'no']];
      document.getElementById('facts').replaceChildren(...facts.flatMap(([k, v]) =>
        [el('dt', {}, k), el('dd', {'data-field': k.toLowerCase().replace(/ /g, '_')}, v)]));
      document.getElementById('actions').replaceChildren(...actionButtons(job));
      result.hidden = false;
    } catch (e) {
      show('message', e.status === 404 ? new Error('No job ' + id + ' in queue ' + queue) : e);
    }
  }

  form.addEventListener('submit', event => { event.preventDefault(); lookup(); });
  baton.start().then(() => baton.queueChoice(document.getElementById('queue'), param('queue'))).then(() => {
    if (param('job_id')) {
      document.getElementById('job-id').value = param('job_id');
      lookup();
    }
  }).catch(e => show('message', e));
})();
