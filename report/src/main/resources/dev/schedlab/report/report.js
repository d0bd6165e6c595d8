// Sortable tables and saving the embedded input JSON. No network, no libraries.
(function () {
  'use strict';
  function key(td) {
    var s = td.getAttribute('data-sort');
    if (s !== null && s !== '' && !isNaN(Number(s))) { return { n: Number(s) }; }
    return { t: (s !== null ? s : td.textContent).trim() };
  }
  function compare(a, b) {
    if (a.n !== undefined && b.n !== undefined) { return a.n - b.n; }
    if (a.n !== undefined) { return -1; }
    if (b.n !== undefined) { return 1; }
    return a.t.localeCompare(b.t, undefined, { numeric: true });
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0];
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r1, r2) { return dir * compare(key(r1.cells[col]), key(r2.cells[col])); });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.addEventListener('click', function () { sortBy(table, col, th); });
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') { sortBy(table, col, th); } });
    });
  });
  document.querySelectorAll('button.save').forEach(function (b) {
    b.addEventListener('click', function () {
      var text = document.getElementById(b.getAttribute('data-for')).textContent;
      var url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      var a = document.createElement('a');
      a.href = url;
      a.download = b.getAttribute('data-name');
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 0);
    });
  });
}());
