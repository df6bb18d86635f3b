// Dead letters: filter, read payload and error, replay or purge one, a selection or all matching the filter.
'use strict';
(() => {
  const {el, api, show, info, time, number, confirmDialog, canChange} = baton;
  const base = queue => '/api/queues/' + encodeURIComponent(queue) + '/dead';
  const list = baton.pagedList({
    table: '#dead',
    path: base,
    row: letter => {
      const error = letter.error ? [el('span', {class: 'error-type'}, letter.error.type), letter.error.message] : '–';
      const payload = letter.job ? letter.job.payload : JSON.stringify(letter.fields || {});
      const button = (text, action, style) => el('button', {class: style, 'data-change': true, hidden: !canChange(),
        disabled: !canChange(), onclick: () => act(action, {ids: [letter.id]}, 'dead letter of job ' + letter.job_id)},
        text);
      return el('tr', {'data-id': letter.id, 'data-job': letter.job_id},
        el('td', {}, el('input', {type: 'checkbox', class: 'pick', value: letter.id, 'aria-label': 'select'})),
        el('td', {class: 'nowrap'}, letter.job_id || '(malformed)'), el('td', {}, letter.reason),
        el('td', {}, error), el('td', {class: 'num'}, number(letter.attempts)),
        el('td', {class: 'nowrap'}, time(letter.dead_at)),
        el('td', {}, el('pre', {}, payload)),
        el('td', {}, el('div', {class: 'actions'}, button('Replay', 'replay', 'replay'),
          button('Purge', 'purge', 'danger purge'))));
    },
    loaded: () => { document.getElementById('all').checked = false; }
  });

  function selected() {
    return [...document.querySelectorAll('input.pick:checked')].map(box => box.value);
  }

  function matching() {
    const filter = Object.fromEntries(list.filters());
    return Object.keys(filter).length ? {filter} : {all: true};
  }

  async function act(action, body, what) {
    const verb = action === 'replay' ? 'Replay' : 'Purge';
    if (!(await confirmDialog(verb + ' ' + what + ' in queue ' + list.queue() + '?', verb))) return;
    try {
      const answer = await api(base(list.queue()) + '/' + action, body);
      const count = action === 'replay' ? answer.replayed : answer.purged;
      await list.reload();
      info('message', (action === 'replay' ? 'Replayed ' : 'Purged ') + count + ' dead letter' + (count === 1 ? '' : 's'));
    } catch (e) {
      show('message', e);
    }
  }

  document.getElementById('all').addEventListener('change', event =>
    document.querySelectorAll('input.pick').forEach(box => { box.checked = event.target.checked; }));
  for (const action of ['replay', 'purge']) {
    document.getElementById(action + '-selected').addEventListener('click', () => {
      const ids = selected();
      if (!ids.length) { show('message', 'Select dead letters first'); return; }
      act(action, {ids}, ids.length + ' selected dead letter' + (ids.length === 1 ? '' : 's'));
    });
    document.getElementById(action + '-matching').addEventListener('click', () => {
      const body = matching();
      act(action, body, body.all ? 'every dead letter' : 'every dead letter matching the filter');
    });
  }
})();
