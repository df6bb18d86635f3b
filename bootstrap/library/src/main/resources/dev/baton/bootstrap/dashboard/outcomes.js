// The ledger's terminal outcomes, filtered and paged, newest first.
'use strict';
(() => {
  const {el, time, badge, number} = baton;
  baton.pagedList({
    table: '#outcomes',
    path: queue => '/api/queues/' + encodeURIComponent(queue) + '/outcomes',
    row: item => el('tr', {},
      el('td', {class: 'nowrap'}, el('a', {href: '/dashboard/job.html?queue=' + encodeURIComponent(document.getElementById('queue').value)
        + '&job_id=' + encodeURIComponent(item.job_id)}, item.job_id)),
      el('td', {}, badge(item.state)), el('td', {}, item.reason || '–'),
      el('td', {}, [item.error_type, item.error_message].filter(Boolean).join(': ') || '–'),
      el('td', {class: 'num'}, number(item.attempts)), el('td', {class: 'nowrap'}, time(item.at)))
  });
})();
