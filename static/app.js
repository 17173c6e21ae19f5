// The table companion's small script: keeps the live region from swapping
// under a thumb that is filling in a form. Everything works without it.
(function () {
  "use strict";

  function busy(live) {
    // A form the player has started, or a confirm step that is open, must not vanish.
    if (live.querySelector("form[data-dirty], [data-keep]")) return true;
    var active = document.activeElement;
    return !!(active && live.contains(active) && active.matches("input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea"));
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("#live form");
    if (form) form.setAttribute("data-dirty", "");
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    // Only the poll is held back; the player's own submissions always show.
    if (target && target.id === "live" && source === target && busy(target)) {
      event.detail.shouldSwap = false;
    }
  });

  document.addEventListener("click", function (event) {
    var keep = event.target.closest && event.target.closest("[data-cancel]");
    if (keep) {
      event.preventDefault();
      var box = keep.closest("[data-keep]");
      if (box) box.remove();
    }
  });
})();
