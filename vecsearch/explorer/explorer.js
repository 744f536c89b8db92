// vecsearch explorer: the layers of a state space, a page of each layer's states as pictures, a
// state's neighbours with their distances, a solution to step along.
//
// One view for two sources of answers (the protocol is in vecsearch/explorer/model.py):
// vsxStaticSource reads a snapshot embedded in the page (a sample of each layer), and
// vsxWidgetSource asks the Python kernel through the widget's model. The static page runs this
// file as a plain script (vsxMountStatic); the Jupyter widget as a module (vsxMountWidget).
// Everything the page learns is kept in data-* attributes, so a test can read what it shows.

function vsxStaticSource(snapshot) {
  return {
    live: false,
    palette: snapshot.palette.slice(),
    records: Object.assign({}, snapshot.records),
    overview: () => Promise.resolve(snapshot.overview),
    page: (side, depth, page) => Promise.resolve(snapshot.pages[`${side}/${depth}/${page}`] || null),
    state: (id) => Promise.resolve({ id, neighbours: snapshot.neighbours[id] || null }),
  };
}

function vsxWidgetSource(model) {
  const view = Math.random().toString(36).slice(2);
  const waiting = new Map();
  let count = 0;
  const source = { live: true, palette: [], records: {} };
  const listen = (message) => {
    const pending = message && waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(message.error));
    else pending.resolve(message.answer);
  };
  model.on("msg:custom", listen);
  const ask = (request) => new Promise((resolve, reject) => {
    const id = `${view}:${count++}`;
    waiting.set(id, { resolve, reject });
    model.send({ id, request: Object.assign({ known: source.palette.length }, request) });
  });
  source.overview = () => ask({ kind: "overview" });
  source.page = (side, depth, page) => ask({ kind: "page", side, depth, page });
  source.state = (id) => ask({ kind: "state", id });
  source.remember = (state) => { model.set("view", state); model.save_changes(); };
  source.close = () => model.off("msg:custom", listen);
  return source;
}

function vsxMountStatic(el, snapshot) {
  return vsxMount(el, vsxStaticSource(snapshot));
}

function vsxMountWidget(el, model) {
  const source = vsxWidgetSource(model);
  vsxMount(el, source);
  return () => source.close();
}

function vsxMount(el, source) {
  const app = { source, ov: null, side: 0, depth: 0, page: 0, selected: null, step: null, pending: 0 };
  el.classList.add("vsx");
  el.textContent = "loading the explorer\u2026";
  ask(app, source.overview(), (ov) => {
    app.ov = ov;
    el.textContent = "";
    build(app, el);
    if (ov.solution) app.step = 0;
    showLayer(app, 0, 0, 0);
    select(app, ov.first);
  });
  return app;
}

// --- answers -------------------------------------------------------------------------------

function ask(app, promise, then) {
  app.pending += 1;
  busy(app);
  promise.then((answer) => {
    absorb(app.source, answer);
    then(answer);
  }).catch((error) => {
    if (app.message) app.message.textContent = `error: ${error.message}`;
  }).finally(() => {
    app.pending -= 1;
    busy(app);
  });
}

function busy(app) {
  if (app.root) app.root.dataset.busy = app.pending > 0 ? "1" : "0";
}

function absorb(source, answer) {
  if (!answer) return;
  if (answer.palette) {
    answer.palette.entries.forEach((entry, k) => { source.palette[answer.palette.start + k] = entry; });
  }
  if (answer.records) Object.assign(source.records, answer.records);
}

// --- the view ------------------------------------------------------------------------------

function h(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") node.textContent = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else node.setAttribute(key, value);
  }
  for (const child of children || []) node.appendChild(child);
  return node;
}

function build(app, el) {
  const ov = app.ov;
  app.root = h("div", { class: "vsx-root", "data-puzzle": ov.puzzle, "data-live": ov.live ? "1" : "0" });
  el.appendChild(app.root);
  const total = ov.sides.map((s) => `${s.sizes.reduce((a, b) => a + b, 0).toLocaleString("en")} states in`
    + ` ${s.sizes.length} layers (${s.label}${s.complete ? "" : ", as far as searched"})`).join("; ");
  app.root.appendChild(h("div", { class: "vsx-head" }, [
    h("b", { text: ov.puzzle }), h("span", { text: ` \u2014 ${total}` })]));
  app.root.appendChild(bars(app));
  app.layerHead = h("div", { class: "vsx-layer-head" });
  app.nav = h("div", { class: "vsx-nav" });
  app.grid = h("div", { class: "vsx-grid" });
  app.selected = null;
  app.selectedView = h("div", { class: "vsx-selected" });
  app.neighbours = h("div", { class: "vsx-neighbours" });
  app.message = h("div", { class: "vsx-message" });
  app.root.appendChild(h("div", { class: "vsx-main" }, [
    h("div", { class: "vsx-layer" }, [app.layerHead, app.nav, app.grid]),
    h("div", { class: "vsx-state" }, [app.selectedView, app.neighbours, app.message]),
  ]));
  if (ov.solution) {
    app.solutionNav = h("div", { class: "vsx-solution-nav" });
    app.strip = h("div", { class: "vsx-strip" });
    app.root.appendChild(h("div", { class: "vsx-solution" }, [app.solutionNav, app.strip]));
    drawStrip(app);
  }
}

function bars(app) {
  const ov = app.ov;
  const most = Math.max(1, ...ov.sides.flatMap((s) => s.sizes));
  const row = h("div", { class: "vsx-bars" });
  ov.sides.forEach((side, s) => {
    const depths = side.sizes.map((_, d) => d);
    if (s === 1) depths.reverse(); // a bidirectional search: the goal's side runs from the right
    const group = h("div", { class: "vsx-side", "data-side": s }, [h("div", { class: "vsx-side-label", text: side.label })]);
    const strip = h("div", { class: "vsx-side-bars" });
    for (const d of depths) {
      const size = side.sizes[d];
      const height = 4 + Math.round(76 * Math.log(1 + size) / Math.log(1 + most));
      strip.appendChild(h("button", {
        class: "vsx-bar", "data-side": s, "data-depth": d, "data-size": size,
        title: `${side.label}: ${d}\n${size.toLocaleString("en")} states`,
        onclick: () => showLayer(app, s, d, 0),
      }, [h("span", { class: "vsx-fill", style: `height:${height}px` }), h("span", { class: "vsx-depth", text: d })]));
    }
    group.appendChild(strip);
    row.appendChild(group);
    if (s === 0 && ov.sides.length > 1) row.appendChild(h("div", { class: "vsx-meet", text: "\u21c4" }));
  });
  return row;
}

function available(app, side, depth) {
  const s = app.ov.sides[side];
  return app.ov.live ? s.sizes[depth] : s.available[depth];
}

function showLayer(app, side, depth, page) {
  const pages = Math.max(1, Math.ceil(available(app, side, depth) / app.ov.per_page));
  page = Math.max(0, Math.min(page, pages - 1));
  ask(app, app.source.page(side, depth, page), (answer) => {
    Object.assign(app, { side, depth, page });
    const s = app.ov.sides[side];
    const size = s.sizes[depth];
    const shown = available(app, side, depth);
    let text = `${s.label}: ${depth} \u2014 ${size.toLocaleString("en")} states`;
    if (shown < size) text += ` (${shown} of them in this page, spread evenly over the layer)`;
    app.layerHead.textContent = text;
    app.layerHead.dataset.side = side;
    app.layerHead.dataset.depth = depth;
    app.nav.textContent = "";
    const go = (label, act, target) => h("button", { class: "vsx-go", "data-act": act, text: label,
      onclick: () => showLayer(app, side, depth, target) });
    app.nav.append(go("\u00ab", "first", 0), go("\u2039", "prev", page - 1),
      h("span", { class: "vsx-page", "data-page": page, "data-pages": pages, text: ` page ${page + 1} of ${pages.toLocaleString("en")} ` }),
      go("\u203a", "next", page + 1), go("\u00bb", "last", pages - 1));
    if (app.ov.live && pages > 1) {
      app.nav.append(go("random page", "random", Math.floor(Math.random() * pages)));
    }
    app.grid.textContent = "";
    for (const id of answer ? answer.ids : []) app.grid.appendChild(card(app, id, null, () => select(app, id)));
    if (!answer) app.grid.textContent = "this page holds no states of this layer";
    markBars(app);
    remember(app);
  });
}

function select(app, id) {
  ask(app, app.source.state(id), (answer) => {
    app.selected = id;
    if (app.ov.solution) {
      const at = app.ov.solution.ids.indexOf(id);
      app.step = at >= 0 ? at : app.step;
    }
    app.selectedView.textContent = "";
    const record = app.source.records[id];
    app.selectedView.append(card(app, id, null, null, 1.5),
      h("div", { class: "vsx-text" }, [h("code", { text: record.text })]));
    app.neighbours.textContent = "";
    app.message.textContent = "";
    if (answer.neighbours === null) {
      app.message.textContent = "its neighbours are not in this page, which holds a sample of each layer"
        + " and their neighbours; the widget in Jupyter explores every state";
    } else {
      app.neighbours.appendChild(h("div", { class: "vsx-caption-line", text: `${answer.neighbours.length} moves from here:` }));
      for (const [move, kid] of answer.neighbours) {
        app.neighbours.appendChild(card(app, kid, { move, from: record }, () => select(app, kid)));
      }
    }
    for (const node of app.grid.querySelectorAll(".vsx-card")) node.classList.toggle("vsx-chosen", node.dataset.id === id);
    markBars(app);
    drawSolutionNav(app);
    remember(app);
  });
}

function markBars(app) {
  const record = app.selected && app.source.records[app.selected];
  for (const bar of app.root.querySelectorAll(".vsx-bar")) {
    const s = +bar.dataset.side, d = +bar.dataset.depth;
    bar.classList.toggle("vsx-open", s === app.side && d === app.depth);
    bar.classList.toggle("vsx-here", !!record && record.depths[s] === d);
  }
}

function depthText(app, depths) {
  return depths.map((d, s) => `${d < 0 ? "?" : d} ${app.ov.sides[s].name}`).join(" \u00b7 ");
}

function card(app, id, move, onclick, scale) {
  const record = app.source.records[id];
  const node = h(onclick ? "button" : "div", {
    class: "vsx-card", "data-id": id, "data-text": record.text, "data-depths": record.depths.join(","),
    title: record.text,
  });
  if (onclick) node.addEventListener("click", onclick);
  if (move) {
    const change = record.depths[0] >= 0 && move.from.depths[0] >= 0 ? record.depths[0] - move.from.depths[0] : null;
    const arrow = change === null ? "" : change > 0 ? " \u2191" : change < 0 ? " \u2193" : " =";
    node.dataset.move = move.move;
    node.appendChild(h("div", { class: "vsx-move", text: move.move + arrow }));
  }
  const picture = h("div", { class: "vsx-picture" });
  if (record.board) picture.innerHTML = boardSvg(app, record.board, scale || 1);
  else picture.appendChild(h("pre", { text: record.text }));
  node.appendChild(picture);
  node.appendChild(h("div", { class: "vsx-caption", text: depthText(app, record.depths) }));
  return node;
}

function boardSvg(app, board, scale) {
  const size = app.ov.cell;
  const parts = [board.labels];
  board.cells.forEach((k, i) => {
    if (k < 0) return;
    const x = board.m + (i % board.c) * size, y = Math.floor(i / board.c) * size;
    parts.push(`<g transform="translate(${x},${y})">${app.source.palette[k]}</g>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${board.w * scale}" height="${board.h * scale}"`
    + ` viewBox="0 0 ${board.w} ${board.h}" font-family="sans-serif">${parts.join("")}</svg>`;
}

// --- the solution --------------------------------------------------------------------------

function drawStrip(app) {
  const solution = app.ov.solution;
  solution.ids.forEach((id, i) => {
    const node = card(app, id, null, () => goStep(app, i), 0.5);
    node.dataset.step = i;
    node.insertBefore(h("div", { class: "vsx-move", text: i === 0 ? "start" : `${i}: ${solution.moves[i - 1]}` }),
      node.firstChild);
    app.strip.appendChild(node);
  });
}

function goStep(app, step) {
  const ids = app.ov.solution.ids;
  select(app, ids[Math.max(0, Math.min(step, ids.length - 1))]);
}

function drawSolutionNav(app) {
  const solution = app.ov.solution;
  if (!solution) return;
  const last = solution.ids.length - 1;
  const on = solution.ids[app.step] === app.selected;
  const go = (label, act, target) => h("button", { class: "vsx-go", "data-act": act, text: label,
    onclick: () => goStep(app, target) });
  const move = app.step > 0 ? `, after ${solution.moves[app.step - 1]}` : "";
  app.solutionNav.textContent = "";
  app.solutionNav.append(h("b", { text: `solution, ${last} moves: ` }), go("\u00ab", "first", 0),
    go("\u2039", "prev", app.step - 1),
    h("span", { class: "vsx-step", "data-step": on ? app.step : -1,
      text: on ? ` step ${app.step} of ${last}${move} ` : " (the state shown is off the path) " }),
    go("\u203a", "next", app.step + 1), go("\u00bb", "last", last));
  for (const node of app.strip.querySelectorAll(".vsx-card")) {
    node.classList.toggle("vsx-chosen", on && +node.dataset.step === app.step);
  }
}

function remember(app) {
  if (app.source.remember) {
    app.source.remember({ side: app.side, depth: app.depth, page: app.page, selected: app.selected, step: app.step });
  }
}
