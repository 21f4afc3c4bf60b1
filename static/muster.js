// Muster's progressive enhancements. Every page works without this file; the server stays the
// judge of points and legality, this only spares full page loads.
"use strict";

(function () {
  document.documentElement.classList.add("js");

  function wirePrintButtons(root) {
    for (const button of root.querySelectorAll("[data-print]")) {
      button.addEventListener("click", () => window.print());
    }
  }

  // Ask before destructive actions marked with data-confirm.
  // A button may carry its own data-confirm (buttons that submit a shared form).
  function wireConfirms(root) {
    for (const form of root.querySelectorAll("form[data-confirm]")) {
      form.addEventListener("submit", (event) => {
        if (!window.confirm(form.dataset.confirm)) event.preventDefault();
      });
    }
    for (const button of root.querySelectorAll("button[data-confirm]")) {
      button.addEventListener("click", (event) => {
        if (!window.confirm(button.dataset.confirm)) event.preventDefault();
      });
    }
  }

  // One send per form: a double click on a form's button would send it twice (two rosters, two
  // battles, a purchase paid twice). Listening on the document, this runs after the form's own
  // handlers, so a cancelled confirm or the live editor (which sends it itself) is left alone.
  function wireSingleSend() {
    document.addEventListener("submit", (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || event.defaultPrevented) return;
      if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
      if (form.dataset.sent) {
        event.preventDefault();
        return;
      }
      form.dataset.sent = "1";
    });
    // A page come back to with the back button may be sent again, on purpose.
    window.addEventListener("pageshow", () => {
      for (const form of document.querySelectorAll("form[data-sent]")) delete form.dataset.sent;
    });
  }

  // In element forms, offer only the sizes, weapons and upgrades the chosen type and size allow.
  // The options carry data-types / data-sizes from the catalogue; the server checks again.
  function filterOptions(form) {
    const type = form.querySelector("[data-role=type]");
    const size = form.querySelector("[data-role=size]");
    if (!type) return;
    for (const select of form.querySelectorAll("select[data-filter]")) {
      offerOnly(select, (option) => {
        const types = option.dataset.types ? option.dataset.types.split(" ") : null;
        const sizes = option.dataset.sizes ? option.dataset.sizes.split(" ") : null;
        return (!types || types.includes(type.value)) &&
          (!sizes || !size || select === size || sizes.includes(size.value));
      });
    }
  }

  // Hides and disables the options `ok` refuses; a refused choice moves to the first offered.
  function offerOnly(select, ok) {
    let selectedHidden = false;
    for (const option of select.options) {
      const offered = ok(option);
      option.hidden = !offered;
      option.disabled = !offered;
      if (!offered && option.selected) selectedHidden = true;
    }
    if (selectedHidden) {
      const first = Array.from(select.options).find((o) => !o.disabled);
      if (first) select.value = first.value;
    }
  }

  // A nation list follows the war chosen: only the nations the book lists for that war are
  // offered (the server accepts any pairing; this only keeps the choice short and sensible).
  function wireNarrowing(root) {
    for (const select of root.querySelectorAll("select[data-narrow-by]")) {
      const by = document.getElementById(select.dataset.narrowBy);
      if (!by || select.dataset.narrowWired) continue;
      select.dataset.narrowWired = "1";
      // What the roster holds now stays offered with its war, listed or not: nothing is changed
      // behind the player's back.
      const [keptNation, keptWar] = [select.value, by.value];
      const narrow = () =>
        offerOnly(select, (option) => {
          const wars = option.dataset.wars ? option.dataset.wars.split(" ") : null;
          return !wars || wars.includes(by.value) ||
            (option.value === keptNation && by.value === keptWar);
        });
      by.addEventListener("change", narrow);
      narrow();
    }
  }

  // "Add an element to group N" links point at the one add form; choose that group in it.
  function wireAddLinks(root) {
    for (const link of root.querySelectorAll("a[data-add-to]")) {
      link.addEventListener("click", () => {
        const select = document.getElementById("add-group");
        if (select) select.value = link.dataset.addTo;
        const name = document.getElementById("add-el-name");
        if (name) setTimeout(() => name.focus(), 0);
      });
    }
  }

  function wireElementForms(root) {
    for (const form of root.querySelectorAll("form[data-element-form]")) {
      filterOptions(form);
      form.addEventListener("change", (event) => {
        if (event.target.matches("[data-role=type], [data-role=size]")) filterOptions(form);
      });
    }
  }

  // The live editor: forms post in the background and the editor is replaced by the page the
  // server answers with (points, findings and any form errors included).
  function wireLiveEditor(editor) {
    editor.addEventListener("submit", async (event) => {
      const form = event.target;
      // getAttribute: editor forms have an input named "action", which shadows form.action.
      if (!(form instanceof HTMLFormElement) || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
      if (event.defaultPrevented) return;
      event.preventDefault();
      // One change at a time: a second click would be based on the version the first replaces.
      if (editor.classList.contains("is-busy")) return;
      const focusedId = document.activeElement && document.activeElement.id;
      editor.classList.add("is-busy");
      try {
        const response = await fetch(form.getAttribute("action") || window.location.pathname, {
          method: "POST",
          // The submitter's name and value count (a row's Remove button names its element).
          body: new URLSearchParams(new FormData(form, event.submitter)),
          credentials: "same-origin",
          redirect: "follow",
        });
        // The login ended meanwhile: the server answered with the login page. Keep the editor
        // and what was typed, and say that nothing was saved.
        if (response.redirected && new URL(response.url).pathname === "/login") {
          editor.classList.remove("is-busy");
          let note = document.getElementById("editor-logged-out");
          if (!note) {
            note = document.createElement("p");
            note.id = "editor-logged-out";
            note.className = "alert";
            note.setAttribute("role", "alert");
            editor.prepend(note);
          }
          note.textContent = "Your login has ended, so this change was not saved. Log in again " +
            "(in another tab, to keep this page), then send the change again.";
          note.scrollIntoView({ block: "nearest" });
          return;
        }
        const html = await response.text();
        const doc = new DOMParser().parseFromString(html, "text/html");
        const fresh = doc.getElementById("editor");
        if (!fresh) {
          // Not an editor page (for example the conflict page): show it as it is.
          document.open();
          document.write(html);
          document.close();
          return;
        }
        editor.replaceWith(fresh);
        document.title = doc.title;
        const url = new URL(response.url);
        history.replaceState(null, "", url.pathname + url.search);
        setUp(document);
        const anchor = url.hash || (response.redirected ? "" : "");
        const again = (focusedId && document.getElementById(focusedId)) || (anchor && document.querySelector(anchor));
        if (again) again.focus({ preventScroll: false });
      } catch (err) {
        // Network trouble: fall back to a normal submit so nothing is lost.
        editor.classList.remove("is-busy");
        form.submit();
      }
    }, { once: false });
  }

  // The new-roster form: show only the chosen rule system's own fields.
  function wireSystemFields(root) {
    const system = root.querySelector ? root.querySelector("#new-system") : null;
    if (!system) return;
    const sync = () => {
      for (const fieldset of root.querySelectorAll("fieldset[data-system]")) {
        fieldset.hidden = fieldset.dataset.system !== system.value;
      }
    };
    system.addEventListener("change", sync);
    sync();
  }

  // Print previews on a narrow screen: scale each sheet stack down to the width it has, so a
  // phone shows the whole page (printing is unaffected: print.css resets the zoom).
  function fitSheets() {
    const narrow = window.matchMedia("(max-width: 48rem)").matches;
    document.querySelectorAll(".print-area .sheet-stack").forEach((stack) => {
      stack.style.zoom = "";
      // A quick reference reflows to the phone's width instead (print.css).
      if (narrow && stack.closest(".reflow")) return;
      const have = stack.parentElement.clientWidth;
      const need = stack.scrollWidth;
      if (need > have && have > 0) stack.style.zoom = String(Math.floor((have / need) * 1000) / 1000);
    });
  }

  function setUp(root) {
    wireSystemFields(root);
    wireNarrowing(root);
    wireConfirms(root);
    wirePrintButtons(root);
    wireElementForms(root);
    wireAddLinks(root);
    const editor = root.getElementById ? root.getElementById("editor") : null;
    if (editor && !editor.dataset.wired) {
      editor.dataset.wired = "1";
      wireLiveEditor(editor);
    }
  }

  wireSingleSend();
  document.addEventListener("DOMContentLoaded", () => {
    setUp(document);
    fitSheets();
  });
  window.addEventListener("resize", fitSheets);
})();

// Odds pages (issue 18): picking a roster element fills the form at once (without the script,
// the pick is filled in when the form is sent), and a situation's link gets a Copy button.
(function () {
  function wireOdds(root) {
    for (const select of root.querySelectorAll("select[data-autofill]")) {
      // A pick made with the mouse or a touch fills the form at once. Arrow keys change a
      // closed select's value step by step, so from the keyboard the pick is sent with Enter
      // or on leaving the list, never on the first arrow press (WCAG 3.2.2).
      let keyed = false;
      let sent = select.value;
      const send = () => {
        if (select.value && select.value !== sent && select.form) {
          sent = select.value;
          select.form.requestSubmit();
        }
      };
      select.addEventListener("keydown", (e) => {
        keyed = true;
        if (e.key === "Enter") { e.preventDefault(); send(); }
      });
      select.addEventListener("pointerdown", () => { keyed = false; });
      select.addEventListener("change", () => { if (!keyed) send(); });
      select.addEventListener("blur", () => { if (keyed) send(); keyed = false; });
    }
    for (const button of root.querySelectorAll("button[data-copy]")) {
      const field = document.getElementById(button.dataset.copy);
      if (!field) continue;
      button.hidden = false;
      const copied = () => { button.textContent = "Copied"; };
      // The clipboard API needs a secure page; elsewhere the older command still copies.
      const fallback = () => { field.select(); if (document.execCommand("copy")) copied(); };
      button.addEventListener("click", () => {
        if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(copied, fallback);
        else fallback();
      });
    }
  }
  document.addEventListener("DOMContentLoaded", () => wireOdds(document));
})();

// ---------- Fight reports: expand all turns (issue 18) ----------
// The narration is one <details> per turn, which works without the script; this adds one
// button to open or close them all, and opens them all while printing.
(function () {
  "use strict";
  function wireTurnLogs() {
    document.querySelectorAll("[data-turn-log]").forEach((log) => {
      const turns = () => Array.from(log.querySelectorAll("details.turn"));
      if (log.dataset.wired || turns().length === 0) return;
      log.dataset.wired = "1";
      const tools = document.createElement("p");
      tools.className = "turn-tools no-print";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button button-secondary button-small";
      const label = () => {
        const allOpen = turns().every((d) => d.open);
        button.textContent = allOpen ? "Collapse all turns" : "Expand all turns";
        button.setAttribute("aria-expanded", allOpen ? "true" : "false");
      };
      button.addEventListener("click", () => {
        const open = !turns().every((d) => d.open);
        turns().forEach((d) => { d.open = open; });
        label();
      });
      log.addEventListener("toggle", label, true);
      label();
      tools.appendChild(button);
      log.parentNode.insertBefore(tools, log);
    });
  }
  let closedBeforePrint = [];
  window.addEventListener("beforeprint", () => {
    closedBeforePrint = Array.from(document.querySelectorAll("[data-turn-log] details.turn:not([open])"));
    closedBeforePrint.forEach((d) => { d.open = true; });
  });
  window.addEventListener("afterprint", () => {
    closedBeforePrint.forEach((d) => { d.open = false; });
    closedBeforePrint = [];
  });
  document.addEventListener("DOMContentLoaded", wireTurnLogs);
})();

// ---------- campaign map (issue 18): pick a march on the map, drag places in the editor, zoom ----------
(function () {
  "use strict";

  // A place one march away picks that march in the order form at once; without this script
  // its link opens the page with the march chosen. Either way the form still sends the order.
  function wireMapMarches() {
    const form = document.getElementById("order-form");
    if (!form) return;
    const radios = Array.from(form.querySelectorAll("input[name=order]"));
    const showPicked = () => {
      for (const place of document.querySelectorAll(".map-svg .place")) {
        const link = place.querySelector("a[data-route]");
        const picked = !!link && radios.some((r) => r.checked && r.value === link.dataset.route);
        place.classList.toggle("place-picked", picked);
      }
    };
    document.addEventListener("click", (event) => {
      const link = event.target.closest ? event.target.closest("a.place-link[data-route]") : null;
      if (!link) return;
      const radio = radios.find((r) => r.value === link.dataset.route);
      if (!radio) return;
      event.preventDefault();
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
      form.scrollIntoView({ block: "nearest" });
      radio.focus({ preventScroll: true });
    });
    form.addEventListener("change", showPicked);
    showPicked();
  }

  // The map editor: a place dragged on the map takes its new spot in its row's form, which is
  // sent when it is let go (the server checks it like typed numbers, and says if it is too
  // close to another place).
  function wirePlaceDragging() {
    const svg = document.querySelector(".map-svg[data-drag-places]");
    if (!svg) return;
    const [minX, minY, maxX, maxY] = svg.dataset.dragPlaces.split(" ").map(Number);
    const onMap = (event) => {
      const p = svg.createSVGPoint();
      p.x = event.clientX;
      p.y = event.clientY;
      return p.matrixTransform(svg.getScreenCTM().inverse());
    };
    const clamp = (v, lo, hi) => Math.round(Math.min(hi, Math.max(lo, v)));
    for (const place of svg.querySelectorAll(".place[data-place]")) {
      const id = place.dataset.place;
      const form = document.getElementById("place-form-" + id);
      const across = document.getElementById("x-" + id);
      const down = document.getElementById("y-" + id);
      if (!form || !across || !down) continue;
      place.classList.add("place-draggable");
      let drag = null;
      place.addEventListener("pointerdown", (event) => {
        if (event.button !== 0) return;
        event.preventDefault();
        const p = onMap(event);
        drag = { fromX: p.x, fromY: p.y, x: Number(place.dataset.x), y: Number(place.dataset.y), moved: false };
        try {
          place.setPointerCapture(event.pointerId);
        } catch (e) {
          // A pointer the browser does not know (a synthetic one) is simply not captured.
        }
      });
      place.addEventListener("pointermove", (event) => {
        if (!drag) return;
        const p = onMap(event);
        const x = clamp(drag.x + p.x - drag.fromX, minX, maxX);
        const y = clamp(drag.y + p.y - drag.fromY, minY, maxY);
        drag.moved = drag.moved || Math.abs(x - drag.x) + Math.abs(y - drag.y) > 2;
        across.value = String(x);
        down.value = String(y);
        place.setAttribute("transform", "translate(" + (x - drag.x) + " " + (y - drag.y) + ")");
      });
      place.addEventListener("pointerup", () => {
        if (!drag) return;
        const moved = drag.moved;
        drag = null;
        if (moved) {
          place.classList.add("place-saving");
          form.requestSubmit();
        }
      });
      place.addEventListener("pointercancel", () => {
        if (!drag) return;
        across.value = String(drag.x);
        down.value = String(drag.y);
        place.removeAttribute("transform");
        drag = null;
      });
    }
  }

  // Zoom for small screens: the map grows inside its own scrolling box.
  function wireMapZoom() {
    for (const figure of document.querySelectorAll(".campaign-map")) {
      const scroller = figure.querySelector(".map-scroll");
      const svg = figure.querySelector(".map-svg");
      if (!scroller || !svg) continue;
      let level = 1;
      const bar = document.createElement("div");
      bar.className = "map-zoom";
      const button = (text, label, step) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "button button-small button-secondary";
        b.textContent = text;
        b.setAttribute("aria-label", label);
        b.addEventListener("click", () => {
          // Keep the middle of what is in view in the middle.
          const midX = (scroller.scrollLeft + scroller.clientWidth / 2) / scroller.scrollWidth;
          const midY = (scroller.scrollTop + scroller.clientHeight / 2) / scroller.scrollHeight;
          level = Math.min(4, Math.max(1, level + step));
          svg.style.width = level * 100 + "%";
          scroller.classList.toggle("map-zoomed", level > 1);
          scroller.scrollLeft = midX * scroller.scrollWidth - scroller.clientWidth / 2;
          scroller.scrollTop = midY * scroller.scrollHeight - scroller.clientHeight / 2;
          out.disabled = level === 1;
          into.disabled = level === 4;
        });
        return b;
      };
      const into = button("+", "Zoom the map in", 1);
      const out = button("−", "Zoom the map out", -1);
      out.disabled = true;
      bar.append(into, out);
      figure.insertBefore(bar, scroller);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    wireMapMarches();
    wirePlaceDragging();
    wireMapZoom();
  });
})();

// At the table (issue 19): a tap is sent in the background, with the page's CSRF token, and the
// table is replaced in place by the one the server answers with: the saved table, or the newer
// one and why the tap was not saved when someone else saved first (409). Without the script
// every tap is a plain form post that comes back to the page.
(function () {
  function wireTable(live) {
    live.addEventListener("submit", async (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.matches("[data-table-tap]")) return;
      if (event.defaultPrevented || live.dataset.plain) return;
      event.preventDefault();
      // One tap at a time: the next is based on the version this one saves.
      if (live.classList.contains("is-busy")) return;
      live.classList.add("is-busy");
      const submitter = event.submitter;
      const what = form.querySelector("[name=what]").value;
      const target = form.querySelector("[name=target]").value;
      const value = submitter ? submitter.value : "";
      const meta = document.querySelector('meta[name="csrf-token"]');
      try {
        const response = await fetch(form.getAttribute("action"), {
          method: "POST",
          headers: meta ? { "X-CSRF-Token": meta.content } : {},
          body: new URLSearchParams(new FormData(form, submitter)),
          credentials: "same-origin",
          redirect: "follow",
        });
        const html = await response.text();
        const doc = new DOMParser().parseFromString(html, "text/html");
        const fresh = doc.getElementById("table-live");
        if (!fresh) {
          // Not the table (the login ended, or an error page): show it as it is.
          document.open();
          document.write(html);
          document.close();
          return;
        }
        live.replaceWith(fresh);
        wireTable(fresh);
        const problem = fresh.querySelector("#table-problem");
        if (problem) {
          problem.scrollIntoView({ block: "center" });
          return;
        }
        for (const again of fresh.querySelectorAll("form[data-table-tap]")) {
          if (again.querySelector("[name=what]").value !== what) continue;
          if (again.querySelector("[name=target]").value !== target) continue;
          const button = again.querySelector('button[value="' + CSS.escape(value) + '"]');
          if (button) button.focus({ preventScroll: true });
        }
      } catch (err) {
        // Network trouble: send it as a plain form post instead.
        live.classList.remove("is-busy");
        live.dataset.plain = "1";
        form.requestSubmit(submitter);
      }
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const live = document.getElementById("table-live");
    if (live) wireTable(live);
  });
})();
