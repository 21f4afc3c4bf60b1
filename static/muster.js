// Muster's small progressive enhancements. Every page works without this file.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  // Ask before destructive actions marked with data-confirm.
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
});
