// The page script of scripts/mermaid-check.sh: it runs in headless
// Chromium beside mermaid.min.js and marked.umd.js (from npm), renders
// one step summary (window.SUMMARY, its Markdown) as GitHub shows it, in a
// column of the step summary's width, draws every ```mermaid block with
// Mermaid, and measures what a reviewer would see:
//   - a block Mermaid cannot parse or draw (GitHub shows an error box);
//   - two text elements of one chart whose boxes intersect (by more than
//     half a pixel each way): overlapping labels;
//   - a text element of a chart that reaches outside the chart (clipped);
//   - a text bar (a code span in a table cell) broken over two lines.
// The boxes are the browser's own (getBoundingClientRect), in CSS pixels
// at the width drawn. The result is a JSON document written into
// <pre id="result">, which the shell script reads with --dump-dom.
"use strict";
(async () => {
  const out = { rendered: 0, errors: [], charts: [], wrapped: [], height: 0 };
  const box = (r) => ({ x: +r.left.toFixed(1), y: +r.top.toFixed(1), w: +r.width.toFixed(1), h: +r.height.toFixed(1) });
  try {
    const doc = document.getElementById("summary");
    doc.innerHTML = marked.parse(window.SUMMARY, { gfm: true });
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
    const blocks = [...doc.querySelectorAll("pre > code.language-mermaid")];
    for (let i = 0; i < blocks.length; i++) {
      const pre = blocks[i].parentElement;
      const text = blocks[i].textContent;
      const holder = document.createElement("div");
      holder.className = "chart";
      pre.replaceWith(holder);
      try {
        await mermaid.parse(text);
        const { svg } = await mermaid.render("chart" + i, text);
        if (!svg.includes("<svg") || svg.includes("Syntax error")) throw new Error("no chart drawn");
        holder.innerHTML = svg;
        out.rendered++;
      } catch (e) {
        out.errors.push("block " + i + ": " + ((e && e.message) || e));
        continue;
      }
      const svg = holder.querySelector("svg");
      const frame = svg.getBoundingClientRect();
      const title = (svg.querySelector(".chart-title text") || {}).textContent || "chart " + i;
      const texts = [...svg.querySelectorAll("text")].filter(
        (t) => !t.closest(".mermaid-tmp-group") && t.textContent.trim() !== "" && t.getBoundingClientRect().width > 0
      );
      const rects = texts.map((t) => t.getBoundingClientRect());
      const chart = { index: i, title, width: +frame.width.toFixed(1), texts: texts.length, overlaps: [], clipped: [], clearance: null };
      for (let a = 0; a < texts.length; a++) {
        const ra = rects[a];
        if (ra.left < frame.left - 1 || ra.right > frame.right + 1 || ra.top < frame.top - 1 || ra.bottom > frame.bottom + 1) {
          chart.clipped.push({ text: texts[a].textContent, box: box(ra), chart: box(frame) });
        }
        for (let b = a + 1; b < texts.length; b++) {
          const rb = rects[b];
          // The gap between the boxes: along x and along y; they intersect
          // when both are negative.
          const gx = Math.max(rb.left - ra.right, ra.left - rb.right);
          const gy = Math.max(rb.top - ra.bottom, ra.top - rb.bottom);
          const sep = Math.max(gx, gy);
          if (chart.clearance === null || sep < chart.clearance) chart.clearance = +sep.toFixed(1);
          if (gx < -0.5 && gy < -0.5) {
            chart.overlaps.push({ a: texts[a].textContent, b: texts[b].textContent, w: +(-gx).toFixed(1), h: +(-gy).toFixed(1) });
          }
        }
      }
      out.charts.push(chart);
    }
    // A text bar is a code span in a table cell; it must stay on one line.
    for (const code of doc.querySelectorAll("td code")) {
      if (code.getClientRects().length > 1) out.wrapped.push(code.textContent);
    }
    out.height = Math.ceil(document.documentElement.scrollHeight);
  } catch (e) {
    out.errors.push("page: " + ((e && e.message) || e));
  }
  document.getElementById("result").textContent = "RESULT " + JSON.stringify(out) + " END";
})();
