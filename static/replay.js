// static/replay.js: a replay stepped by the keys. ← and → take the step before and after, Home and End the start
// and the end: each is the link of the step's own navigation, followed as a tap would (htmx swaps the step in and
// the address follows it; without htmx, the link loads the page). Keys typed into a field are left to it.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    var name = KEYS[event.key];
    if (!name || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    var link = document.querySelector('#replay [data-replay-step="' + name + '"]');
    if (!link) return;
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") return;
    // Focus moves with the step, so a screen reader hears where it stands and the next key starts from there.
    link.focus();
    link.click();
  });
})();
