// The teaching kit in the browser (issue 19): predictions, exercises and
// quizzes that check themselves, the reader's progress (in localStorage,
// shown in the chapter list), Copy buttons of "On your machine" and
// presenter mode (instructor notes). The HTML is the mdbook-widgets
// preprocessor's (widgets/preprocessor/src/teach/); a widget tells the page
// what it showed through its placeholder's `data-results` and `data-values`.
// Minified by `cargo xtask build` (terser): it counts toward the widget bytes.
(() => {
  "use strict";
  let KEY = "tcp-book-progress", PRESENT = "tcp-book-presenter";
  let doc = document, html = doc.documentElement;
  let $ = (sel, el) => (el || doc).querySelector(sel);
  let $$ = (sel, el) => [...(el || doc).querySelectorAll(sel)];
  let base = new URL((typeof path_to_root == "string" ? path_to_root : "") + ".", location.href).href;
  let rel = (href) => {
    href = href.split(/[?#]/)[0];
    return href.indexOf(base) ? null : href.slice(base.length);
  };
  // index.html repeats the first chapter: its progress is that chapter's.
  let active = $("#mdbook-sidebar a.active");
  let page = (active && rel(active.href)) || rel(location.href);
  let manifest = $(".tw-book-items");
  let items = manifest ? JSON.parse(manifest.textContent) : {};

  // localStorage, where the browser allows it (not in some private modes).
  let store = (k, v) => {
    try { return v == null ? localStorage.getItem(k) : localStorage.setItem(k, v); } catch (e) { /* this visit only */ }
  };
  let load = () => JSON.parse(store(KEY) || "{}");
  let mine = load()[page] || {}, done = (id) => (mine[id] || {}).done;
  function save(id, state) {
    let all = load();
    (all[page] = all[page] || {})[id] = mine[id] = state;
    store(KEY, JSON.stringify(all));
    progress();
  }

  let say = (el, text) => { el.textContent = text; };
  let words = (m) => m.replace(/_/g, " ");
  let fmt = (v) => Math.abs(v) >= 100 || v === Math.round(v) ? "" + Math.round(v) : "" + +v.toPrecision(3);
  let SIGN = { "<=": "≤", ">=": "≥", "==": "=" }, TICK = " ✓";
  let results = (w) => JSON.parse(w.getAttribute("data-results"));
  // A goal: [[metric, op, value], …], all to hold; a metric the run lacks fails.
  function holds(goal, r) {
    return goal.every((c) => {
      let v = r[c[0]], b = c[2], op = c[1];
      return typeof v == "number" && (op == "<" ? v < b : op == "<=" ? v <= b : op == ">" ? v > b : op == ">=" ? v >= b
        : Math.abs(v - b) <= 1e-6 * Math.max(1, Math.abs(b)));
    });
  }
  function watch(w, f) {
    if (w) new MutationObserver(f).observe(w, { attributes: true, attributeFilter: ["data-results", "data-revealed"] });
  }

  // --- Predict, then see.
  $$("form.tw-predict").forEach((form) => {
    let id = form.dataset.item, w = doc.getElementById(form.dataset.for);
    let out = $(".tw-predict-result", form), unit = form.dataset.unit, metric = form.dataset.metric;
    let answer;
    function commit(a) {
      answer = a;
      if (w) w.setAttribute("data-answered", a);
      $$("input,button", form).forEach((el) => { el.disabled = true; });
      say(out, "Now press play below and let the run end.");
    }
    function reveal() {
      let r = w.getAttribute("data-revealed") && results(w);
      if (!r || answer == null) return;
      let v = r[metric], sim = typeof v == "number" ? fmt(v) + " " + unit : "no " + words(metric);
      // Choices: the labels whose condition the run meets are right.
      let radios = $$("input[type=radio]", form), label = (i) => i.parentNode.textContent.trim();
      let right = radios.filter((i) => holds(JSON.parse(i.dataset.goal), r)).map(label).join(" / ");
      say(out, (answer == "skip" ? "The" : "You said " + (radios.length ? label(radios[answer]) : answer + " " + unit) + "; the") +
        " simulation: " + sim + (right ? ", so: " + right : "") + ".");
      if (!done(id)) save(id, { answer: answer, done: 1 });
    }
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      let field = $("input[type=number]", form), chosen = $("input:checked", form);
      let a = field ? field.value.trim() : chosen && chosen.value;
      // The browser's own validation (`required`, a number field) comes first.
      save(id, { answer: a });
      commit(a);
    });
    $(".tw-predict-skip", form).addEventListener("click", () => {
      save(id, { answer: "skip" });
      commit("skip");
    });
    let st = mine[id];
    if (st && st.answer != null) {
      let f = $("input[type=number]", form), r = $("input[value='" + st.answer + "']", form);
      if (f && st.answer != "skip") f.value = st.answer;
      if (r) r.checked = true;
      commit(st.answer);
    }
    watch(w, reveal);
    if (w) reveal();
  });

  // --- Exercises: a goal over the widget's run.
  $$("section.tw-exercise").forEach((sec) => {
    let id = sec.dataset.item, w = doc.getElementById(sec.dataset.for), goal = JSON.parse(sec.dataset.goal);
    let status = $(".tw-exercise-status", sec), solved = 0;
    function check() {
      let r = w && results(w);
      if (!r) return;
      let now = goal.map((c) => {
        return words(c[0]) + " = " + (typeof r[c[0]] == "number" ? fmt(r[c[0]]) : "none") + " (goal " + (SIGN[c[1]] || c[1]) + " " + c[2] + ")";
      }).join("; ");
      if (holds(goal, r)) {
        say(status, "Met" + TICK + ": " + now);
        $(".tw-exercise-explanation", sec).hidden = false;
        if (!done(id) || solved) save(id, solved ? { done: 1, solution: 1 } : { done: 1 });
      } else {
        say(status, "Not met yet: " + now + (done(id) ? ". You met it before" + TICK : ""));
      }
    }
    let hints = $$(".tw-hint", sec), next = $(".tw-hint-next", sec);
    if (next) next.addEventListener("click", () => {
      let shown = hints.filter((h) => !h.hidden).length;
      hints[shown].hidden = false;
      if (shown + 1 >= hints.length) next.hidden = true;
      else next.textContent = "Show a hint (" + (shown + 2) + " of " + hints.length + ")";
    });
    $(".tw-exercise-solve", sec).addEventListener("click", () => {
      let url = new URL(location.href), sol = JSON.parse(sec.dataset.solution);
      [...url.searchParams.keys()].forEach((k) => {
        if (!k.indexOf(w.id + ".")) url.searchParams.delete(k);
      });
      history.replaceState(history.state, "", url.href);
      for (let k in sol) w.setAttribute("data-" + k, sol[k]);
      $(".tw-exercise-solution", sec).hidden = false;
      solved = 1;
      if (window.tcpWidgets) tcpWidgets.load().then((x) => { x.unmount(w); x.mount(w); });
    });
    if (done(id)) {
      say(status, "Met before" + TICK);
      $(".tw-exercise-explanation", sec).hidden = false;
    }
    watch(w, check);
    check();
  });

  // --- Quizzes: every answer explained.
  $$("form.tw-quiz").forEach((form) => {
    let id = form.dataset.item, qs = $$(".tw-question", form);
    function grade(answers) {
      let right = 0;
      qs.forEach((q) => {
        let status = $(".tw-q-status", q), field = $("input[type=number]", q), ok;
        if (field) {
          let v = parseFloat(field.value), a = +field.dataset.answer;
          if (isNaN(v)) return say(status, "");
          answers[q.id] = field.value;
          ok = Math.abs(v - a) <= +field.dataset.tolerance + 1e-9 * Math.abs(a);
          $(".tw-why", q).hidden = !ok;
          say(status, ok ? "Right" + TICK : "Not quite: " + (v > a ? "too high." : "too low."));
        } else {
          let chosen = $("input:checked", q);
          $$(".tw-option", q).forEach((o) => {
            o.classList.remove("tw-right", "tw-wrong");
            $(".tw-why", o).hidden = true;
          });
          if (!chosen) return say(status, "");
          answers[q.id] = chosen.value;
          ok = chosen.hasAttribute("data-correct");
          $$(".tw-option", q).forEach((o) => {
            let picked = o.contains(chosen);
            if (picked || ok) {
              $(".tw-why", o).hidden = false;
              o.classList.add($("[data-correct]", o) ? "tw-right" : "tw-wrong");
            }
          });
          say(status, ok ? "Right" + TICK : "Not quite: read why, and try again.");
        }
        if (ok) right++;
      });
      return right;
    }
    function check() {
      let answers = {}, right = grade(answers), all = right == qs.length;
      say($(".tw-quiz-status", form), right + " of " + qs.length + " right" + (all ? TICK : "."));
      save(id, all || done(id) ? { answers: answers, done: 1 } : { answers: answers });
    }
    form.addEventListener("submit", (e) => { e.preventDefault(); check(); });
    $(".tw-quiz-all", form).addEventListener("click", () => {
      $$(".tw-why", form).forEach((el) => { el.hidden = false; });
    });
    let st = mine[id];
    if (st && st.answers) {
      qs.forEach((q) => {
        let a = st.answers[q.id], f = $("input[type=number]", q), r = a != null && $("input[value='" + a + "']", q);
        if (a == null) return;
        if (f) f.value = a;
        else if (r) r.checked = true;
      });
      check();
    }
  });

  // --- Progress: per chapter in the sidebar, and on this page.
  function progress() {
    let all = load();
    let count = (p) => {
      return items[p].filter((it) => { return ((all[p] || {})[it[0]] || {}).done; }).length;
    };
    $$("#mdbook-sidebar a[href]:not([href^='#'])").forEach((a) => {
      let p = rel(a.href);
      if (!p || !items[p]) return;
      let n = count(p), m = items[p].length, b = $(".tw-progress", a);
      if (!b) a.appendChild(b = doc.createElement("span")).className = "tw-progress";
      b.textContent = n == m ? TICK : n + "/" + m;
      b.title = n + " of " + m + " done";
      b.classList.toggle("tw-complete", n == m);
    });
    let main = $("main");
    if (items[page] && main) {
      let line = $(".tw-page-progress") || main.appendChild(doc.createElement("p"));
      line.className = "tw-page-progress";
      say(line, "You have done " + count(page) + " of " + items[page].length + " exercises and questions on this page.");
    }
  }
  progress();

  // --- "On your machine": Copy, or select the text where the clipboard is refused.
  $$(".tw-copy").forEach((b) => {
    b.addEventListener("click", () => {
      let code = $("code", b.closest(".tw-command"));
      let done = (t) => { b.textContent = t; setTimeout(() => { b.textContent = "Copy"; }, 2500); };
      let select = () => {
        let range = doc.createRange(), s = getSelection();
        range.selectNodeContents(code);
        s.removeAllRanges();
        s.addRange(range);
        done("Selected: press Ctrl+C");
      };
      if (navigator.clipboard) navigator.clipboard.writeText(code.textContent).then(() => { done("Copied"); }, select);
      else select();
    });
  });

  // --- Presenter mode: the instructor notes, with the page's timing.
  let notes = $$(".tw-notes-instructor");
  let button = doc.createElement("button");
  button.type = "button";
  button.id = "tw-presenter-toggle";
  button.className = "icon-button";
  button.title = button.ariaLabel = "Presenter mode: instructor notes (p)";
  button.setAttribute("aria-keyshortcuts", "p");
  // Its icon, a screen on a stand, is drawn by teach.css.
  let bar = $("#mdbook-menu-bar .right-buttons");
  if (bar) bar.insertBefore(button, bar.firstChild);
  function present(on) {
    html.classList.toggle("tw-presenting", on);
    button.setAttribute("aria-pressed", on);
    store(PRESENT, on ? "1" : "");
    let t = $(".tw-timing");
    if (on && notes.length && !t) {
      let min = notes.map((n) => +n.dataset.minutes);
      t = doc.createElement("p");
      t.className = "tw-timing";
      t.textContent = "Timing: " + fmt(min.reduce((a, b) => a + b)) + " min (" +
        min.map(fmt).join(" + ") + ")";
      $("main").insertBefore(t, $("main").firstChild);
    }
  }
  button.addEventListener("click", () => { present(!html.classList.contains("tw-presenting")); });
  doc.addEventListener("keydown", (e) => {
    let t = e.target;
    if (e.key != "p" || e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(t.nodeName) || t.isContentEditable) return;
    e.preventDefault();
    present(!html.classList.contains("tw-presenting"));
  });
  present(store(PRESENT) == "1");
})();
