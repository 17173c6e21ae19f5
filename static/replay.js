// static/replay.js: a replay stepped by the keys. ← and → take the step before and after, Home and End the start
// and the end. A key follows the step's own link as a tap would (htmx swaps the step in, the address follows it;
// without htmx, the link loads the page). Keys pressed while a step is on its way are counted, not lost: once it
// is in, the step they add up to is asked for at once. Keys typed into a field are left to it.
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  var wanted = null;  // the step the keys asked for while another was on its way
  var asking = false;
  var goingTo = null;  // the step on its way

  function region() { return document.getElementById("replay"); }

  function stepOf(box, name, from) {
    var last = Number(box.dataset.last);
    return { prev: Math.max(0, from - 1), next: Math.min(last, from + 1), first: 0, last: last }[name];
  }

  function ask(box, step) {
    var url = box.dataset.url + "?at=" + step;
    asking = true;
    goingTo = step;
    window.htmx.ajax("GET", url, { target: "#replay", swap: "outerHTML" });
  }

  document.addEventListener("keydown", function (event) {
    var name = KEYS[event.key];
    var box = region();
    if (!name || !box || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    var link = box.querySelector('[data-replay-step="' + name + '"]');
    if (!link) return;
    event.preventDefault();
    // Focus moves with the step, so a screen reader hears where it stands and the next key starts from there.
    link.focus();
    if (asking) {
      wanted = stepOf(box, name, wanted !== null ? wanted : goingTo !== null ? goingTo : Number(box.dataset.at));
      return;
    }
    if (link.getAttribute("aria-disabled") === "true") return;
    if (window.htmx) {
      ask(box, stepOf(box, name, Number(box.dataset.at)));
    } else {
      link.click();
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!(event.detail.target && event.detail.target.id === "replay")) return;
    asking = true;
    var found = /[?&]at=(\d+)/.exec(event.detail.pathInfo && event.detail.pathInfo.requestPath || "");
    if (found) goingTo = Number(found[1]);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var box = region();
    if (!box || !(event.detail.target && event.detail.target.id === "replay" || event.target === box)) return;
    asking = false;
    goingTo = null;
    // The address follows the step shown, so a reload keeps the place.
    history.replaceState(history.state, "", box.dataset.url + "?at=" + box.dataset.at);
    if (wanted !== null && wanted !== Number(box.dataset.at)) {
      var step = wanted;
      wanted = null;
      ask(box, step);
    } else {
      wanted = null;
    }
  });
  function failed() { asking = false; wanted = null; goingTo = null; }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);
})();
