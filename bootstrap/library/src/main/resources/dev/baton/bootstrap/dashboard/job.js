// Looks a job up by id: the ledger and Redis together.
'use strict';
(() => {
  const {el, api, show, param, number, time, badge} = baton;
  const form = document.getElementById('lookup');

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
