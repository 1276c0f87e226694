// The page check of TestSiteBrowser: loaded before the site's own scripts
// in a copy of its page (index-check.html), it records errors and policy
// violations as they happen, then, once the page has drawn, checks what a
// reader would see and writes its findings as JSON into <pre
// id="result">, which the test reads back with Chromium's --dump-dom.
"use strict";
(function () {
  const errors = [];
  const violations = [];
  window.addEventListener("error", (e) => errors.push("error: " + (e.message || (e.target && (e.target.src || e.target.href)) || "?")), true);
  window.addEventListener("unhandledrejection", (e) => errors.push("rejection: " + e.reason));
  window.addEventListener("securitypolicyviolation", (e) => violations.push(e.violatedDirective + " " + e.blockedURI));
  const origError = console.error;
  console.error = function (...args) { errors.push("console.error: " + args.join(" ")); return origError.apply(console, args); };

  // index-check.html#width=390: the page is held to that width (headless
  // Chromium's window is at least 500 pixels wide).
  const held = /width=([0-9]+)/.exec(location.hash);
  if (held) document.documentElement.style.width = held[1] + "px";

  function visible(el) { return !!el && !el.closest("[hidden]") && el.getBoundingClientRect().width > 0; }

  function check() {
    const r = { errors, violations, problems: [] };
    const bad = (msg) => r.problems.push(msg);
    try {
      const paint = performance.getEntriesByType("paint");
      for (const p of paint) r[p.name] = Math.round(p.startTime);
      const drawn = performance.getEntriesByName("qoscal-drawn")[0];
      if (drawn) r.drawn = Math.round(drawn.startTime);
      const nav = performance.getEntriesByType("navigation")[0];
      if (nav) r.load = Math.round(nav.loadEventEnd || nav.domComplete);
      // Every request the page made: only the site's own files.
      const here = location.href.replace(/[^/]*$/, "");
      r.requests = performance.getEntriesByType("resource").map((e) => e.name);
      for (const u of r.requests) if (!u.startsWith(here)) bad("a request left the page's folder: " + u);
      for (const el of document.querySelectorAll("[src], link[href], image, use, iframe, object, embed")) {
        const u = el.getAttribute("src") || el.getAttribute("href") || "";
        if (/^[a-z]+:/i.test(u) || u.startsWith("//")) bad("an element refers elsewhere: " + el.tagName + " " + u);
      }
      // Hostile names are text, never markup.
      if (window.__pwned) bad("a name ran script: __pwned=" + window.__pwned);
      if (document.querySelectorAll("img").length) bad("an <img> reached the page");
      if (document.querySelectorAll("script").length !== 3) bad(document.querySelectorAll("script").length + " script elements, expected data.js, site.js and this check");
      if (document.querySelectorAll("b").length) bad("a <b> from a mark's note reached the page");
      // The status line.
      const st = document.getElementById("status-0");
      r.status = st ? st.textContent.replace(/\s+/g, " ").trim() : "";
      if (!/Latest verdict: PASS run a-0599-1/.test(r.status)) bad("status line: no latest verdict: " + r.status);
      if (!/Floor [0-9.]+x, stated false-alarm rate/.test(r.status)) bad("status line: no floor and stated rate");
      if (!/Audit: .*\(95% interval [0-9.]+% to [0-9.]+%\) against [0-9.]+% claimed/.test(r.status)) bad("status line: no audit with its interval");
      // The score chart: the floor, points in the verdicts' colours.
      const svg = document.querySelector("#score-0 svg");
      if (!visible(svg)) bad("no score chart");
      else {
        const texts = [...svg.querySelectorAll("text")].map((t) => t.textContent);
        r.floorLabel = texts.find((t) => t.startsWith("floor ")) || "";
        if (!r.floorLabel) bad("the score chart has no floor");
        if (!svg.querySelector("line[stroke-dasharray]")) bad("the score chart has no floor line");
        r.points = {};
        for (const c of svg.querySelectorAll("circle.pt")) r.points[c.getAttribute("fill")] = (r.points[c.getAttribute("fill")] || 0) + 1;
        for (const [colour, what] of [["#009E73", "pass"], ["#D55E00", "fail"], ["#E69F00", "warn"], ["#CC79A7", "inconclusive"], ["#56B4E9", "rerun"]]) {
          if (!r.points[colour]) bad("no " + what + " point (" + colour + ") in the score chart");
        }
        r.marks = svg.querySelectorAll("rect.mark").length;
        if (r.marks < 5) bad(r.marks + " marks drawn, expected 5");
        const box = svg.getBoundingClientRect();
        if (box.right > document.documentElement.clientWidth + 1) bad("the score chart is wider than the page");
        // The keyboard: focus the chart, step back a run.
        svg.focus();
        svg.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft", bubbles: true }));
        const tip = document.querySelector("#score-0 .tip");
        r.tip = tip && !tip.hidden ? tip.textContent : "";
        if (!/Run a-0598-1/.test(r.tip) || !/Score [0-9.]+x/.test(r.tip) || !/Verdict: /.test(r.tip) || !/Commit /.test(r.tip)) bad("the arrow key showed no run: " + r.tip);
        if (!tip.querySelector('a[href^="https://github.com/qoscal/qoscal/"]')) bad("the tooltip has no link to the run");
      }
      // What changed.
      const h3 = [...document.querySelectorAll("#cal-0 h3")].find((h) => h.textContent === "What changed");
      const table = h3 && h3.parentElement.querySelector("table");
      r.changedRows = table ? table.querySelectorAll("tbody tr").length : 0;
      if (r.changedRows !== 50) bad("the what-changed table has " + r.changedRows + " rows, expected 50");
      // The filter: a name leaves only its multiple.
      const grid = document.getElementById("multiples-0");
      const input = document.getElementById("filter-0");
      const shown = () => [...grid.querySelectorAll(".multiple")].filter((m) => !m.hidden).map((m) => m.querySelector("h4").textContent);
      r.multiples = shown().length;
      if (r.multiples !== 50) bad(r.multiples + " small multiples, expected 50");
      for (const name of ["bench-07", '<img src=x onerror="window.__pwned=1">', "</script><script>"]) {
        input.value = name;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        const s = shown();
        if (s.length !== 1 || !s[0].includes(name)) bad("filtering by " + JSON.stringify(name) + " shows " + JSON.stringify(s));
      }
      input.value = "";
      input.dispatchEvent(new Event("input", { bubbles: true }));
      // No sideways scroll: nothing reaches past the page's width but
      // inside a box that scrolls itself (a wide table's).
      r.width = held ? +held[1] : document.documentElement.clientWidth;
      let right = 0, widest = "";
      for (const el of document.body.querySelectorAll("*")) {
        if (el.parentElement && el.parentElement.closest(".scroll")) continue;
        const b = el.getBoundingClientRect();
        if (b.width > 0 && b.right > right) { right = b.right; widest = el.tagName + (el.id ? "#" + el.id : el.className ? "." + el.className : ""); }
      }
      r.scrollWidth = Math.round(Math.max(right, document.body.scrollWidth));
      if (r.scrollWidth > r.width + 1) bad("the page scrolls sideways: " + r.scrollWidth + " px in " + r.width + " (" + widest + ")");
    } catch (e) {
      bad("the check failed: " + e);
    }
    const pre = document.createElement("pre");
    pre.id = "result";
    pre.textContent = "SITECHECK" + JSON.stringify(r) + "ENDCHECK";
    document.body.appendChild(pre);
  }
  // At the load event, so that --dump-dom, which waits for it, reads the
  // result: the site's deferred scripts have run by then.
  window.addEventListener("load", check);
})();
