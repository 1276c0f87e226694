// qoscal site: draws the page from window.QOSCAL_SITE (data.js). Every
// text from the data goes into the page by textContent (or as an attribute
// value through setAttribute), never as markup; links are built only on
// the https repository URL qoscal checked, with the run id and commit
// it checked to be digits and hex. Charts are inline SVG drawn at the
// width of their box (and drawn again when it changes), each with a table
// beneath as its text alternative.
"use strict";
(function () {
  const D = window.QOSCAL_SITE;
  const NS = "http://www.w3.org/2000/svg";
  const VERDICT = { p: "pass", f: "fail", w: "warn (report only)", i: "inconclusive", r: "rerun", u: "ungated", "-": "no verdict recorded" };
  // Okabe–Ito.
  const COLOUR = { p: "#009E73", f: "#D55E00", w: "#E69F00", i: "#CC79A7", r: "#56B4E9", u: "#ffffff", "-": "#ffffff" };
  const BLUE = "#0072B2", SKY = "#56B4E9", BLACK = "#000000", YELLOW = "#F0E442";

  function h(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function s(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    return e;
  }
  function add(parent, ...kids) {
    for (const k of kids) parent.appendChild(typeof k === "string" ? document.createTextNode(k) : k);
    return parent;
  }
  const byId = (id) => document.getElementById(id);

  // Numbers. Log values are integers at D.scale.
  const ratio = (v) => Math.exp(v / D.scale);
  const fx = (r) => (r >= 10 ? r.toFixed(1) : r >= 1 ? r.toFixed(3) : r.toFixed(3)) + "x";
  const pct = (x, d) => (x * 100).toFixed(d === undefined ? 2 : d) + "%";
  function change(v) {
    if (v === null || v === undefined) return "not compared";
    const c = (ratio(v) - 1) * 100;
    const t = Math.abs(c) < 0.05 ? "0.0%" : (c > 0 ? "+" : "\u2212") + Math.abs(c).toFixed(1) + "%";
    return t;
  }
  function runLink(c, i) {
    if (!D.repository || !/^https:\/\//.test(D.repository) || !/^[0-9]+$/.test(c.gh_runs[i] || "")) return null;
    const a = h("a", null, "run " + c.gh_runs[i]);
    a.setAttribute("href", D.repository + "/actions/runs/" + c.gh_runs[i]);
    return a;
  }
  function commitNode(c, i) {
    const sha = c.commits[i] || "";
    if (!sha) return document.createTextNode("unknown");
    if (D.repository && /^https:\/\//.test(D.repository) && /^[0-9a-fA-F]+$/.test(sha)) {
      const a = h("a", null, sha);
      a.setAttribute("href", D.repository + "/commit/" + sha);
      return a;
    }
    return document.createTextNode(sha);
  }

  // Per calibration: marks by run, links by run, regime of each run.
  function prepare(c) {
    c.mark = {};
    for (const m of c.marks || []) c.mark[m[0]] = { truth: m[1], note: m[2] };
    c.inCalSet = new Set(c.in_cal || []);
    c.linkOf = {};
    for (const l of c.links || []) {
      (c.linkOf[l[0]] = c.linkOf[l[0]] || []).push({ other: l[1], kind: l[2] });
      (c.linkOf[l[1]] = c.linkOf[l[1]] || []).push({ other: l[0], kind: l[2] });
    }
    c.score = c.scores.map((v) => (v === null ? null : v + c.score_base));
  }

  // The status line of each calibration.
  function status() {
    const list = byId("status-list");
    D.cals.forEach((c, ci) => {
      const box = h("div", "status-line");
      box.id = "status-" + ci;
      const head = h("p");
      const a = h("a", "cal", c.name);
      a.setAttribute("href", "#cal-" + ci);
      add(head, a, " " + (c.labels ? "(" + c.labels + ") " : ""), h("span", "muted", c.candidate + " against " + c.baseline));
      box.appendChild(head);
      const ul = h("ul");
      const latest = h("li");
      if (c.latest >= 0) {
        const v = c.verdicts[c.latest];
        const score = c.score[c.latest];
        add(latest, "Latest verdict: ", h("span", "chip v-" + v, c.latest_verdict.toUpperCase()), " run " + c.runs[c.latest] +
          (score !== null ? ", score " + fx(ratio(score)) : ""));
      } else {
        add(latest, "Latest verdict: ", h("span", "chip v--", "NONE"), " no run of this branch was gated against this calibration yet");
      }
      ul.appendChild(latest);
      ul.appendChild(h("li", null, "Floor " + c.floor_text + "x, " + (c.rate === null ? "no false-alarm rate stated" : "stated false-alarm rate " + pct(c.rate) + " per healthy run (" + c.rate_from.replace("_", "-") + ")") +
        (c.profiles ? "; " + c.profiles + " profiles, of which this page shows the file's top level" : "")));
      const au = h("li");
      if (c.audit) {
        const A = c.audit;
        add(au, "Audit: " + A.false_alarms + " false alarm" + (A.false_alarms === 1 ? "" : "s") + " in " + A.healthy + " healthy runs (" + A.marked + " marked, " + A.presumed + " presumed)" +
          (A.healthy > 0 ? ": realised " + pct(A.rate) + " (" + Math.round(A.confidence * 100) + "% interval " + pct(A.lo) + " to " + pct(A.hi) + ")" : "") +
          " against " + (A.claimed === null ? "no rate" : pct(A.claimed)) + " claimed: " + A.verdict + "; " + A.gated + " gated, " + A.passed + " passed, " + A.failed + " failed, " + A.rerun + " rerun" +
          (A.missed ? "; " + A.missed + " marked regressed passed" : ""));
      } else {
        add(au, "Audit: no verdict recorded against this calibration, so nothing to audit.");
      }
      ul.appendChild(au);
      box.appendChild(ul);
      list.appendChild(box);
      const n = h("a", null, c.name + (c.labels ? " (" + c.labels + ")" : ""));
      n.setAttribute("href", "#cal-" + ci);
      byId("nav").appendChild(n);
    });
    if (!D.cals.length) list.appendChild(h("p", null, "No calibration was given."));
  }

  // The score chart: each run's score in the order recorded, the floor,
  // the calibration's runs, the regimes, verdicts, marks, pairs and reruns.
  function scoreChart(c, ci, fig) {
    const svgBox = h("div");
    const tip = h("div", "tip");
    tip.hidden = true;
    tip.setAttribute("role", "status");
    fig.appendChild(svgBox);
    fig.appendChild(tip);
    let sel = c.latest >= 0 ? c.latest : c.runs.length - 1;
    let geom = null;
    function draw() {
      const W = Math.max(280, Math.round(svgBox.clientWidth || fig.clientWidth || 600));
      const H = W < 500 ? 220 : 280;
      const L = 52, R = 8, T = 18, B = 30;
      const n = c.runs.length;
      let lo = c.floor_log, hi = c.floor_log;
      for (const v of c.score) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      const pad = Math.max(20, (hi - lo) * 0.08);
      lo -= pad; hi += pad;
      const x = (i) => L + ((i + 0.5) * (W - L - R)) / Math.max(1, n);
      const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
      geom = { x, y, L, R, W, n };
      const svg = s("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, tabindex: 0, role: "img", focusable: "true" });
      svg.setAttribute("aria-label", "Score of each run of " + c.name + " in the order recorded, with the floor " + c.floor_text + "x. Arrow keys step through the runs; the table below has every run.");
      // Regimes, shaded every other one.
      (c.regimes || []).forEach((r, k) => {
        const x0 = x(r[0]) - (W - L - R) / n / 2, x1 = x(r[0] + r[1] - 1) + (W - L - R) / n / 2;
        if (k % 2 === 1) svg.appendChild(s("rect", { x: x0, y: T, width: Math.max(0, x1 - x0), height: H - T - B, fill: "#000", "fill-opacity": 0.06 }));
        if (c.regimes.length > 1) {
          const t = s("text", { x: x0 + 3, y: T - 4 });
          t.textContent = "regime " + (k + 1) + ": " + fx(r[2]);
          if (x1 - x0 > 90) svg.appendChild(t);
        }
      });
      // The calibration's runs: a strip under the axis.
      for (const i of c.in_cal || []) {
        svg.appendChild(s("rect", { x: x(i) - Math.max(1, (W - L - R) / n / 2), y: H - B + 2, width: Math.max(2, (W - L - R) / n), height: 6, fill: SKY, "fill-opacity": 0.8 }));
      }
      // Axes and ticks (log scale: ticks at round ratios).
      svg.appendChild(s("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#888" }));
      svg.appendChild(s("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#888" }));
      const rlo = ratio(lo), rhi = ratio(hi);
      const span = rhi - rlo;
      const step = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5].find((st) => span / st <= 5) || 10;
      for (let t = Math.ceil(rlo / step) * step; t <= rhi; t += step) {
        const yy = y(Math.log(t) * D.scale);
        svg.appendChild(s("line", { x1: L - 4, y1: yy, x2: W - R, y2: yy, stroke: "#000", "stroke-opacity": 0.08 }));
        const tx = s("text", { x: L - 6, y: yy + 4, "text-anchor": "end" });
        tx.textContent = t.toFixed(step < 0.01 ? 3 : 2) + "x";
        svg.appendChild(tx);
      }
      const xt = s("text", { x: W - R, y: H - 6, "text-anchor": "end" });
      xt.textContent = "run, in the order recorded (" + n + ")";
      svg.appendChild(xt);
      // The floor.
      const fy = y(c.floor_log);
      svg.appendChild(s("line", { x1: L, y1: fy, x2: W - R, y2: fy, stroke: BLACK, "stroke-width": 1.5, "stroke-dasharray": "6 4" }));
      const ft = s("text", { x: L + 4, y: fy - 4 });
      ft.textContent = "floor " + c.floor_text + "x";
      svg.appendChild(ft);
      // The scores as a line.
      let d = "";
      c.score.forEach((v, i) => { if (v !== null) d += (d && c.score[i - 1] !== null ? "L" : "M") + x(i).toFixed(1) + " " + y(v).toFixed(1); });
      svg.appendChild(s("path", { d, fill: "none", stroke: BLUE, "stroke-width": 1, "stroke-opacity": 0.6 }));
      // Pairs and reruns: an arc between the runs judged together.
      for (const l of c.links || []) {
        const a = c.score[l[0]], b = c.score[l[1]];
        if (a === null || b === null) continue;
        const x0 = x(l[0]), x1 = x(l[1]), y0 = y(a), y1 = y(b), top = Math.min(y0, y1) - 14;
        svg.appendChild(s("path", { d: "M" + x0 + " " + y0 + "Q" + (x0 + x1) / 2 + " " + top + " " + x1 + " " + y1, fill: "none", stroke: l[2] === "pair" ? "#CC79A7" : BLACK, "stroke-width": 1.5, "stroke-dasharray": l[2] === "pair" ? "" : "2 2" }));
      }
      // The points: gated runs filled with their verdict's colour.
      const r = n > 400 ? 2.5 : 3.5;
      c.score.forEach((v, i) => {
        if (v === null) return;
        const vd = c.verdicts[i];
        const cx = x(i), cy = y(v);
        if (vd === "-") {
          svg.appendChild(s("circle", { cx, cy, r: r * 0.7, fill: "#fff", stroke: BLUE, "stroke-width": 1, class: "pt v-" }));
        } else {
          svg.appendChild(s("circle", { cx, cy, r, fill: COLOUR[vd], stroke: BLACK, "stroke-width": vd === "u" ? 1 : 0.5, class: "pt pt-" + vd }));
        }
        const m = c.mark[i];
        if (m) {
          const q = r + 3;
          svg.appendChild(s("rect", { x: cx - q / 2, y: cy - r - 4 - q, width: q, height: q, fill: m.truth === "regressed" ? BLACK : YELLOW, stroke: BLACK, transform: "rotate(45 " + cx + " " + (cy - r - 4 - q / 2) + ")", class: "mark" }));
        }
      });
      const ring = s("circle", { r: r + 4, fill: "none", stroke: BLACK, "stroke-width": 2, visibility: "hidden" });
      svg.appendChild(ring);
      geom.ring = ring;
      svg.addEventListener("pointermove", pick);
      svg.addEventListener("pointerdown", pick);
      svg.addEventListener("keydown", key);
      svg.addEventListener("focus", () => show(sel));
      svgBox.replaceChildren(svg);
      geom.svg = svg;
    }
    function pick(ev) {
      const rect = geom.svg.getBoundingClientRect();
      const px = ((ev.clientX - rect.left) * geom.W) / rect.width;
      const i = Math.round(((px - geom.L) * geom.n) / (geom.W - geom.L - geom.R) - 0.5);
      show(Math.max(0, Math.min(geom.n - 1, i)));
    }
    function key(ev) {
      const step = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 }[ev.key];
      if (ev.key === "Home") show(0);
      else if (ev.key === "End") show(geom.n - 1);
      else if (ev.key === "Escape") { tip.hidden = true; geom.ring.setAttribute("visibility", "hidden"); return; }
      else if (step) show(Math.max(0, Math.min(geom.n - 1, sel + step)));
      else return;
      ev.preventDefault();
    }
    function show(i) {
      if (i < 0 || i >= c.runs.length) return;
      sel = i;
      const v = c.score[i];
      tip.replaceChildren();
      add(tip, h("p", null, "Run " + c.runs[i] + " (" + (i + 1) + " of " + c.runs.length + ")"));
      const cp = h("p", null, "Commit ");
      cp.appendChild(commitNode(c, i));
      tip.appendChild(cp);
      tip.appendChild(h("p", null, "Score " + (v === null ? "none (a suite benchmark is missing)" : fx(ratio(v))) + ", floor " + c.floor_text + "x"));
      const vp = h("p", null, "Verdict: ");
      vp.appendChild(h("span", "chip v-" + c.verdicts[i], VERDICT[c.verdicts[i]]));
      tip.appendChild(vp);
      if (c.inCalSet.has(i)) tip.appendChild(h("p", null, "A run of the calibration"));
      const m = c.mark[i];
      if (m) tip.appendChild(h("p", null, "Marked " + m.truth + (m.note ? ": " + m.note : "")));
      for (const l of c.linkOf[i] || []) {
        const what = l.kind === "pair" ? "Judged as a pair with run " : l.other > i ? "Run again as run " : "Ran again the commit of run ";
        tip.appendChild(h("p", null, what + c.runs[l.other]));
      }
      const link = runLink(c, i);
      if (link) { const p = h("p"); p.appendChild(link); tip.appendChild(p); }
      tip.hidden = false;
      if (v !== null) {
        geom.ring.setAttribute("cx", geom.x(i));
        geom.ring.setAttribute("cy", geom.y(v));
        geom.ring.setAttribute("visibility", "visible");
      }
      const rect = geom.svg.getBoundingClientRect(), box = fig.getBoundingClientRect();
      const px = (geom.x(i) * rect.width) / geom.W + rect.left - box.left;
      const tw = Math.min(tip.offsetWidth || 200, box.width);
      tip.style.left = Math.max(0, Math.min(box.width - tw, px - tw / 2)) + "px";
      tip.style.top = rect.bottom - box.top + 4 + "px";
    }
    // Drawn by main once the section is in the page, at its width.
    return draw;
  }

  function key(items) {
    const ul = h("ul", "key");
    for (const [cls, text] of items) {
      const li = h("li");
      add(li, h("span", "sw " + cls), text);
      ul.appendChild(li);
    }
    return ul;
  }

  function table(head, rows, numeric) {
    const wrap = h("div", "scroll");
    const t = h("table");
    const tr = h("tr");
    head.forEach((x, k) => { const th = h("th", numeric[k] ? "num" : null, x); th.setAttribute("scope", "col"); tr.appendChild(th); });
    const thead = h("thead");
    thead.appendChild(tr);
    const tb = h("tbody");
    for (const r of rows) tb.appendChild(r);
    add(t, thead, tb);
    wrap.appendChild(t);
    return wrap;
  }
  function row(cells, numeric, classes) {
    const tr = h("tr");
    cells.forEach((x, k) => {
      const td = h("td", [numeric[k] ? "num" : "", classes && classes[k] ? classes[k] : ""].join(" ").trim() || null);
      if (x instanceof Node) td.appendChild(x);
      else td.textContent = x === null || x === undefined ? "" : String(x);
      tr.appendChild(td);
    });
    return tr;
  }

  // The score chart's table: every run, built when opened.
  function scoreTable(c) {
    const det = h("details");
    add(det, h("summary", null, "The " + c.runs.length + " runs as a table (the chart's text alternative)"));
    det.addEventListener("toggle", () => {
      if (!det.open || det.dataset.built) return;
      det.dataset.built = "1";
      const num = [true, false, false, true, false, false, false];
      const regimeOf = [];
      (c.regimes || []).forEach((r, k) => { for (let i = r[0]; i < r[0] + r[1]; i++) regimeOf[i] = k + 1; });
      const rows = c.runs.map((id, i) => row([i + 1, id, commitNode(c, i), c.score[i] === null ? "none" : fx(ratio(c.score[i])), VERDICT[c.verdicts[i]],
        c.mark[i] ? c.mark[i].truth + (c.mark[i].note ? ": " + c.mark[i].note : "") : "",
        (c.inCalSet.has(i) ? "calibration run; " : "") + (regimeOf[i] ? "regime " + regimeOf[i] : "")], num));
      det.appendChild(table(["#", "run", "commit", "score", "verdict", "mark", "notes"], rows, num));
    });
    return det;
  }

  // What changed at the latest run.
  function changed(c) {
    const sec = h("section");
    const ch = c.changed;
    add(sec, h("h3", null, "What changed"));
    if (ch.latest < 0) {
      sec.appendChild(h("p", null, "No run of this branch yet: no run compared yet."));
      return sec;
    }
    const latest = c.runs[ch.latest];
    const p = h("p");
    if (ch.previous < 0) {
      add(p, "Run " + latest + " is the first of this branch: no run compared yet. Its ratios against the calibration's usual ratios are below.");
    } else {
      add(p, "Run " + latest + " against run " + c.runs[ch.previous] + " before it, and against the calibration's usual ratio, per benchmark, the largest fall first.");
    }
    if (c.verdicts[ch.latest] === "-") add(p, " Run " + latest + " has no verdict recorded against this calibration: it was not gated, which is not a pass.");
    else add(p, " Its verdict: " + VERDICT[c.verdicts[ch.latest]] + ".");
    sec.appendChild(p);
    const num = [false, true, true, true, false];
    const noBand = new Set(c.no_band || []);
    const rows = ch.rows.map((r) => {
      const j = r[0], b = c.bands[j];
      const band = noBand.has(j) ? "none" : fx(ratio(b[0])) + " to " + fx(ratio(b[1]));
      const out = r[3] || "not judged";
      return row([c.benchmarks[j], ch.previous < 0 ? "no run compared yet" : change(r[1]), r[2] === null ? "not measured" : change(r[2]), band, out], num, [null, null, null, null, r[3]]);
    });
    // The ten largest falls; the rest behind a button.
    const FIRST = 10;
    rows.forEach((r, k) => { if (k >= FIRST) r.hidden = true; });
    sec.appendChild(table(["benchmark", "since the run before", "against the calibration", "band (ratio)", "the gate's band outcome"], rows, num));
    if (rows.length > FIRST) {
      const more = h("button", null, "Show all " + rows.length + " benchmarks");
      more.type = "button";
      more.setAttribute("aria-expanded", "false");
      more.addEventListener("click", () => {
        const open = more.getAttribute("aria-expanded") !== "true";
        rows.forEach((r, k) => { if (k >= FIRST) r.hidden = !open; });
        more.setAttribute("aria-expanded", String(open));
        more.textContent = open ? "Show the first " + FIRST + " only" : "Show all " + rows.length + " benchmarks";
      });
      sec.appendChild(more);
    }
    return sec;
  }

  // Every benchmark as a small multiple, filterable and sortable.
  function multiples(c, ci) {
    const sec = h("section");
    add(sec, h("h3", null, "Every benchmark"));
    const n = c.runs.length;
    const latest = c.changed.latest, prev = c.changed.previous;
    const info = c.benchmarks.map((name, j) => {
      const a = latest >= 0 ? c.ratios[j][latest] : null, b = prev >= 0 ? c.ratios[j][prev] : null;
      return { name, j, share: c.share[j], delta: a !== null && b !== null ? a - b : null, latest: a === null ? null : a + c.bands[j][2] };
    });
    const controls = h("div", "controls");
    const fl = h("label", null, "Filter by name");
    const input = h("input");
    input.type = "search";
    input.id = "filter-" + ci;
    input.setAttribute("autocomplete", "off");
    fl.appendChild(input);
    const sl = h("label", null, "Sort by");
    const sort = h("select");
    sort.id = "sort-" + ci;
    for (const [v, t] of [["share", "share of the score's variance"], ["change", "latest change (largest fall first)"], ["name", "name"]]) {
      const o = h("option", null, t);
      o.value = v;
      sort.appendChild(o);
    }
    sl.appendChild(sort);
    const count = h("p", "muted");
    count.setAttribute("aria-live", "polite");
    add(controls, fl, sl, count);
    sec.appendChild(controls);
    sec.appendChild(key([["n", "the ratio, run by run"], ["cal", "band: the ratios the gate accepts"]]));
    const grid = h("div", "multiples");
    grid.id = "multiples-" + ci;
    const cards = [], trs = [];
    const num = [false, true, true, true, true];
    for (const it of info) {
      const card = h("div", "multiple");
      card.dataset.name = it.name;
      add(card, h("h4", null, it.name));
      card.appendChild(spark(c, it.j, n));
      add(card, h("p", null, "latest " + (it.latest === null ? "none" : fx(ratio(it.latest))) + " (" + (it.delta === null ? "not compared" : change(it.delta) + " since the run before") + "), " + (it.share / 10).toFixed(1) + "% of the score's variance"));
      cards.push(card);
      const noBand = (c.no_band || []).indexOf(it.j) >= 0;
      const tr = row([it.name, (it.share / 10).toFixed(1) + "%", it.latest === null ? "none" : fx(ratio(it.latest)), change(it.delta),
        noBand ? "none" : fx(ratio(c.bands[it.j][0])) + " to " + fx(ratio(c.bands[it.j][1]))], num);
      tr.dataset.name = it.name;
      trs.push(tr);
    }
    const tbl = table(["benchmark", "share of variance", "latest ratio", "since the run before", "band"], [], num);
    const tbody = tbl.querySelector("tbody");
    sec.appendChild(grid);
    const det = h("details");
    add(det, h("summary", null, "The benchmarks as a table (the small multiples' text alternative)"), tbl);
    sec.appendChild(det);
    function apply() {
      const q = input.value.trim().toLowerCase();
      const order = info.slice();
      const by = sort.value;
      order.sort((a, b) => {
        if (by === "share") return b.share - a.share || a.name.localeCompare(b.name);
        if (by === "change") {
          if ((a.delta === null) !== (b.delta === null)) return a.delta === null ? 1 : -1;
          return (a.delta || 0) - (b.delta || 0) || a.name.localeCompare(b.name);
        }
        return a.name.localeCompare(b.name);
      });
      let shown = 0;
      for (const it of order) {
        const on = q === "" || it.name.toLowerCase().includes(q);
        cards[info.indexOf(it)].hidden = !on;
        trs[info.indexOf(it)].hidden = !on;
        grid.appendChild(cards[info.indexOf(it)]);
        tbody.appendChild(trs[info.indexOf(it)]);
        if (on) shown++;
      }
      count.textContent = shown + " of " + info.length + " benchmarks shown";
    }
    input.addEventListener("input", apply);
    sort.addEventListener("change", apply);
    apply();
    return sec;
  }

  // One benchmark's sparkline: its ratios (offsets from the usual ratio)
  // with its band, on the panel's own scale.
  function spark(c, j, n) {
    const W = 200, H = 48;
    const vals = c.ratios[j], b = c.bands[j], u = b[2];
    let lo = b[0] - u, hi = b[1] - u;
    for (const v of vals) if (v !== null) { if (v < lo) lo = v; if (v > hi) hi = v; }
    if (hi - lo < 10) { hi += 5; lo -= 5; }
    const y = (v) => 2 + ((hi - v) * (H - 4)) / (hi - lo);
    const x = (i) => (n <= 1 ? W / 2 : (i * W) / (n - 1));
    const svg = s("svg", { viewBox: "0 0 " + W + " " + H, preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" });
    if (b[0] !== b[1]) svg.appendChild(s("rect", { x: 0, y: y(b[1] - u), width: W, height: Math.max(1, y(b[0] - u) - y(b[1] - u)), fill: SKY, "fill-opacity": 0.3 }));
    svg.appendChild(s("line", { x1: 0, x2: W, y1: y(0), y2: y(0), stroke: "#000", "stroke-opacity": 0.3, "vector-effect": "non-scaling-stroke" }));
    let d = "";
    for (let i = 0; i < n; i++) {
      const v = vals[i];
      if (v === null) continue;
      d += (i > 0 && vals[i - 1] !== null ? "L" : "M") + x(i).toFixed(1) + " " + y(v).toFixed(1);
    }
    svg.appendChild(s("path", { d, fill: "none", stroke: BLUE, "stroke-width": 1, "vector-effect": "non-scaling-stroke" }));
    return svg;
  }

  function calSection(c, ci) {
    const sec = h("section");
    sec.id = "cal-" + ci;
    sec.setAttribute("aria-labelledby", "cal-h-" + ci);
    const h2 = h("h2", null, c.name + (c.labels ? " (" + c.labels + ")" : ""));
    h2.id = "cal-h-" + ci;
    sec.appendChild(h2);
    sec.appendChild(h("p", "muted", c.candidate + " against " + c.baseline + ": " + c.runs.length + " runs of the branch the calibration was made on, in the order recorded; calibration sha256 " + c.sha.slice(0, 12) + "."));
    if (c.note) sec.appendChild(h("p", "note", c.note));
    add(sec, h("h3", null, "Score per run"));
    const fig = h("figure");
    fig.id = "score-" + ci;
    sec.appendChild(fig);
    const cap = h("figcaption", null, "Score per run with the floor. Point or tap a run, or focus the chart and use the arrow keys, to see its run, commit, score and verdict.");
    const redraw = scoreChart(c, ci, fig);
    fig.appendChild(cap);
    sec.appendChild(key([["p", "pass"], ["f", "fail"], ["w", "warn (report only)"], ["i", "inconclusive"], ["r", "rerun"], ["u", "ungated"], ["n", "no verdict"],
      ["floor", "floor"], ["cal", "calibration's runs"], ["reg", "regimes, shaded in turn"], ["mark", "marked healthy (yellow) or regressed (black)"]]));
    sec.appendChild(scoreTable(c));
    sec.appendChild(changed(c));
    sec.appendChild(multiples(c, ci));
    return { sec, redraw };
  }

  function main() {
    if (!D || !Array.isArray(D.cals)) {
      byId("status-list").appendChild(h("p", "note", "The data file (data.js) is missing or damaged."));
      return;
    }
    D.cals.forEach(prepare);
    const about = byId("about");
    about.textContent = "The score of each run of the calibrated branch, its verdicts, and what changed, from the store " + D.store +
      " (qoscal " + D.version + (D.generated ? ", " + D.generated : "") + ").";
    status();
    const redraws = [];
    const holder = byId("cals");
    D.cals.forEach((c, ci) => {
      const { sec, redraw } = calSection(c, ci);
      holder.appendChild(sec);
      redraws.push(redraw);
    });
    // Charts were drawn before their section was in the page: draw them
    // again at their box's width, and whenever it changes.
    let last = 0;
    const again = () => {
      const w = holder.clientWidth;
      if (w === last) return;
      last = w;
      redraws.forEach((r) => r());
    };
    again();
    window.addEventListener("resize", again);
    // For a page check: when the page was drawn.
    if (window.performance && performance.mark) performance.mark("qoscal-drawn");
  }
  main();
})();
