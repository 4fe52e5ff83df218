(function () {
  function all(root, q) { return Array.prototype.slice.call(root.querySelectorAll(q)); }
  function widget(root) {
    var boards = all(root, '.boards .board');
    var links = all(root, '.moves a[data-board]');
    var status = root.querySelector('.status');
    var byIndex = {};
    boards.forEach(function (b) { byIndex[b.getAttribute('data-board')] = b; });
    var last = Number(root.getAttribute('data-last'));
    var w = { root: root, boards: boards, links: links, status: status, cur: 0 };
    w.show = function (k) {
      var b = byIndex[String(k)];
      if (!b) { return; }
      w.cur = Number(k);
      boards.forEach(function (x) { x.hidden = x !== b; });
      links.forEach(function (a) {
        var on = Number(a.getAttribute('data-board')) === w.cur;
        a.classList.toggle('current', on);
        if (on) { a.setAttribute('aria-current', 'step'); } else { a.removeAttribute('aria-current'); }
      });
      status.textContent = b.getAttribute('data-status');
    };
    w.step = function (attr) {
      var t = byIndex[String(w.cur)].getAttribute(attr);
      if (t !== null && t !== '') { w.show(Number(t)); }
    };
    w.first = function () { w.show(0); };
    w.last = function () { w.show(last); };
    root.querySelector('nav .first').addEventListener('click', w.first);
    root.querySelector('nav .prev').addEventListener('click', function () { w.step('data-prev'); });
    root.querySelector('nav .next').addEventListener('click', function () { w.step('data-next'); });
    root.querySelector('nav .last').addEventListener('click', w.last);
    links.forEach(function (a) {
      a.addEventListener('click', function (e) {
        e.preventDefault();
        w.show(Number(a.getAttribute('data-board')));
      });
    });
    root.addEventListener('click', function () { active = w; });
    w.show(Number(root.getAttribute('data-start')));
    return w;
  }
  var active = null;
  var games = all(document, 'section.game').map(widget);
  if (games.length === 0) { return; }
  document.addEventListener('keydown', function (e) {
    var w = active || games[0];
    var act = {
      ArrowLeft: function () { w.step('data-prev'); },
      ArrowRight: function () { w.step('data-next'); },
      Home: w.first,
      End: w.last
    }[e.key];
    if (act) { e.preventDefault(); act(); }
  });
  var m = /^#ply=(\d+)$/.exec(location.hash);
  if (m) { games[0].show(Number(m[1])); }
  if (location.hash !== '#test') { return; }
  // Self-test: step through the first game with the keys and buttons a
  // reader uses and record what is on screen after each step.
  var g = games[0];
  var mainLinks = g.links.filter(function (a) { return a.hasAttribute('data-ply'); });
  var last = Number(g.root.getAttribute('data-last'));
  var log = [];
  function snap(action) {
    var shown = g.boards.filter(function (b) { return getComputedStyle(b).display !== 'none'; });
    var current = mainLinks.filter(function (a) { return a.classList.contains('current'); });
    var placement = shown.length === 1
      ? Array.prototype.map.call(shown[0].querySelectorAll('g.pieces'), function (x) {
          return x.getAttribute('data-square') + ':' + x.getAttribute('data-pieces');
        })
      : [];
    log.push({
      action: action,
      shown: shown.map(function (b) { return Number(b.getAttribute('data-board')); }),
      current: current.map(function (a) { return Number(a.getAttribute('data-ply')); }),
      move: current.length === 1 ? current[0].getAttribute('data-move') : '',
      placement: placement,
      status: g.status.textContent
    });
  }
  function key(k) { document.body.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); snap('key ' + k); }
  function click(name) { g.root.querySelector('nav .' + name).click(); snap('click ' + name); }
  g.show(0);
  snap('start');
  for (var i = 0; i < last; i++) { key('ArrowRight'); }
  key('ArrowRight');
  for (var j = 0; j < last; j++) { click('prev'); }
  click('prev');
  click('last');
  for (var k = 0; k < last; k++) { key('ArrowLeft'); }
  click('next');
  key('End');
  key('Home');
  if (mainLinks.length > 0) {
    var mid = mainLinks[Math.floor(mainLinks.length / 2)];
    mid.click();
    snap('click move ' + mid.getAttribute('data-ply'));
  }
  // Each move of a variation shows the position after it.
  var variations = g.links.filter(function (a) { return !a.hasAttribute('data-ply'); }).map(function (a) {
    a.click();
    var shown = g.boards.filter(function (b) { return getComputedStyle(b).display !== 'none'; });
    return {
      move: a.getAttribute('data-move'),
      board: Number(a.getAttribute('data-board')),
      shown: shown.map(function (b) { return Number(b.getAttribute('data-board')); }),
      position: shown.length === 1 ? shown[0].getAttribute('data-position') : '',
      current: a.classList.contains('current')
    };
  });
  var out = document.getElementById('postal-test');
  out.textContent = JSON.stringify({ plies: last, variations: variations, log: log });
  out.setAttribute('data-done', 'true');
})();
