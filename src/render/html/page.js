(function () {
  // With the script, the live board replaces the static diagrams.
  document.documentElement.classList.add('js');
  var SVG = 'http://www.w3.org/2000/svg';
  function all(root, q) { return Array.prototype.slice.call(root.querySelectorAll(q)); }
  function el(name, attrs) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    return e;
  }
  // Each frame (an empty board in the page's <defs>): where its squares are.
  var frames = {};
  function frame(k) {
    if (!frames[k]) {
      var f = document.getElementById('f' + k);
      var at = {};
      all(f, 'rect[data-square]').forEach(function (r) {
        at[r.getAttribute('data-square')] = [Number(r.getAttribute('x')), Number(r.getAttribute('y'))];
      });
      frames[k] = { at: at, w: Number(f.getAttribute('data-w')), h: Number(f.getAttribute('data-h')) };
    }
    return frames[k];
  }
  function words(s) { return s === '' ? [] : s.split(' '); }
  // A move as written (without figurines and glyphs).
  function moveText(a) { return a.getAttribute('data-move') || a.firstChild.nodeValue; }
  // The pieces on one square, as svg.rs draws them: one glyph, or a
  // stack's glyphs in a grid with a count.
  function pieces(sq, letters, x, y, glyphs) {
    var g = el('g', { 'class': 'pieces', 'data-square': sq, 'data-pieces': letters });
    var n = letters.length;
    if (n === 1) {
      g.appendChild(el('use', { href: '#' + glyphs[letters], x: x, y: y }));
      return g;
    }
    var k = 1;
    while (k * k < n) { k++; }
    var cell = Math.floor(86 / k);
    var rows = Math.ceil(n / k);
    var top = y + 100 - rows * cell;
    for (var i = 0; i < n; i++) {
      g.appendChild(el('use', {
        href: '#' + glyphs[letters[i]],
        transform: 'translate(' + (x + (i % k) * cell) + ' ' + (top + Math.floor(i / k) * cell) + ') scale(' + (cell / 100).toFixed(4) + ')'
      }));
    }
    var count = el('g', { 'class': 'count' });
    count.appendChild(el('circle', { cx: x + 85, cy: y + 15, r: 14, fill: '#a01818', stroke: '#fff', 'stroke-width': 2 }));
    var t = el('text', { x: x + 85, y: y + 22, 'text-anchor': 'middle', 'font-size': 20, 'font-weight': 'bold', fill: '#fff' });
    t.textContent = String(n);
    count.appendChild(t);
    g.appendChild(count);
    return g;
  }
  // Arrows (`Ge2>e4`) and marked squares (`Rd4`), as svg.rs draws them.
  var MARK = { G: '#15781b', R: '#882020', Y: '#e68f00', B: '#003088' };
  function marks(spec, at) {
    var g = el('g', { 'class': 'marks', opacity: '0.8' });
    words(spec).forEach(function (m) {
      var colour = MARK[m.charAt(0)];
      var i = m.indexOf('>');
      if (i < 0) {
        var s = at[m.slice(1)];
        if (s) {
          g.appendChild(el('circle', { cx: s[0] + 50, cy: s[1] + 50, r: 44, fill: 'none', stroke: colour, 'stroke-width': 8, 'data-mark': m }));
        }
        return;
      }
      var a = at[m.slice(1, i)];
      var b = at[m.slice(i + 1)];
      if (!a || !b) { return; }
      var ax = a[0] + 50, ay = a[1] + 50, bx = b[0] + 50, by = b[1] + 50;
      var len = Math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
      if (len === 0) { return; }
      var ux = (bx - ax) / len, uy = (by - ay) / len;
      var w = 7.5, hw = 22, hl = 40;
      var cx = bx - ux * hl, cy = by - uy * hl;
      function p(x, y, s) { return (x - uy * s).toFixed(1) + ',' + (y + ux * s).toFixed(1); }
      var points = [p(ax, ay, w), p(cx, cy, w), p(cx, cy, hw), p(bx, by, 0), p(cx, cy, -hw), p(cx, cy, -w), p(ax, ay, -w)];
      g.appendChild(el('polygon', { points: points.join(' '), fill: colour, 'data-mark': m.charAt(0) + m.slice(1, i) + m.slice(i + 1) }));
    });
    return g;
  }
  function widget(root) {
    var n = root.getAttribute('data-game');
    var data = GAMES[Number(n) - 1];
    var pane = document.getElementById('postal-pane').content.firstElementChild.cloneNode(true);
    var play = root.querySelector('.play');
    play.insertBefore(pane, play.firstChild);
    var svg = pane.querySelector('svg.live');
    var status = pane.querySelector('.status');
    var moves = root.querySelector('.moves');
    var last = data.last;
    var w = { root: root, pane: pane, svg: svg, status: status, cur: 0, last: last, data: data };
    var links = null;
    // The move link of each board, found on first use.
    w.links = function () {
      if (links === null) {
        links = {};
        all(moves, 'a[href^="#g' + n + '-"]').forEach(function (a) {
          links[a.getAttribute('href').split('-')[1]] = a;
        });
      }
      return links;
    };
    // Board k read from its fields (plies.rs, `data`), on first use.
    var read = [];
    function board(k) {
      if (read[k]) { return read[k]; }
      var raw = data.boards[k];
      if (raw === undefined) { return null; }
      var f = raw.split('|');
      function link(v, usual) { return v === '' ? usual : v === '-' ? -1 : Number(v); }
      var state = f[5];
      var space = state.indexOf(' ');
      var b = {
        prev: link(f[0], k - 1),
        next: link(f[1], k + 1),
        squares: f[2],
        check: words(f[4]),
        turn: state.charAt(0),
        inCheck: state.charAt(1) === '+',
        outcome: space < 0 ? '' : state.slice(space + 1),
        marks: f[8],
        hand: f[9] || ''
      };
      if (f[3] === '-') {
        b.last = [];
      } else if (f[3] !== '') {
        b.last = words(f[3]);
      } else {
        var emptied = [];
        var filled = [];
        if (b.squares.charAt(0) !== '=') {
          words(b.squares).forEach(function (item) {
            var i = item.lastIndexOf(':');
            (i === item.length - 1 ? emptied : filled).push(item.slice(0, i));
          });
        }
        b.last = emptied.length === 1 && filled.length === 1 ? [emptied[0], filled[0]] : [];
      }
      var p = b.prev >= 0 ? board(b.prev) : null;
      b.frame = f[6] === '' ? p.frame : Number(f[6]);
      b.fullmove = f[7] === '' ? p.fullmove + (p.turn === 'b' && b.turn === 'w' ? 1 : 0) : Number(f[7]);
      read[k] = b;
      return b;
    }
    w.board = board;
    // The move that led to board k as the score numbers it: `12... Nf6`.
    function label(k) {
      var b = board(k);
      var a = w.links()[String(k)];
      if (b.prev < 0 || !a) { return ''; }
      var p = board(b.prev);
      return p.fullmove + (p.turn === 'w' ? '. ' : '... ') + moveText(a);
    }
    // The squares of board k: from the nearest board known, along the
    // boards it comes from, each giving the squares that changed.
    var known = {};
    function placement(k) {
      var chain = [];
      var j = k;
      while (!known[j]) {
        chain.push(j);
        if (board(j).squares.charAt(0) === '=') { break; }
        j = board(j).prev;
      }
      var p = {};
      if (known[j]) { for (var s in known[j]) { p[s] = known[j][s]; } }
      for (var c = chain.length - 1; c >= 0; c--) {
        var delta = board(chain[c]).squares;
        if (delta.charAt(0) === '=') { p = {}; delta = delta.slice(1); }
        words(delta).forEach(function (item) {
          var i = item.lastIndexOf(':');
          var sq = item.slice(0, i);
          var letters = item.slice(i + 1);
          if (letters === '') { delete p[sq]; } else { p[sq] = letters; }
        });
        var copy = {};
        for (var t in p) { copy[t] = p[t]; }
        known[chain[c]] = copy;
      }
      return known[k];
    }
    w.show = function (k, scroll) {
      var b = board(k);
      if (!b) { return; }
      var old = w.links()[String(w.cur)];
      if (old) { old.classList.remove('current'); old.removeAttribute('aria-current'); }
      w.cur = k;
      var f = frame(b.frame);
      var use = svg.querySelector('use.frame');
      if (use.getAttribute('href') !== '#f' + b.frame) {
        use.setAttribute('href', '#f' + b.frame);
        svg.setAttribute('viewBox', '0 0 ' + f.w + ' ' + f.h);
        svg.setAttribute('width', Math.round(f.w * data.size / 100));
        svg.setAttribute('height', Math.round(f.h * data.size / 100));
      }
      while (use.nextSibling) { svg.removeChild(use.nextSibling); }
      function mark(cls, sq) {
        var at = f.at[sq];
        if (at) { svg.appendChild(el('rect', { 'class': cls, x: at[0], y: at[1], width: 100, height: 100 })); }
      }
      b.last.forEach(function (sq) { mark('last', sq); });
      b.check.forEach(function (sq) { mark('check', sq); });
      var p = placement(k);
      Object.keys(p).forEach(function (sq) {
        var at = f.at[sq];
        if (at) { svg.appendChild(pieces(sq, p[sq], at[0], at[1], data.glyphs)); }
      });
      if (b.marks !== '') { svg.appendChild(marks(b.marks, f.at)); }
      var l = label(k);
      var s = l === '' ? 'Start: ' : 'After ' + l + ': ';
      if (b.outcome !== '') {
        s += b.outcome;
      } else {
        s += (b.turn === 'w' ? 'White' : 'Black') + ' to move';
        if (b.inCheck) { s += ', in check'; }
        if (k === last && data.result !== '') { s += '; ' + data.result; }
      }
      if (b.hand !== '') { s += '; ' + b.hand; }
      status.textContent = s;
      var a = w.links()[String(k)];
      if (a) {
        a.classList.add('current');
        a.setAttribute('aria-current', 'step');
        if (scroll) { a.scrollIntoView({ block: 'nearest' }); }
      }
    };
    w.step = function (next) {
      var b = board(w.cur);
      var t = next ? b.next : b.prev;
      if (t >= 0) { w.show(t, true); }
    };
    w.first = function () { w.show(0, true); };
    w.end = function () { w.show(last, true); };
    pane.querySelector('nav .first').addEventListener('click', w.first);
    pane.querySelector('nav .prev').addEventListener('click', function () { w.step(false); });
    pane.querySelector('nav .next').addEventListener('click', function () { w.step(true); });
    pane.querySelector('nav .last').addEventListener('click', w.end);
    moves.addEventListener('click', function (e) {
      var a = e.target.closest('a[href^="#g' + n + '-"]');
      if (!a) { return; }
      e.preventDefault();
      w.show(Number(a.getAttribute('href').split('-')[1]), false);
    });
    w.show(Number(root.getAttribute('data-start')), false);
    return w;
  }
  // Each game's board is made when the game comes near the screen or is
  // clicked, so a page of hundreds of games opens as fast as its text.
  var GAMES = JSON.parse(document.getElementById('postal-games').textContent);
  var active = null;
  var sections = all(document, 'section.game');
  if (sections.length === 0) { return; }
  var made = {};
  function game(root) {
    var n = root.getAttribute('data-game');
    if (!made[n]) { made[n] = widget(root); }
    return made[n];
  }
  if ('IntersectionObserver' in window) {
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) { seen.unobserve(e.target); game(e.target); }
      });
    }, { rootMargin: '400px' });
    sections.forEach(function (s) { seen.observe(s); });
  } else {
    sections.forEach(game);
  }
  document.addEventListener('click', function (e) {
    var s = e.target.closest && e.target.closest('section.game');
    if (s) { active = game(s); }
  }, true);
  document.addEventListener('keydown', function (e) {
    var w = active || game(sections[0]);
    var act = {
      ArrowLeft: function () { w.step(false); },
      ArrowRight: function () { w.step(true); },
      Home: w.first,
      End: w.end
    }[e.key];
    if (act) { e.preventDefault(); act(); }
  });
  var games = [game(sections[0])];
  var m = /^#ply=(\d+)$/.exec(location.hash);
  if (m) { games[0].show(Math.min(Number(m[1]), games[0].last), false); }
  if (location.hash !== '#test') { return; }
  // Self-test: step through the first game with the keys and buttons a
  // reader uses and record what is on screen after each step.
  var g = games[0];
  var last = g.last;
  var log = [];
  function drawn() {
    return all(g.svg, 'g.pieces').map(function (x) {
      return x.getAttribute('data-square') + ':' + x.getAttribute('data-pieces');
    });
  }
  function snap(action) {
    var links = g.links();
    var current = Object.keys(links).filter(function (k) {
      return Number(k) <= last && links[k].classList.contains('current');
    });
    log.push({
      action: action,
      shown: g.pane.hidden ? [] : [g.cur],
      current: current.map(Number),
      move: current.length === 1 ? moveText(links[current[0]]) : '',
      placement: drawn(),
      status: g.status.textContent
    });
  }
  function key(k) { document.body.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); snap('key ' + k); }
  function click(name) { g.pane.querySelector('nav .' + name).click(); snap('click ' + name); }
  g.show(0, false);
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
  var links = g.links();
  var main = Object.keys(links).map(Number).filter(function (b) { return b <= last; }).sort(function (a, b) { return a - b; });
  if (main.length > 0) {
    var mid = links[String(main[Math.floor(main.length / 2)])];
    mid.click();
    snap('click move ' + main[Math.floor(main.length / 2)]);
  }
  // Each move of a variation shows the position after it.
  var variations = Object.keys(links).map(Number).filter(function (b) { return b > last; }).sort(function (a, b) { return a - b; }).map(function (b) {
    var a = links[String(b)];
    a.click();
    return {
      move: moveText(a),
      board: b,
      shown: [g.cur],
      placement: drawn(),
      current: a.classList.contains('current')
    };
  });
  // The last move of the main line, scrolled to and clicked as a reader
  // would: the board is still in view.
  var inView = null;
  if (main.length > 0) {
    var end = links[String(main[main.length - 1])];
    end.scrollIntoView({ block: 'center' });
    end.click();
    var r = g.svg.getBoundingClientRect();
    inView = { top: r.top, bottom: r.bottom, height: window.innerHeight, scrolled: window.scrollY };
  }
  var marks = all(g.svg, '[data-mark]').map(function (x) { return x.getAttribute('data-mark'); });
  var diagrams = all(document, 'figure.diagram').filter(function (f) { return getComputedStyle(f).display !== 'none'; }).length;
  var out = document.getElementById('postal-test');
  out.textContent = JSON.stringify({ plies: last, variations: variations, log: log, boardInView: inView, marksAtEnd: marks, diagramsShown: diagrams });
  out.setAttribute('data-done', 'true');
})();
