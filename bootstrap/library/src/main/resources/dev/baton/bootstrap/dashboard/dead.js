// Dead letters: filter, read payload and error, replay or purge one, a selection or all matching the filter.
'use strict';
(() => {
  const {el, api, show, info, time, number, confirmDialog, canChange} = baton;
  const base = queue => '/api/queues/' + encodeURIComponent(queue) + '/dead';
  const list = baton.pagedList({
    table: '#dead',
    path: base,
    row: letter => {
      const message = el('span', {class: 'error-message'}, letter.error ? letter.error.message : '');
      const error = letter.error ? [el('span', {class: 'error-type'}, letter.error.type), message,
        cutMark(letter.error.message_truncated)] : '–';
      const payload = el('pre', {class: 'payload'}, payloadText(letter));
      const button = (text, action, style) => el('button', {class: style, 'data-change': true, hidden: !canChange(),
        disabled: !canChange(), onclick: () => act(action, {ids: [letter.id]}, 'dead letter of job ' + letter.job_id)},
        text);
      return el('tr', {'data-id': letter.id, 'data-job': letter.job_id},
        el('td', {}, el('input', {type: 'checkbox', class: 'pick', value: letter.id, 'aria-label': 'select'})),
        el('td', {class: 'nowrap'}, letter.job_id || '(malformed)'), el('td', {}, letter.reason),
        el('td', {class: 'error-cell'}, error), el('td', {class: 'num'}, number(letter.attempts)),
        el('td', {class: 'nowrap'}, time(letter.dead_at)),
        el('td', {class: 'payload-cell'}, cutMark(payloadCut(letter)), payload, wholeButton(letter, payload, message)),
        el('td', {}, el('div', {class: 'actions'}, button('Replay', 'replay', 'replay'),
          button('Purge', 'purge', 'danger purge'))));
    },
    loaded: () => { document.getElementById('all').checked = false; }
  });

  /** The payload, or a malformed entry's raw fields. */
  function payloadText(letter) {
    return letter.job ? letter.job.payload : JSON.stringify(letter.fields || {});
  }

  /** How the server cut the payload (or the raw fields, all together) of a list row; null when whole. */
  function payloadCut(letter) {
    if (letter.job) return letter.job.payload_truncated || null;
    const fields = Object.values(letter.fields_truncated || {});
    return fields.length ? {bytes: fields.reduce((sum, field) => sum + field.bytes, 0)} : null;
  }

  /** "Cut", with the whole text's size, when the server cut a text of a list row. */
  function cutMark(cut) {
    return cut ? el('span', {class: 'cut'}, 'cut: ' + number(cut.bytes) + ' bytes in all') : null;
  }

  /** A button that fetches the whole dead letter into the row, when its payload or error was cut. */
  function wholeButton(letter, payload, message) {
    if (!payloadCut(letter) && !(letter.error && letter.error.message_truncated)) return null;
    const whole = el('button', {class: 'secondary whole', onclick: async () => {
      try {
        const full = await api(base(list.queue()) + '/' + encodeURIComponent(letter.id));
        payload.textContent = payloadText(full);
        message.textContent = full.error ? full.error.message : '';
        whole.closest('tr').querySelectorAll('.cut').forEach(mark => mark.remove());
        whole.remove();
      } catch (e) {
        show('message', e);
      }
    }}, 'Show all');
    return whole;
  }

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
