// The check of TestReportBrowser: runs in a page that shows the report in
// a frame of the viewport's size, measures the report as laid out there,
// and writes what it finds into the page as REPORTCHECK{json}ENDCHECK.
addEventListener('load', () => {
  const f = document.querySelector('iframe');
  const d = f.contentDocument, w = f.contentWindow;
  const W = d.documentElement.clientWidth;
  const r = { width: W, scrollWidth: d.documentElement.scrollWidth, charts: 0, minText: Infinity, floorLabel: '', idCells: 0, problems: [] };
  // Every chart shown (the other size's is not displayed) fits the width,
  // with all its text.
  for (const svg of d.querySelectorAll('figure svg')) {
    const b = svg.getBoundingClientRect();
    if (b.width === 0) continue;
    r.charts++;
    const name = svg.closest('figure').id;
    if (b.left < -0.5 || b.right > W + 0.5) r.problems.push(`chart ${name} spans ${b.left.toFixed(0)} to ${b.right.toFixed(0)} px of a ${W} px viewport`);
    const scale = b.width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll('text')) {
      r.minText = Math.min(r.minText, parseFloat(w.getComputedStyle(t).fontSize) * scale);
      const tb = t.getBoundingClientRect();
      if (tb.left < -0.5 || tb.right > W + 0.5) r.problems.push(`chart ${name}: text "${t.textContent}" at ${tb.left.toFixed(0)} to ${tb.right.toFixed(0)} px, outside the ${W} px viewport`);
      // The label at the floor line's end (its legend entry says more).
      if (name === 'score-sequence' && /^floor [0-9.]+$/.test(t.textContent)) r.floorLabel = t.textContent;
    }
  }
  // Every cell of a column headed "run" is one line: its text's boxes
  // all sit on one line.
  for (const table of d.querySelectorAll('table')) {
    const heads = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim());
    const col = heads.indexOf('run');
    if (col < 0) continue;
    for (const tr of table.querySelectorAll('tbody tr')) {
      const td = tr.children[col];
      if (!td || td.textContent.trim() === '') continue;
      r.idCells++;
      const range = d.createRange();
      range.selectNodeContents(td);
      const tops = new Set([...range.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
      if (tops.size > 1) r.problems.push(`run id "${td.textContent}" is on ${tops.size} lines`);
    }
  }
  if (r.minText === Infinity) r.minText = 0;
  const p = document.createElement('pre');
  p.textContent = 'REPORTCHECK' + JSON.stringify(r) + 'ENDCHECK';
  document.body.appendChild(p);
});
